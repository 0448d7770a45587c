-- Purpose: Deploy the ring-buffer scenario's storage: drop what an earlier deploy left, create the slot table (disk-based, or memory-optimized with @durability), fill it with @slots free slots, and create the slot-number source: a push and a pop sequence (CACHE @sequence_cache, 0 = NO CACHE) or the identity-based generator (memory-optimized SCHEMA_ONLY tables read through SCOPE_IDENTITY()).
-- Permission: CREATE TABLE, CREATE SEQUENCE and ALTER on the dbo schema in the lab database (db_ddladmin or db_owner); memory-optimized objects need the lab database's MEMORY_OPTIMIZED_DATA filegroup
-- Parameters: @storage nvarchar(16), @durability nvarchar(32), @slots int, @slot_source nvarchar(16), @sequence_cache int
IF @storage IS NULL OR @storage NOT IN (N'disk', N'memory')
    THROW 50030, N'Spinlock Lab: storage must be disk or memory.', 1;
IF @durability IS NULL OR @durability NOT IN (N'SCHEMA_AND_DATA', N'SCHEMA_ONLY')
    THROW 50031, N'Spinlock Lab: durability must be SCHEMA_AND_DATA or SCHEMA_ONLY.', 1;
IF @slot_source IS NULL OR @slot_source NOT IN (N'sequence', N'identity')
    THROW 50032, N'Spinlock Lab: slot_source must be sequence or identity.', 1;
IF @slots IS NULL OR @slots < 16 OR @slots > 268435456
    THROW 50033, N'Spinlock Lab: slots must be between 16 and 268435456.', 1;
IF @sequence_cache IS NULL OR @sequence_cache < 0 OR @sequence_cache > 1000000
    THROW 50034, N'Spinlock Lab: sequence_cache must be between 0 and 1000000.', 1;

DROP PROCEDURE IF EXISTS dbo.spinlab_ring_loop;
DROP PROCEDURE IF EXISTS dbo.spinlab_ring_step;
DROP PROCEDURE IF EXISTS dbo.spinlab_ring_push;
DROP PROCEDURE IF EXISTS dbo.spinlab_ring_pop;
DROP TABLE IF EXISTS dbo.spinlab_ring_slots;
DROP TABLE IF EXISTS dbo.spinlab_ring_push_ids;
DROP TABLE IF EXISTS dbo.spinlab_ring_pop_ids;
DROP SEQUENCE IF EXISTS dbo.spinlab_ring_push_seq;
DROP SEQUENCE IF EXISTS dbo.spinlab_ring_pop_seq;

-- A slot's key spreads neighbouring slots 2^32 apart ((slot % 16) * 4294967296 + slot / 16), so consecutive pushes do
-- not all land on the last page of a disk-based B-tree.
IF @storage = N'disk'
    CREATE TABLE dbo.spinlab_ring_slots (
        slot_key        bigint        NOT NULL CONSTRAINT PK_spinlab_ring_slots PRIMARY KEY CLUSTERED,
        message_id      bigint        NOT NULL,
        pushed_at       datetime2(7)  NOT NULL,
        message         nvarchar(100) NOT NULL,
        reference_count int           NOT NULL
    );
ELSE
BEGIN
    DECLARE @buckets bigint = 1024;
    WHILE @buckets < @slots SET @buckets *= 2;   -- BUCKET_COUNT: the next power of two at or above the slot count
    DECLARE @ddl nvarchar(max) = N'CREATE TABLE dbo.spinlab_ring_slots (
        slot_key        bigint        NOT NULL CONSTRAINT PK_spinlab_ring_slots PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = '
        + CAST(@buckets AS nvarchar(20)) + N'),
        message_id      bigint        NOT NULL,
        pushed_at       datetime2(7)  NOT NULL,
        message         nvarchar(100) NOT NULL,
        reference_count int           NOT NULL
    ) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = ' + @durability + N');';
    EXEC sys.sp_executesql @ddl;
END;

WITH d16 AS (SELECT n FROM (VALUES (0),(0),(0),(0),(0),(0),(0),(0),(0),(0),(0),(0),(0),(0),(0),(0)) AS v(n)),
     tally AS (SELECT TOP (@slots) ROW_NUMBER() OVER (ORDER BY (SELECT NULL)) - 1 AS slot
               FROM d16 AS a CROSS JOIN d16 AS b CROSS JOIN d16 AS c CROSS JOIN d16 AS d
               CROSS JOIN d16 AS e CROSS JOIN d16 AS f CROSS JOIN d16 AS g)
INSERT INTO dbo.spinlab_ring_slots (slot_key, message_id, pushed_at, message, reference_count)
SELECT (slot % 16) * CAST(4294967296 AS bigint) + slot / 16, 0, SYSUTCDATETIME(), N'', 0
FROM tally;

DECLARE @sql nvarchar(max);
IF @slot_source = N'sequence'
BEGIN
    SET @sql = N'CREATE SEQUENCE dbo.spinlab_ring_push_seq AS bigint START WITH 0 INCREMENT BY 1 '
             + CASE WHEN @sequence_cache = 0 THEN N'NO CACHE' ELSE N'CACHE ' + CAST(@sequence_cache AS nvarchar(20)) END + N';';
    EXEC sys.sp_executesql @sql;
    SET @sql = REPLACE(@sql, N'spinlab_ring_push_seq', N'spinlab_ring_pop_seq');
    EXEC sys.sp_executesql @sql;
END;
ELSE
BEGIN
    -- The posts' lock- and latch-free sequence: insert a row, read SCOPE_IDENTITY(), delete it. SCHEMA_ONLY: no logging.
    -- Memory-optimized tables allow IDENTITY(1, 1) only.
    SET @sql = N'CREATE TABLE dbo.spinlab_ring_push_ids (
        id bigint IDENTITY(1, 1) NOT NULL CONSTRAINT PK_spinlab_ring_push_ids PRIMARY KEY NONCLUSTERED HASH WITH (BUCKET_COUNT = 524288)
    ) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_ONLY);';
    EXEC sys.sp_executesql @sql;
    SET @sql = REPLACE(@sql, N'push_ids', N'pop_ids');
    EXEC sys.sp_executesql @sql;
END;
