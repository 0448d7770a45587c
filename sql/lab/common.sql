-- Purpose: Objects every scenario shares, in the lab database: the sequence that hands each workload session its own block of keys, so runs never collide with each other or with earlier runs.
-- Permission: CREATE SEQUENCE in the lab database (db_ddladmin or db_owner)
-- Parameters: none
IF OBJECT_ID(N'dbo.spinlab_key_block', N'SO') IS NULL
    CREATE SEQUENCE dbo.spinlab_key_block AS bigint START WITH 1 INCREMENT BY 1 NO CACHE;
