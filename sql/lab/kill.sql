-- Purpose: End one session (KILL takes no variable, so the statement is built from the typed session id).
-- Permission: ALTER ANY CONNECTION (sysadmin and processadmin have it)
-- Parameters: @spid int
-- A NULL id would build a NULL statement, which sp_executesql runs as nothing and reports as success.
IF @spid IS NULL OR @spid < 1
    THROW 50013, N'Spinlock Lab: KILL needs a session id.', 1;
DECLARE @sql nvarchar(64) = N'KILL ' + CAST(@spid AS nvarchar(11)) + N';';
EXEC sys.sp_executesql @sql;
