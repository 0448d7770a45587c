-- Purpose: Deploy the ring-buffer push and pop procedures for slot numbers from the push and pop sequences, for a disk-based or memory-optimized slot table alike (interpreted T-SQL: NEXT VALUE FOR is not allowed in natively compiled modules). A push takes the next slot number and claims that slot if it is free (reference_count 0); a pop frees the next slot if it holds a message. Each gives up after 8 tries and reports 0, so a full or empty ring never spins forever.
-- Permission: CREATE PROCEDURE in the lab database (db_ddladmin or db_owner)
-- Parameters: none
CREATE PROCEDURE dbo.spinlab_ring_push
    @slots  int,
    @pushed int OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @n bigint, @slot bigint, @tries int = 0;
    SET @pushed = 0;
    WHILE @pushed = 0 AND @tries < 8
    BEGIN
        SET @n = NEXT VALUE FOR dbo.spinlab_ring_push_seq;
        SET @slot = @n % @slots;
        UPDATE dbo.spinlab_ring_slots
        SET    message_id = @n, pushed_at = SYSUTCDATETIME(), message = N'Hello world',
               reference_count = reference_count + 1
        WHERE  slot_key = (@slot % 16) * CAST(4294967296 AS bigint) + @slot / 16 AND reference_count = 0;
        SET @pushed = @@ROWCOUNT;
        SET @tries += 1;
    END;
END;
GO
CREATE PROCEDURE dbo.spinlab_ring_pop
    @slots  int,
    @popped int OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @n bigint, @slot bigint, @tries int = 0;
    SET @popped = 0;
    WHILE @popped = 0 AND @tries < 8
    BEGIN
        SET @n = NEXT VALUE FOR dbo.spinlab_ring_pop_seq;
        SET @slot = @n % @slots;
        UPDATE dbo.spinlab_ring_slots
        SET    message = N'', reference_count = 0
        WHERE  slot_key = (@slot % 16) * CAST(4294967296 AS bigint) + @slot / 16 AND reference_count = 1;
        SET @popped = @@ROWCOUNT;
        SET @tries += 1;
    END;
END;
