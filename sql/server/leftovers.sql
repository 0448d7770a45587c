-- Purpose: What Spinlock Lab may have left on a server, for the real-server test tier's final check: whether the lab database still exists, and any Extended Events session whose name starts with spinlab or SpinlockLab_ (the stack captures' sessions), running or only defined.
-- Permission: VIEW SERVER STATE (SQL Server 2022+: VIEW SERVER PERFORMANCE STATE) for both event-session views: without it sys.server_event_sessions shows no row and sys.dm_xe_sessions fails the batch; sys.databases is public
-- Parameters: @db sysname
SELECT CASE WHEN DB_ID(@db) IS NULL THEN 0 ELSE 1 END AS lab_db_exists,
       (SELECT COUNT(*) FROM sys.server_event_sessions AS es WHERE es.name LIKE N'spinlab%' OR es.name LIKE N'SpinlockLab[_]%') AS event_sessions_defined,
       (SELECT COUNT(*) FROM sys.dm_xe_sessions AS xs WHERE xs.name LIKE N'spinlab%' OR xs.name LIKE N'SpinlockLab[_]%') AS event_sessions_running;
