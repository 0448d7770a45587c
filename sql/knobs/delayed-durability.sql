-- Purpose: Set DELAYED_DURABILITY on the lab database (DISABLED, ALLOWED or FORCED); the original is journaled first and put back afterwards.
-- Permission: ALTER on the lab database
-- Parameters: @db sysname, @mode nvarchar(16)
IF @mode IS NULL OR @mode NOT IN (N'DISABLED', N'ALLOWED', N'FORCED')
    THROW 50010, N'Spinlock Lab: delayed durability must be DISABLED, ALLOWED or FORCED.', 1;
DECLARE @sql nvarchar(max) = N'ALTER DATABASE ' + QUOTENAME(@db) + N' SET DELAYED_DURABILITY = ' + @mode + N';';
EXEC sys.sp_executesql @sql;
