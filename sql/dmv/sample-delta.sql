-- Purpose: One monitor tick that returns only what moved: sql/dmv/sample.sql's reads, with spinlocks, waits, latches, performance counters and schedulers compared with the previous tick's snapshot kept in this session's #temp tables (sql/dmv/snapshot-setup.sql), so only rows that are new or whose values changed come back; the engine keeps the last values of the rest. The first result set says how many ticks the snapshot holds: 0 means this tick is a full snapshot (a new or re-opened connection). Writes only to this session's own #temp tables in tempdb; reads the DMVs like sample.sql and changes nothing else.
-- Permission: VIEW SERVER STATE and VIEW DATABASE STATE on the lab database (SQL Server 2022+: VIEW SERVER PERFORMANCE STATE and VIEW DATABASE PERFORMANCE STATE); the #temp tables need none
-- Parameters: @db sysname, @db_physical nvarchar(128)
-- @db_physical: the lab database's sys.databases.physical_database_name where it differs from its name, else NULL:
-- Azure SQL Managed Instance names database counters by it (a GUID), and the engine maps it back (sql/server/database-names.sql).
-- Prepared once per monitor connection (sp_prepare) after snapshot-setup.sql; each tick is one short sp_execute call.
-- Each DMV is read once into a _now table: the rows returned and the snapshot kept are the same reading.
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
SELECT COUNT(*) AS ticks_kept FROM #spinlab_tick OPTION (KEEPFIXED PLAN);
DELETE FROM #spinlab_tick OPTION (KEEPFIXED PLAN);
INSERT INTO #spinlab_tick (n) VALUES (1);
SELECT SYSUTCDATETIME() AS t, i.ms_ticks AS ms, i.cpu_ticks AS cpu, i.sqlserver_start_time AS st
FROM sys.dm_os_sys_info AS i;
INSERT INTO #spinlab_spin_now
SELECT CAST(SUBSTRING(HASHBYTES('SHA2_256', sl.name), 1, 4) AS int), sl.name, sl.collisions, sl.spins, sl.sleep_time, sl.backoffs
FROM sys.dm_os_spinlock_stats AS sl
WHERE sl.spins > 0 OR sl.collisions > 0;
SELECT k, name AS n FROM #spinlab_spin_now EXCEPT SELECT k, name FROM #spinlab_spin OPTION (KEEPFIXED PLAN);
SELECT k, collisions AS c, spins AS s, sleep_time AS sl, backoffs AS b FROM #spinlab_spin_now
EXCEPT SELECT k, collisions, spins, sleep_time, backoffs FROM #spinlab_spin OPTION (KEEPFIXED PLAN);
INSERT INTO #spinlab_wait_now
SELECT CAST(SUBSTRING(HASHBYTES('SHA2_256', ws.wait_type), 1, 4) AS int), ws.wait_type, ws.waiting_tasks_count, ws.wait_time_ms, ws.max_wait_time_ms, ws.signal_wait_time_ms
FROM sys.dm_os_wait_stats AS ws
WHERE ws.waiting_tasks_count > 0;
SELECT k, wait_type AS n FROM #spinlab_wait_now EXCEPT SELECT k, wait_type FROM #spinlab_wait OPTION (KEEPFIXED PLAN);
SELECT k, waiting_tasks_count AS c, wait_time_ms AS ms, max_wait_time_ms AS mx, signal_wait_time_ms AS sg FROM #spinlab_wait_now
EXCEPT SELECT k, waiting_tasks_count, wait_time_ms, max_wait_time_ms, signal_wait_time_ms FROM #spinlab_wait OPTION (KEEPFIXED PLAN);
INSERT INTO #spinlab_latch_now
SELECT CAST(SUBSTRING(HASHBYTES('SHA2_256', ls.latch_class), 1, 4) AS int), ls.latch_class, ls.waiting_requests_count, ls.wait_time_ms, ls.max_wait_time_ms
FROM sys.dm_os_latch_stats AS ls
WHERE ls.waiting_requests_count > 0;
SELECT k, latch_class AS n FROM #spinlab_latch_now EXCEPT SELECT k, latch_class FROM #spinlab_latch OPTION (KEEPFIXED PLAN);
SELECT k, waiting_requests_count AS c, wait_time_ms AS ms, max_wait_time_ms AS mx FROM #spinlab_latch_now
EXCEPT SELECT k, waiting_requests_count, wait_time_ms, max_wait_time_ms FROM #spinlab_latch OPTION (KEEPFIXED PLAN);
-- nchar names: trailing blanks count in a Unicode LIKE, hence RTRIM (see sample.sql)
INSERT INTO #spinlab_counter_now
SELECT CAST(SUBSTRING(HASHBYTES('SHA2_256', RTRIM(pc.object_name) + N'|' + RTRIM(pc.counter_name) + N'|' + RTRIM(pc.instance_name)), 1, 4) AS int),
       RTRIM(pc.object_name), RTRIM(pc.counter_name), RTRIM(pc.instance_name), pc.cntr_value, pc.cntr_type
