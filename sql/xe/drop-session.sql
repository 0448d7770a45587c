-- Purpose: Drop one of Spinlock Lab's event sessions if it exists (after a capture, on failure, on cancel, and from `spinlab restore` after a crash). Only a name with the SpinlockLab_ prefix is ever dropped; dropping a running session also stops it. Syntax: Microsoft Learn "DROP EVENT SESSION (Transact-SQL)".
-- Permission: ALTER ANY EVENT SESSION (SQL Server 2022+: DROP ANY EVENT SESSION suffices)
-- Parameters: @session sysname
IF @session IS NULL OR @session NOT LIKE N'SpinlockLab[_]%'
    THROW 50020, N'Spinlock Lab: only event sessions whose names start with SpinlockLab_ are dropped.', 1;
IF EXISTS (SELECT 1 FROM sys.server_event_sessions AS es WHERE es.name = @session)
BEGIN
    DECLARE @drop nvarchar(max) = N'DROP EVENT SESSION ' + QUOTENAME(@session) + N' ON SERVER;';
    EXEC sys.sp_executesql @drop;
END;
SELECT COUNT(*) AS remaining FROM sys.server_event_sessions AS es WHERE es.name = @session;
