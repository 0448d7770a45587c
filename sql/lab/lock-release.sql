-- Purpose: Release one of Spinlock Lab's application locks that this session took (after drop-lab, cleanup, deploy or restore; an experiment's locks go with its connection). Returns 0 when released, -999 when this session did not hold it. Docs: "sp_releaseapplock (Transact-SQL)".
-- Permission: membership in the public role (@DbPrincipal = 'public')
-- Parameters: @resource nvarchar(255)
DECLARE @result int;
EXEC @result = sys.sp_releaseapplock @Resource = @resource, @LockOwner = 'Session', @DbPrincipal = N'public';
SELECT @result AS result;