FROM sys.dm_os_performance_counters AS pc
WHERE (RTRIM(pc.object_name) LIKE N'%:Databases' AND pc.instance_name IN (@db, @db_physical)
       AND pc.counter_name IN (N'Transactions/sec', N'Write Transactions/sec', N'Log Flushes/sec',
                               N'Log Bytes Flushed/sec', N'Log Flush Waits/sec', N'Log Flush Wait Time'))
   OR (RTRIM(pc.object_name) LIKE N'%:SQL Statistics' AND pc.counter_name = N'Batch Requests/sec');
SELECT k, object_name AS o, counter_name AS c, instance_name AS i, cntr_type AS ty FROM #spinlab_counter_now
EXCEPT SELECT k, object_name, counter_name, instance_name, cntr_type FROM #spinlab_counter OPTION (KEEPFIXED PLAN);
SELECT k, cntr_value AS v FROM #spinlab_counter_now EXCEPT SELECT k, cntr_value FROM #spinlab_counter OPTION (KEEPFIXED PLAN);
SELECT SUM(vfs.num_of_writes) AS w, SUM(vfs.num_of_bytes_written) AS b, SUM(vfs.io_stall_write_ms) AS st
FROM sys.dm_io_virtual_file_stats(DB_ID(), NULL) AS vfs
JOIN sys.database_files AS df ON df.file_id = vfs.file_id
WHERE df.type = 1;
SELECT COUNT(*) AS pt, ISNULL(SUM(CASE WHEN df.type = 1 THEN 1 ELSE 0 END), 0) AS pl
FROM sys.dm_io_pending_io_requests AS ior
LEFT JOIN sys.dm_io_virtual_file_stats(DB_ID(), NULL) AS vfs ON vfs.file_handle = ior.io_handle
LEFT JOIN sys.database_files AS df ON df.file_id = vfs.file_id
WHERE ior.io_pending = 1;
INSERT INTO #spinlab_sched_now
SELECT s.scheduler_id, s.cpu_id, s.parent_node_id, s.is_online, s.total_cpu_usage_ms,
       s.runnable_tasks_count
