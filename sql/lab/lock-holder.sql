-- Purpose: Who holds one of Spinlock Lab's application locks, so that a refused command can name it: the owning session's host, client process id and login time (the holder's connection was opened when its experiment started). The resource names are short enough (at most 32 characters) for resource_description to show them in full, between the principal id and the hash ("<DbPrincipalId>:<up to 32 characters>:(<hash_value>)"). Waiting requests are not holders. Docs: "sys.dm_tran_locks (Transact-SQL)" (resource_type APPLICATION, request_mode, request_status, request_owner_type), "sys.dm_exec_sessions (Transact-SQL)" (host_name, host_process_id, program_name, login_name, login_time: in every version from 2016 and on Managed Instance).
-- Permission: VIEW SERVER STATE (2022+: VIEW SERVER PERFORMANCE STATE) to see other sessions' locks; without it only this session's are visible and nobody is named
-- Parameters: @resource nvarchar(255)
SELECT l.request_session_id AS session_id, l.request_mode, s.host_name, s.host_process_id, s.program_name, s.login_name, s.login_time
FROM sys.dm_tran_locks AS l
JOIN sys.dm_exec_sessions AS s ON s.session_id = l.request_session_id
WHERE l.resource_type = N'APPLICATION'
  AND l.resource_database_id = DB_ID()
  AND CHARINDEX(@resource, l.resource_description) > 0
  AND l.request_status NOT IN (N'WAIT', N'LOW_PRIORITY_WAIT')
  AND l.request_session_id <> @@SPID
ORDER BY CASE l.request_mode WHEN N'X' THEN 0 ELSE 1 END, s.login_time;
