-- Purpose: One tick of spinlab watch that returns only what moved: sql/watch/tick.sql's reads, with spinlocks, waits, latches, performance counters, log files and schedulers compared with the previous tick's snapshot kept in this session's #temp tables (sql/dmv/snapshot-setup.sql), so only rows that are new or whose values changed come back; the engine keeps the last values of the rest. The first result set says how many ticks this connection has kept: 0 means a full snapshot (a new or re-opened connection). Writes only to this session's own #temp tables in tempdb (they go with the session); creates and changes nothing else on the server.
-- Permission: VIEW SERVER STATE (SQL Server 2022+: VIEW SERVER PERFORMANCE STATE), nothing else (the #temp tables need none)
-- Parameters: @top_requests int, @text_chars int
-- Prepared once per watch connection (sp_prepare) after snapshot-setup.sql; each tick is one short sp_execute call.
-- Two generations, no copy: each snapshot has a pair of #tables (#spinlab_X and #spinlab_X_now). Tick t (its number
-- kept in #spinlab_tick) empties one of them (odd ticks _now, even ticks the other), writes its readings there and
-- compares them with the other, which holds the previous tick's; the two branches of each IF are the same statements
-- with the pair's names swapped (test/unit/watchTickStep.test.ts). Copying the snapshot instead was a DELETE, an INSERT
-- and a DELETE per row each tick (256 rows of schedulers on a big box). The tick's number is written last, so a tick
-- that fails part way leaves the previous generation as it was and the next one does its work again.
-- sys.dm_exec_sessions is read once, into #spinlab_skip: the sessions the lists of requests and waiting tasks leave out
-- (system sessions, is_user_process = 0, and this one, a few rows) with this session's own figures. The lists keep the
-- rest (an anti-join), which are user sessions' (tick.sql joins each list with the view for is_user_process = 1 instead,
-- a scan of every session per list); only a system session that started in the milliseconds between the two reads would
-- be listed once as a user's.
-- Names travel once: spinlocks, waits, latches and counters are keyed by k, the first 4 bytes of the SHA-256 of the
-- name as an int. A name comes back with its key (and the counter's type) only when first seen on this connection;
-- moved values come back by key alone. Schedulers likewise: placement (cpu, node, online) only when it changes, the
-- busy figures when they move. The engine rebuilds the full rows, and falls back to the full file if two names on
-- the server ever share a key. Columns a tick returns carry short aliases: TDS repeats every column's name in each
-- result set's metadata on every call, which was a third of a tick's bytes; src/engine/snapshot.ts names them back.
-- Every statement that reads the #temp tables carries OPTION (KEEPFIXED PLAN): their row changes pass a temporary
-- table's recompilation threshold (6 modifications under 6 rows, 500 up to 500, then 500 + 20%) every few ticks,
-- and each pass would update statistics and recompile the statements over it on the watched server, every second;
-- the hint keeps their plans, which then recompile only if the tables' schema changes (Query hints (Transact-SQL):
-- KEEPFIXED PLAN; Query processing architecture guide: Recompilation thresholds). The plans are trivial scans.
-- The INSERTs from the DMVs only write their #table (no statistics of it in their plans) and go without it.
SET NOCOUNT ON;
SET LOCK_TIMEOUT 1000;
SET DEADLOCK_PRIORITY LOW;
DECLARE @t int;
SELECT @t = ISNULL(MAX(n), 0) + 1 FROM #spinlab_tick OPTION (KEEPFIXED PLAN);
SELECT @t - 1 AS ticks_kept;
SELECT SYSUTCDATETIME() AS t, i.ms_ticks AS ms, i.cpu_ticks AS cpu, i.sqlserver_start_time AS st
FROM sys.dm_os_sys_info AS i;
IF @t % 2 = 1
BEGIN
  DELETE FROM #spinlab_spin_now OPTION (KEEPFIXED PLAN);
  INSERT INTO #spinlab_spin_now
  SELECT CAST(SUBSTRING(HASHBYTES('SHA2_256', sl.name), 1, 4) AS int), sl.name, sl.collisions, sl.spins, sl.sleep_time, sl.backoffs
  FROM sys.dm_os_spinlock_stats AS sl
  WHERE sl.spins > 0 OR sl.collisions > 0;
  SELECT k, name AS n FROM #spinlab_spin_now EXCEPT SELECT k, name FROM #spinlab_spin OPTION (KEEPFIXED PLAN);
  SELECT k, collisions AS c, spins AS s, sleep_time AS sl, backoffs AS b FROM #spinlab_spin_now
  EXCEPT SELECT k, collisions, spins, sleep_time, backoffs FROM #spinlab_spin OPTION (KEEPFIXED PLAN);
  DELETE FROM #spinlab_wait_now OPTION (KEEPFIXED PLAN);
  INSERT INTO #spinlab_wait_now
  SELECT CAST(SUBSTRING(HASHBYTES('SHA2_256', ws.wait_type), 1, 4) AS int), ws.wait_type, ws.waiting_tasks_count, ws.wait_time_ms, ws.max_wait_time_ms, ws.signal_wait_time_ms
  FROM sys.dm_os_wait_stats AS ws
  WHERE ws.waiting_tasks_count > 0;
  SELECT k, wait_type AS n FROM #spinlab_wait_now EXCEPT SELECT k, wait_type FROM #spinlab_wait OPTION (KEEPFIXED PLAN);
  SELECT k, waiting_tasks_count AS c, wait_time_ms AS ms, max_wait_time_ms AS mx, signal_wait_time_ms AS sg FROM #spinlab_wait_now
  EXCEPT SELECT k, waiting_tasks_count, wait_time_ms, max_wait_time_ms, signal_wait_time_ms FROM #spinlab_wait OPTION (KEEPFIXED PLAN);
  DELETE FROM #spinlab_latch_now OPTION (KEEPFIXED PLAN);
  INSERT INTO #spinlab_latch_now
  SELECT CAST(SUBSTRING(HASHBYTES('SHA2_256', ls.latch_class), 1, 4) AS int), ls.latch_class, ls.waiting_requests_count, ls.wait_time_ms, ls.max_wait_time_ms
  FROM sys.dm_os_latch_stats AS ls
  WHERE ls.waiting_requests_count > 0;
  SELECT k, latch_class AS n FROM #spinlab_latch_now EXCEPT SELECT k, latch_class FROM #spinlab_latch OPTION (KEEPFIXED PLAN);
  SELECT k, waiting_requests_count AS c, wait_time_ms AS ms, max_wait_time_ms AS mx FROM #spinlab_latch_now
  EXCEPT SELECT k, waiting_requests_count, wait_time_ms, max_wait_time_ms FROM #spinlab_latch OPTION (KEEPFIXED PLAN);
  DELETE FROM #spinlab_counter_now OPTION (KEEPFIXED PLAN);
  INSERT INTO #spinlab_counter_now
  SELECT CAST(SUBSTRING(HASHBYTES('SHA2_256', RTRIM(pc.object_name) + N'|' + RTRIM(pc.counter_name) + N'|' + RTRIM(pc.instance_name)), 1, 4) AS int),
         RTRIM(pc.object_name), RTRIM(pc.counter_name), RTRIM(pc.instance_name), pc.cntr_value, pc.cntr_type
  FROM sys.dm_os_performance_counters AS pc
  WHERE (RTRIM(pc.object_name) LIKE N'%:Databases'
         AND pc.counter_name IN (N'Transactions/sec', N'Write Transactions/sec', N'Log Flushes/sec',
                                 N'Log Bytes Flushed/sec', N'Log Flush Waits/sec', N'Log Flush Wait Time'))
     OR (RTRIM(pc.object_name) LIKE N'%:SQL Statistics' AND pc.counter_name = N'Batch Requests/sec');
  SELECT k, object_name AS o, counter_name AS c, instance_name AS i, cntr_type AS ty FROM #spinlab_counter_now
  EXCEPT SELECT k, object_name, counter_name, instance_name, cntr_type FROM #spinlab_counter OPTION (KEEPFIXED PLAN);
  SELECT k, cntr_value AS v FROM #spinlab_counter_now EXCEPT SELECT k, cntr_value FROM #spinlab_counter OPTION (KEEPFIXED PLAN);
  DELETE FROM #spinlab_log_now OPTION (KEEPFIXED PLAN);
  INSERT INTO #spinlab_log_now
  SELECT DB_NAME(vfs.database_id), vfs.num_of_writes, vfs.num_of_bytes_written, vfs.io_stall_write_ms
  FROM sys.dm_io_virtual_file_stats(NULL, NULL) AS vfs
  WHERE vfs.file_id = 2 AND vfs.num_of_writes > 0;
  SELECT database_name AS db, num_of_writes AS w, num_of_bytes_written AS b, io_stall_write_ms AS st FROM #spinlab_log_now
  EXCEPT SELECT * FROM #spinlab_log OPTION (KEEPFIXED PLAN);
