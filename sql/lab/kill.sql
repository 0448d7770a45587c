-- Purpose: End one session (KILL takes no variable, so the statement is built from the typed session id).
-- Permission: ALTER ANY CONNECTION (sysadmin and processadmin have it)
-- Parameters: @spid int
DECLARE @sql nvarchar(64) = N'KILL ' + CAST(@spid AS nvarchar(11)) + N';';
EXEC sys.sp_executesql @sql;
