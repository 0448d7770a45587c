-- Purpose: Bind the instance's schedulers to a CPU list (ALTER SERVER CONFIGURATION SET PROCESS AFFINITY CPU = ...). Server-wide and immediate; the original is journaled first and put back afterwards.
-- Permission: ALTER SETTINGS (sysadmin and serveradmin have it)
-- Parameters: @cpu_ranges nvarchar(4000)
-- The statement takes no variables, so the list is spliced in: the engine formats it from CPU numbers it checked
-- against the topology, and this check refuses anything but digits, commas, spaces and TO.
IF @cpu_ranges IS NULL OR LTRIM(@cpu_ranges) = N''
   OR REPLACE(@cpu_ranges, N'TO', N'') LIKE N'%[^0-9, ]%'
    THROW 50011, N'Spinlock Lab: the CPU list must look like 2 TO 11, 14.', 1;
DECLARE @sql nvarchar(max) = N'ALTER SERVER CONFIGURATION SET PROCESS AFFINITY CPU = ' + @cpu_ranges + N';';
EXEC sys.sp_executesql @sql;
