-- Purpose: Drop the lab database, only if it carries Spinlock Lab's mark; sessions still in it are rolled back.
-- Permission: ALTER ANY DATABASE, or CONTROL on the lab database; ALTER ANY CONNECTION to end a session that took the single-user slot
-- Parameters: @db sysname
DECLARE @mark nvarchar(256) = NULL, @sql nvarchar(max);
IF DB_ID(@db) IS NULL RETURN;
SET @sql = N'SELECT @mark = CAST(value AS nvarchar(256)) FROM ' + QUOTENAME(@db) + N'.sys.extended_properties WHERE class = 0 AND name = N''SpinlockLab'';';
EXEC sys.sp_executesql @sql, N'@mark nvarchar(256) OUTPUT', @mark = @mark OUTPUT;
IF @mark IS NULL
    THROW 50004, N'Spinlock Lab: refusing to drop a database that Spinlock Lab did not create (no SpinlockLab extended property).', 1;
-- Between SET SINGLE_USER and DROP the one connection allowed in can be taken by someone else (a monitor whose pool
-- reconnects into the lab database): DROP then fails with 3702 (in use) and a new SET SINGLE_USER with 5064. Retry a
-- few times, ending the session that holds it (KILL: ALTER ANY CONNECTION, which sysadmin and processadmin have).
DECLARE @tries int = 0, @spid int = NULL;
WHILE 1 = 1
BEGIN
    BEGIN TRY
        SET @sql = N'ALTER DATABASE ' + QUOTENAME(@db) + N' SET SINGLE_USER WITH ROLLBACK IMMEDIATE; DROP DATABASE ' + QUOTENAME(@db) + N';';
        EXEC sys.sp_executesql @sql;
        BREAK;
    END TRY
    BEGIN CATCH
        SET @tries += 1;
        IF ERROR_NUMBER() NOT IN (3702, 5064) OR @tries >= 5 THROW;
        SELECT TOP (1) @spid = s.session_id FROM sys.dm_exec_sessions AS s WHERE s.database_id = DB_ID(@db) AND s.session_id <> @@SPID;
        IF @spid IS NOT NULL
        BEGIN
            SET @sql = N'KILL ' + CAST(@spid AS nvarchar(11)) + N';';
            EXEC sys.sp_executesql @sql;
        END;
        SET @spid = NULL;
    END CATCH;
END;
