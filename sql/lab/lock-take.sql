-- Purpose: Take one of Spinlock Lab's application locks (the lab database's, or the server-wide affinity knob's) for this session, without waiting: an experiment holds its locks on its own connection for its whole life, and drop-lab, cleanup, deploy and restore take them for the length of the command, so a second experiment or a change under a running one is refused. @LockOwner = 'Session' ties the lock to the connection: a killed process or a lost connection releases it. The lock is scoped to the current database (the product's admin sessions are in master). Returns 0 when granted, -1 when another session holds the resource in an incompatible mode, -999 on a parameter error. Docs: "sp_getapplock (Transact-SQL)" (SQL Server 2016+, Linux, Azure SQL Managed Instance).
-- Permission: membership in the public role (@DbPrincipal = 'public')
-- Parameters: @resource nvarchar(255), @mode varchar(32)
DECLARE @result int;
EXEC @result = sys.sp_getapplock @Resource = @resource, @LockMode = @mode, @LockOwner = 'Session', @LockTimeout = 0, @DbPrincipal = N'public';
SELECT @result AS result;