END
ELSE
BEGIN
  DELETE FROM #spinlab_spin OPTION (KEEPFIXED PLAN);
  INSERT INTO #spinlab_spin
  SELECT CAST(SUBSTRING(HASHBYTES('SHA2_256', sl.name), 1, 4) AS int), sl.name, sl.collisions, sl.spins, sl.sleep_time, sl.backoffs
  FROM sys.dm_os_spinlock_stats AS sl
  WHERE sl.spins > 0 OR sl.collisions > 0;
  SELECT k, name AS n FROM #spinlab_spin EXCEPT SELECT k, name FROM #spinlab_spin_now OPTION (KEEPFIXED PLAN);
  SELECT k, collisions AS c, spins AS s, sleep_time AS sl, backoffs AS b FROM #spinlab_spin
  EXCEPT SELECT k, collisions, spins, sleep_time, backoffs FROM #spinlab_spin_now OPTION (KEEPFIXED PLAN);
  DELETE FROM #spinlab_wait OPTION (KEEPFIXED PLAN);
  INSERT INTO #spinlab_wait
  SELECT CAST(SUBSTRING(HASHBYTES('SHA2_256', ws.wait_type), 1, 4) AS int), ws.wait_type, ws.waiting_tasks_count, ws.wait_time_ms, ws.max_wait_time_ms, ws.signal_wait_time_ms
  FROM sys.dm_os_wait_stats AS ws
  WHERE ws.waiting_tasks_count > 0;
  SELECT k, wait_type AS n FROM #spinlab_wait EXCEPT SELECT k, wait_type FROM #spinlab_wait_now OPTION (KEEPFIXED PLAN);
  SELECT k, waiting_tasks_count AS c, wait_time_ms AS ms, max_wait_time_ms AS mx, signal_wait_time_ms AS sg FROM #spinlab_wait
  EXCEPT SELECT k, waiting_tasks_count, wait_time_ms, max_wait_time_ms, signal_wait_time_ms FROM #spinlab_wait_now OPTION (KEEPFIXED PLAN);
  DELETE FROM #spinlab_latch OPTION (KEEPFIXED PLAN);
  INSERT INTO #spinlab_latch
  SELECT CAST(SUBSTRING(HASHBYTES('SHA2_256', ls.latch_class), 1, 4) AS int), ls.latch_class, ls.waiting_requests_count, ls.wait_time_ms, ls.max_wait_time_ms
  FROM sys.dm_os_latch_stats AS ls
  WHERE ls.waiting_requests_count > 0;
  SELECT k, latch_class AS n FROM #spinlab_latch EXCEPT SELECT k, latch_class FROM #spinlab_latch_now OPTION (KEEPFIXED PLAN);
  SELECT k, waiting_requests_count AS c, wait_time_ms AS ms, max_wait_time_ms AS mx FROM #spinlab_latch
  EXCEPT SELECT k, waiting_requests_count, wait_time_ms, max_wait_time_ms FROM #spinlab_latch_now OPTION (KEEPFIXED PLAN);
  DELETE FROM #spinlab_counter OPTION (KEEPFIXED PLAN);
  INSERT INTO #spinlab_counter
  SELECT CAST(SUBSTRING(HASHBYTES('SHA2_256', RTRIM(pc.object_name) + N'|' + RTRIM(pc.counter_name) + N'|' + RTRIM(pc.instance_name)), 1, 4) AS int),
         RTRIM(pc.object_name), RTRIM(pc.counter_name), RTRIM(pc.instance_name), pc.cntr_value, pc.cntr_type
  FROM sys.dm_os_performance_counters AS pc
  WHERE (RTRIM(pc.object_name) LIKE N'%:Databases'
         AND pc.counter_name IN (N'Transactions/sec', N'Write Transactions/sec', N'Log Flushes/sec',
                                 N'Log Bytes Flushed/sec', N'Log Flush Waits/sec', N'Log Flush Wait Time'))
     OR (RTRIM(pc.object_name) LIKE N'%:SQL Statistics' AND pc.counter_name = N'Batch Requests/sec');
  SELECT k, object_name AS o, counter_name AS c, instance_name AS i, cntr_type AS ty FROM #spinlab_counter
  EXCEPT SELECT k, object_name, counter_name, instance_name, cntr_type FROM #spinlab_counter_now OPTION (KEEPFIXED PLAN);
  SELECT k, cntr_value AS v FROM #spinlab_counter EXCEPT SELECT k, cntr_value FROM #spinlab_counter_now OPTION (KEEPFIXED PLAN);
  DELETE FROM #spinlab_log OPTION (KEEPFIXED PLAN);
  INSERT INTO #spinlab_log
  SELECT DB_NAME(vfs.database_id), vfs.num_of_writes, vfs.num_of_bytes_written, vfs.io_stall_write_ms
  FROM sys.dm_io_virtual_file_stats(NULL, NULL) AS vfs
  WHERE vfs.file_id = 2 AND vfs.num_of_writes > 0;
  SELECT database_name AS db, num_of_writes AS w, num_of_bytes_written AS b, io_stall_write_ms AS st FROM #spinlab_log
  EXCEPT SELECT * FROM #spinlab_log_now OPTION (KEEPFIXED PLAN);
