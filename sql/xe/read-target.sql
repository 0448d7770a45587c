-- Purpose: Read the histogram target of Spinlock Lab's running event session: one row with its target_data (the <HistogramTarget> XML: one <Slot count="N"><value>call stack</value></Slot> per distinct stack) and how often the target ran. Column names: Microsoft Learn "sys.dm_xe_session_targets" and "sys.dm_xe_sessions".
-- Permission: VIEW SERVER STATE (SQL Server 2022+: VIEW SERVER PERFORMANCE STATE)
-- Parameters: @session sysname
SELECT xs.name AS session_name, xst.target_name, xst.execution_count, CAST(xst.target_data AS nvarchar(max)) AS target_data
FROM sys.dm_xe_sessions AS xs
INNER JOIN sys.dm_xe_session_targets AS xst ON xst.event_session_address = xs.address
WHERE xs.name = @session AND xst.target_name = N'histogram';
