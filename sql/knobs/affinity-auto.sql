-- Purpose: Put process affinity back to AUTO (the default: every CPU, SQL Server decides). Used to restore when the journal says the original was AUTO.
-- Permission: ALTER SETTINGS (sysadmin and serveradmin have it)
-- Parameters: none
ALTER SERVER CONFIGURATION SET PROCESS AFFINITY CPU = AUTO;
