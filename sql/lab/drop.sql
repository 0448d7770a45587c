-- Purpose: Drop the lab database, only if it carries Spinlock Lab's mark; sessions still in it are rolled back (SET SINGLE_USER WITH ROLLBACK IMMEDIATE). Azure SQL Managed Instance refuses SINGLE_USER, so there it is a plain DROP after the engine has ended the lab's sessions. One attempt: the engine (dropLab) retries on 3702/5064 after ending the session that took the single-user slot or still uses the database (lab/holder, lab/kill).
-- Permission: ALTER ANY DATABASE, or CONTROL on the lab database
-- Parameters: @db sysname
DECLARE @mark nvarchar(256) = NULL, @sql nvarchar(max);
IF DB_ID(@db) IS NULL RETURN;
SET @sql = N'SELECT @mark = CAST(value AS nvarchar(256)) FROM ' + QUOTENAME(@db) + N'.sys.extended_properties WHERE class = 0 AND name = N''SpinlockLab'';';
EXEC sys.sp_executesql @sql, N'@mark nvarchar(256) OUTPUT', @mark = @mark OUTPUT;
IF @mark IS NULL
    THROW 50004, N'Spinlock Lab: refusing to drop a database that Spinlock Lab did not create (no SpinlockLab extended property).', 1;
-- EngineEdition 8: Azure SQL Managed Instance, where SINGLE_USER "can't be modified" (T-SQL differences page, ALTER
-- DATABASE statement; Msg 5008).
IF CAST(SERVERPROPERTY('EngineEdition') AS int) = 8
    SET @sql = N'DROP DATABASE ' + QUOTENAME(@db) + N';';
ELSE
    SET @sql = N'ALTER DATABASE ' + QUOTENAME(@db) + N' SET SINGLE_USER WITH ROLLBACK IMMEDIATE; DROP DATABASE ' + QUOTENAME(@db) + N';';
EXEC sys.sp_executesql @sql;
