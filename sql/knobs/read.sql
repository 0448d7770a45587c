-- Purpose: The server-wide state Spinlock Lab may change, read before any change and written to the restore journal: process affinity (type and the CPUs online) and the lab database's delayed durability.
-- Permission: VIEW SERVER STATE (SQL Server 2022+: VIEW SERVER PERFORMANCE STATE)
-- Parameters: @db sysname
SELECT i.affinity_type_desc FROM sys.dm_os_sys_info AS i;

SELECT s.cpu_id, s.parent_node_id, s.status, s.is_online
FROM sys.dm_os_schedulers AS s
WHERE s.scheduler_id < 1048576 AND s.status LIKE N'VISIBLE %' AND s.status NOT LIKE N'%DAC%'
ORDER BY s.cpu_id;

SELECT d.delayed_durability_desc FROM sys.databases AS d WHERE d.name = @db;
