-- Purpose: Drop the lab database, only if it carries Spinlock Lab's mark; sessions still in it are rolled back. One attempt: the engine (dropLab) retries on 3702/5064 after ending the session that took the single-user slot (lab/holder, lab/kill).
-- Permission: ALTER ANY DATABASE, or CONTROL on the lab database
-- Parameters: @db sysname
DECLARE @mark nvarchar(256) = NULL, @sql nvarchar(max);
IF DB_ID(@db) IS NULL RETURN;
SET @sql = N'SELECT @mark = CAST(value AS nvarchar(256)) FROM ' + QUOTENAME(@db) + N'.sys.extended_properties WHERE class = 0 AND name = N''SpinlockLab'';';
EXEC sys.sp_executesql @sql, N'@mark nvarchar(256) OUTPUT', @mark = @mark OUTPUT;
IF @mark IS NULL
    THROW 50004, N'Spinlock Lab: refusing to drop a database that Spinlock Lab did not create (no SpinlockLab extended property).', 1;
SET @sql = N'ALTER DATABASE ' + QUOTENAME(@db) + N' SET SINGLE_USER WITH ROLLBACK IMMEDIATE; DROP DATABASE ' + QUOTENAME(@db) + N';';
EXEC sys.sp_executesql @sql;
