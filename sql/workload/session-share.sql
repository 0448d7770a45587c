-- Purpose: The run's own workload sessions against the rest of the server, read by the monitor each tick so the run can say what share of the server's CPU and waits was its own: the sessions' CPU so far (completed requests in sys.dm_exec_sessions plus the requests running now), their waits by type, and how many other user requests are running now. @ids lists the session ids as ',51,52,'.
-- Permission: VIEW SERVER STATE (2016-2019) or VIEW SERVER PERFORMANCE STATE (2022+); without it the views show only the current session, so the workload reads as absent and the run says its share is unknown
-- Parameters: @ids nvarchar(4000)
-- sys.dm_exec_sessions.cpu_time counts a request's CPU when it completes; a server-loop call runs for the whole
-- measured phase, so the CPU of the requests still running (sys.dm_exec_requests.cpu_time) is added to it.
SET NOCOUNT ON;
SELECT
  (SELECT ISNULL(SUM(CAST(s.cpu_time AS bigint)), 0)
   FROM sys.dm_exec_sessions AS s
   WHERE CHARINDEX(N',' + CAST(s.session_id AS nvarchar(10)) + N',', @ids) > 0) AS sessions_cpu_ms,
  (SELECT ISNULL(SUM(CAST(r.cpu_time AS bigint)), 0)
   FROM sys.dm_exec_requests AS r
   WHERE CHARINDEX(N',' + CAST(r.session_id AS nvarchar(10)) + N',', @ids) > 0) AS running_cpu_ms,
  (SELECT COUNT(*)
   FROM sys.dm_exec_requests AS r
   INNER JOIN sys.dm_exec_sessions AS s ON s.session_id = r.session_id
   WHERE s.is_user_process = 1
     AND r.session_id <> @@SPID
     AND CHARINDEX(N',' + CAST(r.session_id AS nvarchar(10)) + N',', @ids) = 0) AS other_requests;
SELECT w.wait_type, SUM(w.waiting_tasks_count) AS waiting_tasks_count, SUM(w.wait_time_ms) AS wait_time_ms
FROM sys.dm_exec_session_wait_stats AS w
WHERE CHARINDEX(N',' + CAST(w.session_id AS nvarchar(10)) + N',', @ids) > 0
GROUP BY w.wait_type;
