-- Purpose: Drop one of Spinlock Lab's event sessions if it exists (after a capture, on failure, on cancel, and from `spinlab restore` after a crash). Only a name with the SpinlockLab_ prefix is ever dropped; dropping a running session also stops it. Syntax: Microsoft Learn "DROP EVENT SESSION (Transact-SQL)". sys.server_event_sessions shows nothing to a login without VIEW SERVER STATE (2022+: VIEW SERVER PERFORMANCE STATE), so such a login cannot tell "absent" from "hidden": the drop is then attempted anyway, error 15151 ("does not exist or you do not have permission") is taken as "nothing to drop", and remaining comes back NULL (not verified) instead of a 0 that would call a running session gone.
-- Permission: ALTER ANY EVENT SESSION (SQL Server 2022+: DROP ANY EVENT SESSION suffices); VIEW SERVER STATE (2022+: VIEW SERVER PERFORMANCE STATE) to confirm the session is gone
-- Parameters: @session sysname
IF @session IS NULL OR @session NOT LIKE N'SpinlockLab[_]%'
    THROW 50020, N'Spinlock Lab: only event sessions whose names start with SpinlockLab_ are dropped.', 1;
DECLARE @drop nvarchar(max) = N'DROP EVENT SESSION ' + QUOTENAME(@session) + N' ON SERVER;';
-- HAS_PERMS_BY_NAME is NULL for a permission name the server does not know (VIEW SERVER PERFORMANCE STATE before 2022).
DECLARE @visible bit = CASE WHEN HAS_PERMS_BY_NAME(NULL, NULL, N'VIEW SERVER STATE') = 1
                              OR HAS_PERMS_BY_NAME(NULL, NULL, N'VIEW SERVER PERFORMANCE STATE') = 1 THEN 1 ELSE 0 END;
IF @visible = 0 OR EXISTS (SELECT 1 FROM sys.server_event_sessions AS es WHERE es.name = @session)
BEGIN
    BEGIN TRY
        EXEC sys.sp_executesql @drop;
    END TRY
    BEGIN CATCH
        IF @visible = 1 OR ERROR_NUMBER() <> 15151 THROW;
    END CATCH;
END;
SELECT CASE WHEN @visible = 1 THEN (SELECT COUNT(*) FROM sys.server_event_sessions AS es WHERE es.name = @session) END AS remaining;
