-- Purpose: Create the dedicated lab database, in SIMPLE recovery so the workload's log does not grow without bound, and mark it as Spinlock Lab's own with a database-level extended property.
-- Permission: CREATE DATABASE (or CREATE ANY DATABASE / ALTER ANY DATABASE)
-- Parameters: @db sysname, @mark nvarchar(256)
IF DB_ID(@db) IS NOT NULL
    THROW 50001, N'Spinlock Lab: the lab database already exists; it is not created again.', 1;
DECLARE @sql nvarchar(max) = N'CREATE DATABASE ' + QUOTENAME(@db) + N';';
EXEC sys.sp_executesql @sql;
SET @sql = N'ALTER DATABASE ' + QUOTENAME(@db) + N' SET RECOVERY SIMPLE;';
EXEC sys.sp_executesql @sql;
SET @sql = N'EXEC ' + QUOTENAME(@db) + N'.sys.sp_addextendedproperty @name = N''SpinlockLab'', @value = @mark;';
EXEC sys.sp_executesql @sql, N'@mark nvarchar(256)', @mark = @mark;
