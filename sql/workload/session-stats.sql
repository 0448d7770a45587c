-- Purpose: The counters and waits of a run's own workload sessions, read at the start and end of the measured phase so their deltas describe the workload apart from the rest of the server. @ids lists the session ids as ',51,52,'.
-- Permission: VIEW SERVER STATE (2016-2019) or VIEW SERVER PERFORMANCE STATE (2022+); without it both views show only the current session, so the workload sessions read as absent
-- Parameters: @ids nvarchar(4000)
SELECT s.session_id, s.cpu_time, s.logical_reads, s.reads, s.writes
FROM sys.dm_exec_sessions AS s
WHERE CHARINDEX(N',' + CAST(s.session_id AS nvarchar(10)) + N',', @ids) > 0;
SELECT w.session_id, w.wait_type, w.waiting_tasks_count, w.wait_time_ms, w.signal_wait_time_ms
FROM sys.dm_exec_session_wait_stats AS w
WHERE CHARINDEX(N',' + CAST(w.session_id AS nvarchar(10)) + N',', @ids) > 0;
