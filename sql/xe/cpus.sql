-- Purpose: The CPUs that run user work and the NUMA nodes they sit on (the schedulers that are VISIBLE ONLINE: not hidden, not the dedicated admin connection's, not taken offline by affinity), which size the capture's event buffers: one set per node or per CPU, as the SQLCAT whitepaper's session does. Microsoft Learn "sys.dm_os_schedulers (Transact-SQL)"; "Diagnose and resolve spinlock contention on SQL Server".
-- Permission: VIEW SERVER STATE (SQL Server 2022+: VIEW SERVER PERFORMANCE STATE)
-- Parameters: none
SELECT s.cpu_id, s.parent_node_id
FROM sys.dm_os_schedulers AS s
WHERE s.status = N'VISIBLE ONLINE';
