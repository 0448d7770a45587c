-- Purpose: The Spinlock Lab tables in the lab database (spinlab_*), memory-optimized or not and their durability, so the panel can show which scenarios are deployed there. No rows when the database does not exist or this login cannot open it.
-- Permission: VIEW DEFINITION on the tables (db_owner of the lab database has it; otherwise metadata visibility hides them)
-- Parameters: @db sysname
DECLARE @sql nvarchar(max);
IF DB_ID(@db) IS NOT NULL AND DATABASEPROPERTYEX(@db, 'Status') = N'ONLINE' AND HAS_DBACCESS(@db) = 1
BEGIN
    -- The name is quoted server-side; sys.tables is read inside the lab database.
    SET @sql = N'SELECT t.name AS table_name, t.is_memory_optimized, t.durability_desc FROM ' + QUOTENAME(@db) + N'.sys.tables AS t'
             + N' WHERE t.name LIKE N''spinlab[_]%'' ORDER BY t.name;';
    EXEC sys.sp_executesql @sql;
END
ELSE
    SELECT CAST(NULL AS sysname) AS table_name, CAST(NULL AS bit) AS is_memory_optimized, CAST(NULL AS nvarchar(60)) AS durability_desc
    WHERE 1 = 0;
