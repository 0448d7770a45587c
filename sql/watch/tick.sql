-- Purpose: One read-only tick of spinlab watch (creates and changes nothing; README "spinlab watch" explains each set). Comments are few: the batch goes over the wire every tick.
-- Permission: VIEW SERVER STATE (SQL Server 2022+: VIEW SERVER PERFORMANCE STATE), nothing else
-- Parameters: @top_requests int, @text_chars int
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
-- nchar names: trailing blanks count in a Unicode LIKE, hence RTRIM
SELECT RTRIM(pc.object_name) AS object_name, RTRIM(pc.counter_name) AS counter_name,
       RTRIM(pc.instance_name) AS instance_name, pc.cntr_value, pc.cntr_type
FROM sys.dm_os_performance_counters AS pc
WHERE (RTRIM(pc.object_name) LIKE N'%:Databases'
       AND pc.counter_name IN (N'Transactions/sec', N'Write Transactions/sec', N'Log Flushes/sec',
                               N'Log Bytes Flushed/sec', N'Log Flush Waits/sec', N'Log Flush Wait Time'))
   OR (RTRIM(pc.object_name) LIKE N'%:SQL Statistics' AND pc.counter_name = N'Batch Requests/sec');
-- file_id 2: a database's first log file
SELECT DB_NAME(vfs.database_id) AS database_name, vfs.num_of_writes, vfs.num_of_bytes_written, vfs.io_stall_write_ms
FROM sys.dm_io_virtual_file_stats(NULL, NULL) AS vfs
WHERE vfs.file_id = 2 AND vfs.num_of_writes > 0;
SELECT COUNT(*) AS pending_total,
       ISNULL(SUM(CASE WHEN vfs.file_id = 2 THEN 1 ELSE 0 END), 0) AS pending_log
FROM sys.dm_io_pending_io_requests AS ior
LEFT JOIN sys.dm_io_virtual_file_stats(NULL, NULL) AS vfs ON vfs.file_handle = ior.io_handle
WHERE ior.io_pending = 1;
SELECT s.scheduler_id, s.cpu_id, s.parent_node_id, s.is_online, s.total_cpu_usage_ms,
       s.runnable_tasks_count
FROM sys.dm_os_schedulers AS s
WHERE s.scheduler_id < 1048576 AND s.status NOT LIKE N'%DAC%';
-- statement text as compiled: parameter names, never values; looked up for the top requests only
SELECT r.session_id, r.status, r.command, DB_NAME(r.database_id) AS database_name,
       r.wait_type, r.wait_time, r.last_wait_type, r.blocking_session_id, r.scheduler_id, r.cpu_time,
       r.total_elapsed_time, CONVERT(varchar(18), r.query_hash, 1) AS query_hash,
       SUBSTRING(t.text, r.statement_start_offset / 2 + 1, @text_chars) AS statement_start
FROM (SELECT TOP (@top_requests) rq.session_id, rq.status, rq.command, rq.database_id, rq.wait_type, rq.wait_time,
             rq.last_wait_type, rq.blocking_session_id, rq.scheduler_id, rq.cpu_time, rq.total_elapsed_time,
             rq.query_hash, rq.sql_handle, rq.statement_start_offset
      FROM sys.dm_exec_requests AS rq
      JOIN sys.dm_exec_sessions AS s ON s.session_id = rq.session_id
      WHERE s.is_user_process = 1 AND rq.session_id <> @@SPID
      ORDER BY rq.wait_time DESC, rq.total_elapsed_time DESC) AS r
OUTER APPLY sys.dm_exec_sql_text(r.sql_handle) AS t
ORDER BY r.wait_time DESC, r.total_elapsed_time DESC;
SELECT TOP (@top_requests) wt.wait_type, COUNT(*) AS tasks, MAX(wt.wait_duration_ms) AS max_wait_ms,
       SUM(wt.wait_duration_ms) AS total_wait_ms
FROM sys.dm_os_waiting_tasks AS wt
JOIN sys.dm_exec_sessions AS s ON s.session_id = wt.session_id
WHERE s.is_user_process = 1 AND wt.session_id <> @@SPID
GROUP BY wt.wait_type
ORDER BY COUNT(*) DESC, wt.wait_type;
SELECT s.cpu_time
FROM sys.dm_exec_sessions AS s
WHERE s.session_id = @@SPID;
