-- Purpose: Whether this session still holds its application lock (an experiment checks after each run that its lock was not lost with a dropped connection): NoLock when it does not. Docs: "APPLOCK_MODE (Transact-SQL)".
-- Permission: membership in the public role
-- Parameters: @resource nvarchar(255)
SELECT APPLOCK_MODE(N'public', @resource, N'Session') AS lock_mode;
