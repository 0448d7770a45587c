-- Purpose: Spinlock Lab's event sessions on this server (names starting with SpinlockLab_), defined and running: what `spinlab restore` and `spinlab check` report as left over.
-- Permission: VIEW SERVER STATE (SQL Server 2022+: VIEW SERVER PERFORMANCE STATE) for both views: without it sys.server_event_sessions shows no row and sys.dm_xe_sessions fails the batch
-- Parameters: none
SELECT es.name, CASE WHEN xs.name IS NULL THEN 0 ELSE 1 END AS running
FROM sys.server_event_sessions AS es
LEFT JOIN sys.dm_xe_sessions AS xs ON xs.name = es.name
WHERE es.name LIKE N'SpinlockLab[_]%'
ORDER BY es.name;
