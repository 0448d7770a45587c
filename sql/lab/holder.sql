-- Purpose: The user session (other than this one) that holds the lab database, so that DROP DATABASE fails with 3702 after SET SINGLE_USER took the one slot: a session whose current database it is (a monitor whose pool reconnected into it), or a session in another database whose open transaction holds locks in it (it read or wrote the lab's tables by three-part name, or changed database inside the transaction). System sessions (is_user_process = 0, such as In-Memory OLTP's checkpoint workers, which live in a database with a memory-optimized filegroup) are left out: KILL refuses them (Msg 6107), and DROP DATABASE ends them itself. Docs: "sys.dm_exec_sessions (Transact-SQL)", "sys.dm_tran_locks (Transact-SQL)" (request_session_id is -2 or -3 for orphaned or deferred transactions, which no session owns), "KILL (Transact-SQL)".
-- Permission: VIEW SERVER STATE (2022+: VIEW SERVER PERFORMANCE STATE) to see other logins' sessions and locks; without it only this session is visible and nothing is found
-- Parameters: @db sysname
-- Sessions in the database come first: they are the ones SET SINGLE_USER races with.
SELECT TOP (1) s.session_id
FROM sys.dm_exec_sessions AS s
WHERE s.is_user_process = 1
  AND s.session_id <> @@SPID
  AND (s.database_id = DB_ID(@db)
       OR EXISTS (SELECT 1 FROM sys.dm_tran_locks AS l
                  WHERE l.request_session_id = s.session_id AND l.resource_database_id = DB_ID(@db)))
ORDER BY CASE WHEN s.database_id = DB_ID(@db) THEN 0 ELSE 1 END, s.session_id;