FROM sys.dm_os_schedulers AS s
WHERE s.status NOT LIKE N'%DAC%';
SELECT scheduler_id AS id, cpu_id AS cpu, parent_node_id AS node, is_online AS up FROM #spinlab_sched_now
EXCEPT SELECT scheduler_id, cpu_id, parent_node_id, is_online FROM #spinlab_sched OPTION (KEEPFIXED PLAN);
-- Busy figures of the schedulers that moved, each busy scheduler a row every tick (256 on a big box), so kept narrow:
-- CPU ms as the change since the snapshot (dms, an int: the interval's milliseconds at most) where the snapshot has
-- the scheduler, else in full (ms); the other is NULL, a bit in the row's null bitmap. The engine adds dms to the
-- value it kept. runnable_tasks_count fits a smallint: it cannot pass max worker threads (at most 32,767).
SELECT n.scheduler_id AS id, CASE WHEN p.scheduler_id IS NULL THEN n.total_cpu_usage_ms END AS ms,
       CAST(n.total_cpu_usage_ms - p.total_cpu_usage_ms AS int) AS dms, CAST(n.runnable_tasks_count AS smallint) AS r
FROM #spinlab_sched_now AS n
LEFT JOIN #spinlab_sched AS p ON p.scheduler_id = n.scheduler_id
WHERE p.scheduler_id IS NULL OR n.total_cpu_usage_ms <> p.total_cpu_usage_ms OR n.runnable_tasks_count <> p.runnable_tasks_count
OPTION (KEEPFIXED PLAN);
SELECT t.name AS n, SUM(ios.leaf_insert_count) AS i, SUM(ios.leaf_update_count) AS u, SUM(ios.leaf_delete_count) AS d
FROM sys.dm_db_index_operational_stats(DB_ID(), NULL, NULL, NULL) AS ios
JOIN sys.tables AS t ON t.object_id = ios.object_id
WHERE t.is_ms_shipped = 0 AND t.is_memory_optimized = 0 AND ios.index_id IN (0, 1)
GROUP BY t.name
UNION ALL
SELECT t.name, xos.row_insert_attempts, xos.row_update_attempts, xos.row_delete_attempts
FROM sys.dm_db_xtp_object_stats AS xos
JOIN sys.tables AS t ON t.object_id = xos.object_id
WHERE t.is_ms_shipped = 0;
-- What this monitor costs the server, read as SQL Server counts it: this session's own row (anyone may read it) and
-- the server's compilations (SQL Statistics object; the rate counters are cumulative values). The engine takes the
-- deltas per tick (CPU, logical reads, page writes, time scheduled; recompilations) beside the server's totals.
-- One row: the two counters as columns of it (bigint, as cntr_value) rather than two rows carrying their names. ELSE 0,
-- not NULL, in the CASEs: an aggregate that eliminates a NULL sends a warning (Msg 8153, ANSI_WARNINGS ON) every tick;
-- the values are cumulative counts, never below 0, so MAX is the counter's value (NULL only if neither row exists).
SELECT s.cpu_time AS c, s.logical_reads AS lr, s.reads AS r, s.writes AS w, s.total_scheduled_time AS ts, pc.cp, pc.rc
FROM sys.dm_exec_sessions AS s
CROSS JOIN (SELECT MAX(CASE WHEN ctr.counter_name = N'SQL Compilations/sec' THEN ctr.cntr_value ELSE 0 END) AS cp,
                   MAX(CASE WHEN ctr.counter_name = N'SQL Re-Compilations/sec' THEN ctr.cntr_value ELSE 0 END) AS rc
            FROM sys.dm_os_performance_counters AS ctr
            WHERE RTRIM(ctr.object_name) LIKE N'%:SQL Statistics'
              AND ctr.counter_name IN (N'SQL Compilations/sec', N'SQL Re-Compilations/sec')) AS pc
WHERE s.session_id = @@SPID;
-- This tick's readings become the snapshot the next tick compares with.
DELETE FROM #spinlab_spin OPTION (KEEPFIXED PLAN);
INSERT INTO #spinlab_spin SELECT * FROM #spinlab_spin_now OPTION (KEEPFIXED PLAN);
DELETE FROM #spinlab_spin_now OPTION (KEEPFIXED PLAN);
DELETE FROM #spinlab_wait OPTION (KEEPFIXED PLAN);
INSERT INTO #spinlab_wait SELECT * FROM #spinlab_wait_now OPTION (KEEPFIXED PLAN);
DELETE FROM #spinlab_wait_now OPTION (KEEPFIXED PLAN);
DELETE FROM #spinlab_latch OPTION (KEEPFIXED PLAN);
INSERT INTO #spinlab_latch SELECT * FROM #spinlab_latch_now OPTION (KEEPFIXED PLAN);
DELETE FROM #spinlab_latch_now OPTION (KEEPFIXED PLAN);
DELETE FROM #spinlab_counter OPTION (KEEPFIXED PLAN);
INSERT INTO #spinlab_counter SELECT * FROM #spinlab_counter_now OPTION (KEEPFIXED PLAN);
DELETE FROM #spinlab_counter_now OPTION (KEEPFIXED PLAN);
DELETE FROM #spinlab_sched OPTION (KEEPFIXED PLAN);
INSERT INTO #spinlab_sched SELECT * FROM #spinlab_sched_now OPTION (KEEPFIXED PLAN);
DELETE FROM #spinlab_sched_now OPTION (KEEPFIXED PLAN);
