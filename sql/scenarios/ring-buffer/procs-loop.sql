-- Purpose: Deploy the ring-buffer step and loop procedures: a step pushes one message (and pops one in push-pop mode) and returns the slot operations it made; the loop repeats steps until @rows operations or @run_ms milliseconds. In push mode a full ring is an error that says what to change; a write conflict on memory-optimized slots (Microsoft Learn: "Transactions with Memory-Optimized Tables", error 41302 and its kin) is a try with no slot operation.
-- Permission: CREATE PROCEDURE in the lab database (db_ddladmin or db_owner)
-- Parameters: none
CREATE PROCEDURE dbo.spinlab_ring_step
    @slots int,
    @mode  nvarchar(16),
    @ops   int = 0 OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @pushed int = 0, @popped int = 0, @conflict bit = 0;
    -- Memory-optimized slots: two sessions updating one row is a write conflict (41302; 41305, 41325 validation,
    -- 41301 dependency, 41839 too many dependencies), which fails that transaction only. It counts as a try that
    -- made no slot operation, not as a full ring; anything else is raised.
    BEGIN TRY
        EXEC dbo.spinlab_ring_push @slots = @slots, @pushed = @pushed OUTPUT;
    END TRY
    BEGIN CATCH
        IF ERROR_NUMBER() NOT IN (41302, 41305, 41325, 41301, 41839) THROW;
        SELECT @pushed = 0, @conflict = 1;
    END CATCH;
    IF @pushed = 0 AND @conflict = 0 AND @mode = N'push'
        THROW 50035, N'Spinlock Lab: the ring buffer is full (every slot holds a message). Deploy with more slots, or run in push-pop mode.', 1;
    IF @mode = N'push-pop'
    BEGIN
        BEGIN TRY
            EXEC dbo.spinlab_ring_pop @slots = @slots, @popped = @popped OUTPUT;
        END TRY
        BEGIN CATCH
            IF ERROR_NUMBER() NOT IN (41302, 41305, 41325, 41301, 41839) THROW;
            SET @popped = 0;
        END CATCH;
    END;
    SET @ops = @pushed + @popped;
END;
GO
CREATE PROCEDURE dbo.spinlab_ring_loop
    @rows   bigint,
    @run_ms int,
    @slots  int,
    @mode   nvarchar(16)
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @done bigint = 0, @ops int,
            @stop datetime2(3) = CASE WHEN @run_ms IS NULL THEN NULL ELSE DATEADD(millisecond, @run_ms, SYSUTCDATETIME()) END;
    WHILE (@rows IS NULL OR @done < @rows) AND (@stop IS NULL OR SYSUTCDATETIME() < @stop)
    BEGIN
        EXEC dbo.spinlab_ring_step @slots = @slots, @mode = @mode, @ops = @ops OUTPUT;
        SET @done += @ops;
    END;
    SELECT @done AS rows_done;
END;
