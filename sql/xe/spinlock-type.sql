-- Purpose: The Extended Events map key of one spinlock type (sys.dm_xe_map_values, name = 'spinlock_types'), which the sqlos.spinlock_backoff event's "type" field carries: read at capture time, never hard-coded (keys differ between versions). Also the spinlock's sys.dm_os_spinlock_stats counters, so the capture can compare the DMV's backoffs with the events counted.
-- Permission: VIEW SERVER STATE (SQL Server 2022+: VIEW SERVER PERFORMANCE STATE)
-- Parameters: @spinlock nvarchar(256)
SELECT mv.map_key, mv.map_value
FROM sys.dm_xe_map_values AS mv
WHERE mv.name = N'spinlock_types' AND mv.map_value = @spinlock;
SELECT s.name, s.collisions, s.spins, s.backoffs
FROM sys.dm_os_spinlock_stats AS s
WHERE s.name = @spinlock;
