-- Purpose: Create the dedicated lab database, in SIMPLE recovery so the workload's log does not grow without bound (except on Azure SQL Managed Instance, which refuses it: the database stays in FULL recovery there and the engine says so), and mark it as Spinlock Lab's own with a database-level extended property.
-- Permission: CREATE DATABASE (or CREATE ANY DATABASE / ALTER ANY DATABASE)
-- Parameters: @db sysname, @mark nvarchar(256)
-- The name is also the stem of the In-Memory OLTP filegroup and container (+ '_xtp_container'): QUOTENAME returns
-- NULL past 128 characters and a NULL statement runs as nothing, so a longer name is refused here, loudly.
IF @db IS NULL OR QUOTENAME(@db + N'_xtp_container') IS NULL
    THROW 50005, N'Spinlock Lab: the lab database name is too long: at most 114 characters (its In-Memory OLTP container is named after it).', 1;
IF DB_ID(@db) IS NOT NULL
    THROW 50001, N'Spinlock Lab: the lab database already exists; it is not created again.', 1;
DECLARE @sql nvarchar(max) = N'CREATE DATABASE ' + QUOTENAME(@db) + N';';
EXEC sys.sp_executesql @sql;
-- Azure SQL Managed Instance (EngineEdition 8) refuses SET RECOVERY SIMPLE with Msg 5008 ("T-SQL differences between
-- SQL Server & Azure SQL Managed Instance", ALTER DATABASE statement): its service takes the log backups.
IF CAST(SERVERPROPERTY('EngineEdition') AS int) <> 8
BEGIN
    SET @sql = N'ALTER DATABASE ' + QUOTENAME(@db) + N' SET RECOVERY SIMPLE;';
    EXEC sys.sp_executesql @sql;
END;
SET @sql = N'EXEC ' + QUOTENAME(@db) + N'.sys.sp_addextendedproperty @name = N''SpinlockLab'', @value = @mark;';
EXEC sys.sp_executesql @sql, N'@mark nvarchar(256)', @mark = @mark;
