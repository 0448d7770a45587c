-- Purpose: Once per monitor connection, before sql/dmv/sample-delta.sql (experiments) or sql/watch/tick-delta.sql (spinlab watch) is prepared on it: the session's #temp tables that keep the previous tick's snapshot, so each tick returns only the rows that moved (the sampler copies each tick's readings into #spinlab_X; the watch uses each pair #spinlab_X / #spinlab_X_now as two generations it writes in turn, and #spinlab_skip for the sessions it leaves out). They live in tempdb for this session only and go with it (a reconnect starts again empty, and the next tick is a full snapshot). Nothing else on the server is created or changed.
-- Permission: none beyond connecting: any user can create temporary tables in tempdb (docs: CREATE TABLE, Permissions)
-- Parameters: none
-- A plain batch, not sp_executesql: a #table created inside sp_executesql or sp_execute is dropped when that call ends.
-- DROP ... IF EXISTS first, so the file can run again on the same connection (after a failed prepare).
-- Each column has its view's type (docs pages: sys.dm_os_spinlock_stats, where backoffs is bigint; sys.dm_os_wait_stats;
-- sys.dm_os_latch_stats; sys.dm_os_performance_counters; sys.dm_os_schedulers; sys.dm_io_virtual_file_stats): a
-- narrower one overflows (Msg 8115) on a server up long enough for its counter to pass 2,147,483,647.
DROP TABLE IF EXISTS #spinlab_tick;
DROP TABLE IF EXISTS #spinlab_spin;
DROP TABLE IF EXISTS #spinlab_spin_now;
DROP TABLE IF EXISTS #spinlab_wait;
DROP TABLE IF EXISTS #spinlab_wait_now;
DROP TABLE IF EXISTS #spinlab_latch;
DROP TABLE IF EXISTS #spinlab_latch_now;
DROP TABLE IF EXISTS #spinlab_counter;
DROP TABLE IF EXISTS #spinlab_counter_now;
DROP TABLE IF EXISTS #spinlab_sched;
DROP TABLE IF EXISTS #spinlab_sched_now;
DROP TABLE IF EXISTS #spinlab_log;
DROP TABLE IF EXISTS #spinlab_log_now;
DROP TABLE IF EXISTS #spinlab_skip;
CREATE TABLE #spinlab_tick (n int NOT NULL);
CREATE TABLE #spinlab_spin (k int NOT NULL, name nvarchar(256) NOT NULL, collisions bigint NULL, spins bigint NULL, sleep_time bigint NULL, backoffs bigint NULL);
CREATE TABLE #spinlab_spin_now (k int NOT NULL, name nvarchar(256) NOT NULL, collisions bigint NULL, spins bigint NULL, sleep_time bigint NULL, backoffs bigint NULL);
CREATE TABLE #spinlab_wait (k int NOT NULL, wait_type nvarchar(60) NOT NULL, waiting_tasks_count bigint NULL, wait_time_ms bigint NULL, max_wait_time_ms bigint NULL, signal_wait_time_ms bigint NULL);
CREATE TABLE #spinlab_wait_now (k int NOT NULL, wait_type nvarchar(60) NOT NULL, waiting_tasks_count bigint NULL, wait_time_ms bigint NULL, max_wait_time_ms bigint NULL, signal_wait_time_ms bigint NULL);
CREATE TABLE #spinlab_latch (k int NOT NULL, latch_class nvarchar(60) NOT NULL, waiting_requests_count bigint NULL, wait_time_ms bigint NULL, max_wait_time_ms bigint NULL);
CREATE TABLE #spinlab_latch_now (k int NOT NULL, latch_class nvarchar(60) NOT NULL, waiting_requests_count bigint NULL, wait_time_ms bigint NULL, max_wait_time_ms bigint NULL);
CREATE TABLE #spinlab_counter (k int NOT NULL, object_name nvarchar(128) NULL, counter_name nvarchar(128) NULL, instance_name nvarchar(128) NULL, cntr_value bigint NULL, cntr_type int NULL);
CREATE TABLE #spinlab_counter_now (k int NOT NULL, object_name nvarchar(128) NULL, counter_name nvarchar(128) NULL, instance_name nvarchar(128) NULL, cntr_value bigint NULL, cntr_type int NULL);
CREATE TABLE #spinlab_sched (scheduler_id int NOT NULL, cpu_id int NULL, parent_node_id int NULL, is_online bit NULL, total_cpu_usage_ms bigint NULL, runnable_tasks_count int NULL);
CREATE TABLE #spinlab_sched_now (scheduler_id int NOT NULL, cpu_id int NULL, parent_node_id int NULL, is_online bit NULL, total_cpu_usage_ms bigint NULL, runnable_tasks_count int NULL);
CREATE TABLE #spinlab_log (database_name nvarchar(128) NULL, num_of_writes bigint NULL, num_of_bytes_written bigint NULL, io_stall_write_ms bigint NULL);
CREATE TABLE #spinlab_log_now (database_name nvarchar(128) NULL, num_of_writes bigint NULL, num_of_bytes_written bigint NULL, io_stall_write_ms bigint NULL);
-- The watch's sessions left out of its lists (sys.dm_exec_sessions' types; sql/watch/tick-delta.sql).
CREATE TABLE #spinlab_skip (session_id smallint NOT NULL, cpu_time int NOT NULL, logical_reads bigint NOT NULL, reads bigint NOT NULL, writes bigint NOT NULL, total_scheduled_time int NOT NULL);
