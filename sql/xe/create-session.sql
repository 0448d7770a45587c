-- Purpose: Create and start Spinlock Lab's own event session for one spinlock type: sqlos.spinlock_backoff filtered on the type's map key, with the package0.callstack action, into an in-memory package0.histogram target keyed on the call stack (source_type = 1: an action). The name and the key cannot be parameters of DDL, so the statement is built here from typed parameters (the name checked against the SpinlockLab_ prefix and quoted with QUOTENAME, the key an int). Syntax: Microsoft Learn "CREATE EVENT SESSION (Transact-SQL)" and "ALTER EVENT SESSION (Transact-SQL)"; the histogram target: "Extended Events targets".
-- Permission: ALTER ANY EVENT SESSION (SQL Server 2022+ also: CREATE ANY EVENT SESSION to create and ALTER ANY EVENT SESSION ENABLE to start)
-- Parameters: @session sysname, @type int, @slots int
IF @session IS NULL OR @session NOT LIKE N'SpinlockLab[_]%' OR LEN(@session) > 100
    THROW 50020, N'Spinlock Lab: the event session name must start with SpinlockLab_ and be at most 100 characters.', 1;
IF @type IS NULL OR @type < 0
    THROW 50021, N'Spinlock Lab: the spinlock type must be a map_key from sys.dm_xe_map_values (name = spinlock_types).', 1;
IF @slots IS NULL OR @slots < 16 OR @slots > 16384
    THROW 50022, N'Spinlock Lab: the histogram slots must be from 16 to 16384.', 1;
DECLARE @create nvarchar(max) = N'CREATE EVENT SESSION ' + QUOTENAME(@session) + N' ON SERVER ADD EVENT sqlos.spinlock_backoff (ACTION (package0.callstack) WHERE ([type] = (' + CAST(@type AS nvarchar(11)) + N'))) ADD TARGET package0.histogram (SET filtering_event_name = N''sqlos.spinlock_backoff'', source_type = (1), source = N''package0.callstack'', slots = (' + CAST(@slots AS nvarchar(11)) + N')) WITH (MAX_MEMORY = 4096 KB, EVENT_RETENTION_MODE = ALLOW_SINGLE_EVENT_LOSS, MAX_DISPATCH_LATENCY = 1 SECONDS, MEMORY_PARTITION_MODE = NONE, TRACK_CAUSALITY = OFF, STARTUP_STATE = OFF);';
EXEC sys.sp_executesql @create;
DECLARE @start nvarchar(max) = N'ALTER EVENT SESSION ' + QUOTENAME(@session) + N' ON SERVER STATE = START;';
EXEC sys.sp_executesql @start;