END;
SELECT COUNT(*) AS pending_total,
       ISNULL(SUM(CASE WHEN vfs.file_id = 2 THEN 1 ELSE 0 END), 0) AS pending_log
FROM sys.dm_io_pending_io_requests AS ior
LEFT JOIN sys.dm_io_virtual_file_stats(NULL, NULL) AS vfs ON vfs.file_handle = ior.io_handle
WHERE ior.io_pending = 1;
-- Busy figures of the schedulers that moved, each busy scheduler a row every tick (256 on a big box), so kept narrow:
-- CPU ms as the change since the snapshot (dms, an int: the interval's milliseconds at most) where the snapshot has
-- the scheduler, else in full (ms); the other is NULL, a bit in the row's null bitmap. The engine adds dms to the
-- value it kept. runnable_tasks_count fits a smallint: it cannot pass max worker threads (at most 32,767).
IF @t % 2 = 1
BEGIN
  DELETE FROM #spinlab_sched_now OPTION (KEEPFIXED PLAN);
  INSERT INTO #spinlab_sched_now
  SELECT s.scheduler_id, s.cpu_id, s.parent_node_id, s.is_online, s.total_cpu_usage_ms,
         s.runnable_tasks_count
  FROM sys.dm_os_schedulers AS s
  WHERE s.scheduler_id < 1048576 AND s.status NOT LIKE N'%DAC%';
  SELECT scheduler_id AS id, cpu_id AS cpu, parent_node_id AS node, is_online AS up FROM #spinlab_sched_now
  EXCEPT SELECT scheduler_id, cpu_id, parent_node_id, is_online FROM #spinlab_sched OPTION (KEEPFIXED PLAN);
  SELECT n.scheduler_id AS id, CASE WHEN p.scheduler_id IS NULL THEN n.total_cpu_usage_ms END AS ms,
         CAST(n.total_cpu_usage_ms - p.total_cpu_usage_ms AS int) AS dms, CAST(n.runnable_tasks_count AS smallint) AS r
  FROM #spinlab_sched_now AS n
  LEFT JOIN #spinlab_sched AS p ON p.scheduler_id = n.scheduler_id
  WHERE p.scheduler_id IS NULL OR n.total_cpu_usage_ms <> p.total_cpu_usage_ms OR n.runnable_tasks_count <> p.runnable_tasks_count
  OPTION (KEEPFIXED PLAN);
END
ELSE
BEGIN
  DELETE FROM #spinlab_sched OPTION (KEEPFIXED PLAN);
  INSERT INTO #spinlab_sched
  SELECT s.scheduler_id, s.cpu_id, s.parent_node_id, s.is_online, s.total_cpu_usage_ms,
         s.runnable_tasks_count
  FROM sys.dm_os_schedulers AS s
  WHERE s.scheduler_id < 1048576 AND s.status NOT LIKE N'%DAC%';
  SELECT scheduler_id AS id, cpu_id AS cpu, parent_node_id AS node, is_online AS up FROM #spinlab_sched
  EXCEPT SELECT scheduler_id, cpu_id, parent_node_id, is_online FROM #spinlab_sched_now OPTION (KEEPFIXED PLAN);
  SELECT n.scheduler_id AS id, CASE WHEN p.scheduler_id IS NULL THEN n.total_cpu_usage_ms END AS ms,
         CAST(n.total_cpu_usage_ms - p.total_cpu_usage_ms AS int) AS dms, CAST(n.runnable_tasks_count AS smallint) AS r
  FROM #spinlab_sched AS n
  LEFT JOIN #spinlab_sched_now AS p ON p.scheduler_id = n.scheduler_id
  WHERE p.scheduler_id IS NULL OR n.total_cpu_usage_ms <> p.total_cpu_usage_ms OR n.runnable_tasks_count <> p.runnable_tasks_count
  OPTION (KEEPFIXED PLAN);
END;
-- sys.dm_exec_sessions read once: the sessions the lists below leave out (system sessions and this one), with this
-- session's own figures. The lists keep the rest, each request's or task's session being a user session.
DELETE FROM #spinlab_skip OPTION (KEEPFIXED PLAN);
INSERT INTO #spinlab_skip
SELECT s.session_id, s.cpu_time, s.logical_reads, s.reads, s.writes, s.total_scheduled_time
FROM sys.dm_exec_sessions AS s
WHERE s.is_user_process = 0 OR s.session_id = @@SPID;
-- statement text as compiled: parameter names, never values; the text looked up for the top requests only (the
-- derived table picks them first), not for every request on a busy server
SELECT r.session_id, r.status, r.command, DB_NAME(r.database_id) AS database_name,
       r.wait_type, r.wait_time, r.last_wait_type, r.blocking_session_id, r.scheduler_id, r.cpu_time,
       r.total_elapsed_time, CONVERT(varchar(18), r.query_hash, 1) AS query_hash,
       SUBSTRING(t.text, r.statement_start_offset / 2 + 1, @text_chars) AS statement_start
FROM (SELECT TOP (@top_requests) rq.session_id, rq.status, rq.command, rq.database_id, rq.wait_type, rq.wait_time,
             rq.last_wait_type, rq.blocking_session_id, rq.scheduler_id, rq.cpu_time, rq.total_elapsed_time,
             rq.query_hash, rq.sql_handle, rq.statement_start_offset
      FROM sys.dm_exec_requests AS rq
      LEFT JOIN #spinlab_skip AS x ON x.session_id = rq.session_id
      WHERE x.session_id IS NULL
      ORDER BY rq.wait_time DESC, rq.total_elapsed_time DESC) AS r
OUTER APPLY sys.dm_exec_sql_text(r.sql_handle) AS t
ORDER BY r.wait_time DESC, r.total_elapsed_time DESC
OPTION (KEEPFIXED PLAN);
SELECT TOP (@top_requests) wt.wait_type, COUNT(*) AS tasks, MAX(wt.wait_duration_ms) AS max_wait_ms,
       SUM(wt.wait_duration_ms) AS total_wait_ms
FROM sys.dm_os_waiting_tasks AS wt
LEFT JOIN #spinlab_skip AS x ON x.session_id = wt.session_id
WHERE x.session_id IS NULL AND wt.session_id IS NOT NULL
GROUP BY wt.wait_type
ORDER BY COUNT(*) DESC, wt.wait_type
OPTION (KEEPFIXED PLAN);
-- What this monitor costs the server, read as SQL Server counts it: this session's own row (kept above) and
-- the server's compilations (SQL Statistics object; the rate counters are cumulative values). The engine takes the
-- deltas per tick (CPU, logical reads, page writes, time scheduled; recompilations) beside the server's totals.
SELECT cpu_time, logical_reads, reads, writes, total_scheduled_time FROM #spinlab_skip WHERE session_id = @@SPID
OPTION (KEEPFIXED PLAN);
SELECT RTRIM(pc.counter_name) AS counter_name, pc.cntr_value
FROM sys.dm_os_performance_counters AS pc
WHERE RTRIM(pc.object_name) LIKE N'%:SQL Statistics'
  AND pc.counter_name IN (N'SQL Compilations/sec', N'SQL Re-Compilations/sec');
-- The tick is kept: the next one compares with the generation this one wrote.
INSERT INTO #spinlab_tick (n) VALUES (@t);
DELETE FROM #spinlab_tick WHERE n < @t OPTION (KEEPFIXED PLAN);
