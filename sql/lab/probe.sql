-- Purpose: Whether the lab database exists, whether Spinlock Lab created it (its SpinlockLab extended property), its state, recovery model, delayed durability, and whether it has a MEMORY_OPTIMIZED_DATA filegroup. No row: it does not exist.
-- Permission: public (VIEW ANY DATABASE, granted to public by default); reading the mark needs access to the database
-- Parameters: @db sysname
DECLARE @mark nvarchar(256) = NULL, @has_xtp bit = 0, @sql nvarchar(max);
IF DB_ID(@db) IS NOT NULL AND DATABASEPROPERTYEX(@db, 'Status') = N'ONLINE' AND HAS_DBACCESS(@db) = 1
BEGIN
    -- The mark and the filegroups live inside the database: read them there, the name quoted server-side.
    SET @sql = N'SELECT @mark = CAST(ep.value AS nvarchar(256)) FROM ' + QUOTENAME(@db) + N'.sys.extended_properties AS ep'
             + N' WHERE ep.class = 0 AND ep.name = N''SpinlockLab'';'
             + N' IF EXISTS (SELECT 1 FROM ' + QUOTENAME(@db) + N'.sys.filegroups AS fg WHERE fg.type = N''FX'') SET @has_xtp = 1;';
    EXEC sys.sp_executesql @sql, N'@mark nvarchar(256) OUTPUT, @has_xtp bit OUTPUT', @mark = @mark OUTPUT, @has_xtp = @has_xtp OUTPUT;
END;
SELECT d.database_id, d.name, d.state_desc, d.recovery_model_desc, d.delayed_durability_desc,
       @mark AS spinlab_mark, @has_xtp AS has_xtp_filegroup
FROM sys.databases AS d
WHERE d.name = @db;
