-- Purpose: Bind the instance's schedulers to whole NUMA nodes (ALTER SERVER CONFIGURATION SET PROCESS AFFINITY NUMANODE = ...). Server-wide and immediate; the original is journaled first and put back afterwards.
-- Permission: ALTER SETTINGS (sysadmin and serveradmin have it)
-- Parameters: @node_ranges nvarchar(4000)
IF @node_ranges IS NULL OR LTRIM(@node_ranges) = N''
   OR REPLACE(@node_ranges, N'TO', N'') LIKE N'%[^0-9, ]%'
    THROW 50012, N'Spinlock Lab: the NUMA node list must look like 0 TO 1.', 1;
DECLARE @sql nvarchar(max) = N'ALTER SERVER CONFIGURATION SET PROCESS AFFINITY NUMANODE = ' + @node_ranges + N';';
EXEC sys.sp_executesql @sql;
