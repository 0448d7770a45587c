-- Purpose: The session id of a custom workload's session, read once when it opens, so the run can read that session's own counters and waits.
-- Permission: none (any login)
-- Parameters: none
SELECT @@SPID AS session_id;
