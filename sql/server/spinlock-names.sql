-- Purpose: Every spinlock type this server lists in sys.dm_os_spinlock_stats (it lists each type, spun on or not), so a tune's objective (spins-per-row:NAME) is checked against the server's own names before anything changes: a name it does not list would read 0 spins in every trial.
-- Permission: VIEW SERVER STATE (SQL Server 2022+: VIEW SERVER PERFORMANCE STATE)
-- Parameters: none
SELECT s.name FROM sys.dm_os_spinlock_stats AS s;
