-- Purpose: One read of the panel's Now view, about once a second: cumulative spinlocks, waits, latches and scheduler CPU; the client subtracts (creates and changes nothing, nothing in tempdb).
-- Permission: VIEW SERVER STATE (SQL Server 2022+: VIEW SERVER PERFORMANCE STATE), nothing else
-- Parameters: none
SET LOCK_TIMEOUT 1000;
SET DEADLOCK_PRIORITY LOW;
SELECT SYSUTCDATETIME() AS server_time_utc, i.ms_ticks, i.cpu_ticks, i.sqlserver_start_time
FROM sys.dm_os_sys_info AS i;
SELECT sl.name, sl.collisions, sl.spins, sl.sleep_time, sl.backoffs
FROM sys.dm_os_spinlock_stats AS sl
WHERE sl.spins > 0 OR sl.collisions > 0;
SELECT ws.wait_type, ws.waiting_tasks_count, ws.wait_time_ms, ws.max_wait_time_ms, ws.signal_wait_time_ms
FROM sys.dm_os_wait_stats AS ws
WHERE ws.waiting_tasks_count > 0;
SELECT ls.latch_class, ls.waiting_requests_count, ls.wait_time_ms, ls.max_wait_time_ms
FROM sys.dm_os_latch_stats AS ls
WHERE ls.waiting_requests_count > 0;
SELECT s.scheduler_id, s.cpu_id, s.parent_node_id, s.is_online, s.total_cpu_usage_ms, s.runnable_tasks_count
FROM sys.dm_os_schedulers AS s
WHERE s.scheduler_id < 1048576 AND s.status NOT LIKE N'%DAC%';
