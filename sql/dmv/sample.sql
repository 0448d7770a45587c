-- Purpose: One monitor tick in one round trip: server clock, spinlocks, waits, latches, the lab database's performance counters, its log file I/O, pending I/O, per-scheduler CPU, and row operations on the lab tables. Cumulative values only: the engine subtracts consecutive ticks and never clears the DMVs.
-- Permission: VIEW SERVER STATE and VIEW DATABASE STATE on the lab database (SQL Server 2022+: VIEW SERVER PERFORMANCE STATE and VIEW DATABASE PERFORMANCE STATE)
-- Parameters: @db sysname, @db_physical nvarchar(128)
-- @db_physical: the lab database's sys.databases.physical_database_name where it differs from its name, else NULL:
-- Azure SQL Managed Instance names database counters by it (a GUID), and the engine maps it back (sql/server/database-names.sql).
-- Runs on the monitor connection, whose current database is the lab database (sys.dm_db_* views see only it).
-- Rows whose counters are all zero are left out to keep the tick small; the engine treats a new row as rising from 0.

-- 1. Clock: intervals come from ms_ticks (server), the clock rate from cpu_ticks / ms_ticks, restarts from the start time.
SELECT SYSUTCDATETIME() AS server_time_utc, i.ms_ticks, i.cpu_ticks, i.sqlserver_start_time
FROM sys.dm_os_sys_info AS i;

-- 2. Spinlocks.
SELECT sl.name, sl.collisions, sl.spins, sl.sleep_time, sl.backoffs
FROM sys.dm_os_spinlock_stats AS sl
WHERE sl.spins > 0 OR sl.collisions > 0;

-- 3. Waits (completed waits; wait_time_ms includes signal time).
SELECT ws.wait_type, ws.waiting_tasks_count, ws.wait_time_ms, ws.max_wait_time_ms, ws.signal_wait_time_ms
FROM sys.dm_os_wait_stats AS ws
WHERE ws.waiting_tasks_count > 0;

-- 4. Latches.
SELECT ls.latch_class, ls.waiting_requests_count, ls.wait_time_ms, ls.max_wait_time_ms
FROM sys.dm_os_latch_stats AS ls
WHERE ls.waiting_requests_count > 0;

-- 5. Performance counters: the lab database's transaction and log counters, and batch requests. The object prefix
--    differs on named instances (MSSQL$NAME), hence the suffix match. The names are nchar(128), space padded, and LIKE
--    on Unicode data treats trailing blanks as significant, so the suffix match is on RTRIM(object_name); = ignores them.
SELECT RTRIM(pc.object_name) AS object_name, RTRIM(pc.counter_name) AS counter_name,
       RTRIM(pc.instance_name) AS instance_name, pc.cntr_value, pc.cntr_type
FROM sys.dm_os_performance_counters AS pc
WHERE (RTRIM(pc.object_name) LIKE N'%:Databases' AND pc.instance_name IN (@db, @db_physical)
       AND pc.counter_name IN (N'Transactions/sec', N'Write Transactions/sec', N'Log Flushes/sec',
                               N'Log Bytes Flushed/sec', N'Log Flush Waits/sec', N'Log Flush Wait Time'))
   OR (RTRIM(pc.object_name) LIKE N'%:SQL Statistics' AND pc.counter_name = N'Batch Requests/sec');

-- 6. The lab database's log file I/O.
SELECT SUM(vfs.num_of_writes) AS num_of_writes, SUM(vfs.num_of_bytes_written) AS num_of_bytes_written,
       SUM(vfs.io_stall_write_ms) AS io_stall_write_ms
FROM sys.dm_io_virtual_file_stats(DB_ID(), NULL) AS vfs
JOIN sys.database_files AS df ON df.file_id = vfs.file_id
WHERE df.type = 1;

-- 7. I/O requests pending now, in all and on the lab database's log (the WRITELOG post compares it with the log writer's queue limit).
--    io_pending = 1 only: a request the OS has completed (0) stays listed until its scheduler reaps it.
SELECT COUNT(*) AS pending_total,
       ISNULL(SUM(CASE WHEN df.type = 1 THEN 1 ELSE 0 END), 0) AS pending_log
FROM sys.dm_io_pending_io_requests AS ior
LEFT JOIN sys.dm_io_virtual_file_stats(DB_ID(), NULL) AS vfs ON vfs.file_handle = ior.io_handle
LEFT JOIN sys.database_files AS df ON df.file_id = vfs.file_id
WHERE ior.io_pending = 1;

-- 8. Per-scheduler CPU (total_cpu_usage_ms, 2016+) and queueing. Hidden schedulers (ids >= 1048576: the log writers
--    and other system tasks) are included for the run's CPU and counted apart from the user schedulers.
SELECT s.scheduler_id, s.cpu_id, s.parent_node_id, s.is_online, s.total_cpu_usage_ms,
       s.runnable_tasks_count
FROM sys.dm_os_schedulers AS s
WHERE s.status NOT LIKE N'%DAC%';

-- 9. Row operations on the lab tables: disk-based from index operational stats (heap or clustered index only),
--    memory-optimized from XTP object stats (index operational stats does not cover them).
SELECT t.name AS table_name, SUM(ios.leaf_insert_count) AS inserts, SUM(ios.leaf_update_count) AS updates,
       SUM(ios.leaf_delete_count) AS deletes
FROM sys.dm_db_index_operational_stats(DB_ID(), NULL, NULL, NULL) AS ios
JOIN sys.tables AS t ON t.object_id = ios.object_id
WHERE t.is_ms_shipped = 0 AND t.is_memory_optimized = 0 AND ios.index_id IN (0, 1)
GROUP BY t.name
UNION ALL
SELECT t.name, xos.row_insert_attempts, xos.row_update_attempts, xos.row_delete_attempts
FROM sys.dm_db_xtp_object_stats AS xos
JOIN sys.tables AS t ON t.object_id = xos.object_id
WHERE t.is_ms_shipped = 0;
