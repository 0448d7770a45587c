-- Purpose: Deploy the disk-insert scenario into the lab database: the posts' MyBigTable shape (bigint clustered key, datetime, char(111), int, int, bigint, with their defaults) and the procedures that insert into it, N rows per transaction. Re-deploying starts from an empty table.
-- Permission: CREATE TABLE and CREATE PROCEDURE in the lab database (db_ddladmin or db_owner)
-- Parameters: none
DROP PROCEDURE IF EXISTS dbo.spinlab_disk_insert_loop;
DROP PROCEDURE IF EXISTS dbo.spinlab_disk_insert_batch;
DROP TABLE IF EXISTS dbo.spinlab_disk_insert;
CREATE TABLE dbo.spinlab_disk_insert (
    c1 bigint    NOT NULL,
    c2 datetime  NULL CONSTRAINT DF_spinlab_disk_insert_c2 DEFAULT (GETDATE()),
    c3 char(111) NULL CONSTRAINT DF_spinlab_disk_insert_c3 DEFAULT ('a'),
    c4 int       NULL CONSTRAINT DF_spinlab_disk_insert_c4 DEFAULT (1),
    c5 int       NULL CONSTRAINT DF_spinlab_disk_insert_c5 DEFAULT (2),
    c6 bigint    NULL CONSTRAINT DF_spinlab_disk_insert_c6 DEFAULT (42),
    CONSTRAINT PK_spinlab_disk_insert PRIMARY KEY CLUSTERED (c1)
        WITH (ALLOW_ROW_LOCKS = ON, ALLOW_PAGE_LOCKS = OFF)
);
GO
-- One transaction of @batch_size single-row inserts: what the client loop calls, once per round trip.
CREATE PROCEDURE dbo.spinlab_disk_insert_batch
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
        INSERT INTO dbo.spinlab_disk_insert (c1) VALUES (@key_base + @offset + @j);
        SET @j += 1;
    END;
    COMMIT TRANSACTION;
END;
GO
-- The server loop (one EXEC per session, as ostress runs the posts' procedure): transactions of @batch_size rows
-- until @rows rows or @run_ms milliseconds, whichever is given; returns the rows it inserted.
CREATE PROCEDURE dbo.spinlab_disk_insert_loop
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
            INSERT INTO dbo.spinlab_disk_insert (c1) VALUES (@key_base + @done + @j);
            SET @j += 1;
        END;
        COMMIT TRANSACTION;
        SET @done += @batch_size;
    END;
    SELECT @done AS rows_done;
END;
