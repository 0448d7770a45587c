-- Purpose: Deploy the inmem-insert scenario's procedures: natively compiled and interpreted inserts of @batch_size rows per transaction, and the server loops around them.
-- Permission: CREATE PROCEDURE in the lab database (db_ddladmin or db_owner)
-- Parameters: none
-- One atomic block of @batch_size inserts. Native modules have no @@SPID, so the session's key base is passed in.
CREATE PROCEDURE dbo.spinlab_inmem_insert_native
    @key_base   bigint,
    @offset     bigint,
    @batch_size int
WITH NATIVE_COMPILATION, SCHEMABINDING
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    DECLARE @j int = 0;
    WHILE @j < @batch_size
    BEGIN
        INSERT INTO dbo.spinlab_inmem_insert (c1) VALUES (@key_base + @offset + @j);
        SET @j += 1;
    END;
END;
GO
-- The same transaction through the interpreted engine (interop): the path on which the posts see BLOCKER_ENUM.
CREATE PROCEDURE dbo.spinlab_inmem_insert_interpreted
    @key_base   bigint,
    @offset     bigint,
    @batch_size int
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    DECLARE @j int = 0;
    BEGIN TRANSACTION;
    WHILE @j < @batch_size
    BEGIN
        -- Interop access to a memory-optimized table inside an explicit transaction needs SNAPSHOT.
        INSERT INTO dbo.spinlab_inmem_insert WITH (SNAPSHOT) (c1) VALUES (@key_base + @offset + @j);
        SET @j += 1;
    END;
    COMMIT TRANSACTION;
END;
GO
-- Server loops: one EXEC per session, one transaction of @batch_size rows per iteration, until @rows or @run_ms.
CREATE PROCEDURE dbo.spinlab_inmem_insert_loop_native
    @key_base   bigint,
    @rows       bigint,
    @run_ms     int,
    @batch_size int
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @done bigint = 0,
            @stop datetime2(3) = CASE WHEN @run_ms IS NULL THEN NULL ELSE DATEADD(millisecond, @run_ms, SYSUTCDATETIME()) END;
    WHILE (@rows IS NULL OR @done < @rows) AND (@stop IS NULL OR SYSUTCDATETIME() < @stop)
    BEGIN
        EXEC dbo.spinlab_inmem_insert_native @key_base = @key_base, @offset = @done, @batch_size = @batch_size;
        SET @done += @batch_size;
    END;
    SELECT @done AS rows_done;
END;
GO
CREATE PROCEDURE dbo.spinlab_inmem_insert_loop_interpreted
    @key_base   bigint,
    @rows       bigint,
    @run_ms     int,
    @batch_size int
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    DECLARE @done bigint = 0, @j int,
            @stop datetime2(3) = CASE WHEN @run_ms IS NULL THEN NULL ELSE DATEADD(millisecond, @run_ms, SYSUTCDATETIME()) END;
    WHILE (@rows IS NULL OR @done < @rows) AND (@stop IS NULL OR SYSUTCDATETIME() < @stop)
    BEGIN
        SET @j = 0;
        BEGIN TRANSACTION;
        WHILE @j < @batch_size
        BEGIN
            INSERT INTO dbo.spinlab_inmem_insert WITH (SNAPSHOT) (c1) VALUES (@key_base + @done + @j);
            SET @j += 1;
        END;
        COMMIT TRANSACTION;
        SET @done += @batch_size;
    END;
    SELECT @done AS rows_done;
END;
