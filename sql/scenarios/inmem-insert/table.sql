-- Purpose: Deploy the inmem-insert scenario's table: a memory-optimized copy of the posts' MyBigTable with a hash primary key (@bucket_count buckets, @durability SCHEMA_AND_DATA or SCHEMA_ONLY). Needs the lab database's MEMORY_OPTIMIZED_DATA filegroup (the engine adds it first). Re-deploying starts from an empty table.
-- Permission: CREATE TABLE and CREATE PROCEDURE in the lab database (db_ddladmin or db_owner)
-- Parameters: @bucket_count int, @durability nvarchar(32)
-- Schema-bound native procedures must go before their table.
DROP PROCEDURE IF EXISTS dbo.spinlab_inmem_insert_loop_native;
DROP PROCEDURE IF EXISTS dbo.spinlab_inmem_insert_loop_interpreted;
DROP PROCEDURE IF EXISTS dbo.spinlab_inmem_insert_native;
DROP PROCEDURE IF EXISTS dbo.spinlab_inmem_insert_interpreted;
DROP TABLE IF EXISTS dbo.spinlab_inmem_insert;
IF @durability IS NULL OR @durability NOT IN (N'SCHEMA_AND_DATA', N'SCHEMA_ONLY')
    THROW 50020, N'Spinlock Lab: durability must be SCHEMA_AND_DATA or SCHEMA_ONLY.', 1;
IF @bucket_count IS NULL OR @bucket_count < 1 OR @bucket_count > 1073741824
    THROW 50021, N'Spinlock Lab: bucket_count must be between 1 and 1073741824.', 1;
-- BUCKET_COUNT and DURABILITY take no variables: the values are checked above and spliced in here.
DECLARE @ddl nvarchar(max) = N'CREATE TABLE dbo.spinlab_inmem_insert (
    c1 bigint    NOT NULL,
    c2 datetime  NULL CONSTRAINT DF_spinlab_inmem_insert_c2 DEFAULT (GETDATE()),
    c3 char(111) NULL CONSTRAINT DF_spinlab_inmem_insert_c3 DEFAULT (''a''),
    c4 int       NULL CONSTRAINT DF_spinlab_inmem_insert_c4 DEFAULT (1),
    c5 int       NULL CONSTRAINT DF_spinlab_inmem_insert_c5 DEFAULT (2),
    c6 bigint    NULL CONSTRAINT DF_spinlab_inmem_insert_c6 DEFAULT (42),
    CONSTRAINT PK_spinlab_inmem_insert PRIMARY KEY NONCLUSTERED HASH (c1)
        WITH (BUCKET_COUNT = ' + CAST(@bucket_count AS nvarchar(20)) + N')
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = ' + @durability + N');';
EXEC sys.sp_executesql @ddl;
