-- Purpose: The session id of a workload session (built-in or custom), read once when it opens, so the run can read that session's own counters and waits.
-- Permission: none (any login)
-- Parameters: none
SELECT @@SPID AS session_id;
