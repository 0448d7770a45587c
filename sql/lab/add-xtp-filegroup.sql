-- Purpose: Give the lab database its MEMORY_OPTIMIZED_DATA filegroup and container, under the instance's default data path (there is no default for it). Does nothing if it has one. It can only be removed by dropping the database, which is why it goes into the lab database only. Azure SQL Managed Instance adds one (named XTP) to every database itself and refuses to add or alter one ("T-SQL differences between SQL Server & Azure SQL Managed Instance", CREATE DATABASE and ALTER DATABASE statements): there the file only checks it is there.
-- Permission: ALTER on the lab database
-- Parameters: @db sysname
DECLARE @path nvarchar(4000) = CAST(SERVERPROPERTY('InstanceDefaultDataPath') AS nvarchar(4000));
DECLARE @has_xtp bit = 0, @sql nvarchar(max);
IF CAST(SERVERPROPERTY('IsXTPSupported') AS int) IS NULL OR CAST(SERVERPROPERTY('IsXTPSupported') AS int) <> 1
    THROW 50002, N'Spinlock Lab: this instance does not support In-Memory OLTP (SERVERPROPERTY(''IsXTPSupported'') is not 1).', 1;
IF @db IS NULL OR QUOTENAME(@db + N'_xtp_container') IS NULL
    THROW 50005, N'Spinlock Lab: the lab database name is too long: at most 114 characters (its In-Memory OLTP container is named after it).', 1;
SET @sql = N'IF EXISTS (SELECT 1 FROM ' + QUOTENAME(@db) + N'.sys.filegroups WHERE type = N''FX'') SET @has_xtp = 1;';
EXEC sys.sp_executesql @sql, N'@has_xtp bit OUTPUT', @has_xtp = @has_xtp OUTPUT;
IF @has_xtp = 0 AND CAST(SERVERPROPERTY('EngineEdition') AS int) = 8
    THROW 50006, N'Spinlock Lab: this Azure SQL Managed Instance gave the lab database no memory-optimized filegroup (it adds one, named XTP, on the Business Critical tier only) and refuses to add one.', 1;
IF @has_xtp = 0 AND @path IS NULL
    THROW 50003, N'Spinlock Lab: SERVERPROPERTY(''InstanceDefaultDataPath'') is NULL, so there is nowhere to put the memory-optimized container.', 1;
IF @has_xtp = 0
BEGIN
    SET @sql = N'ALTER DATABASE ' + QUOTENAME(@db) + N' ADD FILEGROUP ' + QUOTENAME(@db + N'_xtp') + N' CONTAINS MEMORY_OPTIMIZED_DATA;';
    EXEC sys.sp_executesql @sql;
    -- A string literal, not QUOTENAME: QUOTENAME returns NULL past 128 characters and paths are longer.
    SET @sql = N'ALTER DATABASE ' + QUOTENAME(@db) + N' ADD FILE (NAME = ' + QUOTENAME(@db + N'_xtp_container')
             + N', FILENAME = N''' + REPLACE(@path + @db + N'_xtp', N'''', N'''''') + N''') TO FILEGROUP '
             + QUOTENAME(@db + N'_xtp') + N';';
    EXEC sys.sp_executesql @sql;
END;
