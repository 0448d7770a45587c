-- Purpose: The session (other than this one) that is in the lab database: after SET SINGLE_USER it holds the one slot and makes DROP DATABASE fail with 3702 (a monitor whose pool reconnected into the database).
-- Permission: VIEW SERVER STATE (2022+: VIEW SERVER PERFORMANCE STATE) to see other logins' sessions
-- Parameters: @db sysname
SELECT TOP (1) s.session_id
FROM sys.dm_exec_sessions AS s
WHERE s.database_id = DB_ID(@db) AND s.session_id <> @@SPID
ORDER BY s.session_id;
