-- Purpose: The instance's shape: CPUs, sockets, NUMA nodes, schedulers online or offline, where the log writer runs, memory model, affinity type, start time and clock ticks.
-- Permission: VIEW SERVER STATE (SQL Server 2022+: VIEW SERVER PERFORMANCE STATE)
-- Parameters: none

-- 1. SELECT * on purpose: the column set grows with the version (sql_memory_model_desc 2016 SP1+, socket_count and
--    numa_node_count 2016 SP2+); the engine reads the columns that are there and says which are missing.
SELECT * FROM sys.dm_os_sys_info;

-- 2. Schedulers that run user work: not hidden or internal (ids >= 1048576), not the dedicated admin connection's.
SELECT s.scheduler_id, s.cpu_id, s.parent_node_id, s.status, s.is_online
FROM sys.dm_os_schedulers AS s
WHERE s.scheduler_id < 1048576 AND s.status NOT LIKE N'%DAC%'
ORDER BY s.scheduler_id;

-- 3. NUMA nodes, without the node reserved for the dedicated admin connection. node_id is SQL Server's node (a soft-NUMA
--    node when 2016+ split a socket of more than 8 cores); memory_node_id is the hardware node it belongs to.
SELECT n.node_id, n.node_state_desc, n.online_scheduler_count, n.cpu_count, n.processor_group, n.memory_node_id
FROM sys.dm_os_nodes AS n
WHERE n.node_state_desc NOT LIKE N'%DAC%'
ORDER BY n.node_id;

-- 4. Where the log writer task(s) run: 2016+ runs up to four, on hidden schedulers of node 0.
SELECT r.session_id, r.scheduler_id, s.cpu_id, s.parent_node_id
FROM sys.dm_exec_requests AS r
LEFT JOIN sys.dm_os_schedulers AS s ON s.scheduler_id = r.scheduler_id
WHERE r.command = N'LOG WRITER'
ORDER BY r.session_id;

-- 5. Large and locked pages actually in use.
SELECT m.large_page_allocations_kb, m.locked_page_allocations_kb
FROM sys.dm_os_process_memory AS m;
