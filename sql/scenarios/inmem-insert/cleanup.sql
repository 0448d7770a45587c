-- Purpose: Remove the inmem-insert scenario's objects from the lab database (procedures first: the native ones are schema-bound to the table). The MEMORY_OPTIMIZED_DATA filegroup stays: only dropping the database removes it.
-- Permission: ALTER on the dbo schema in the lab database (db_ddladmin or db_owner)
-- Parameters: none
DROP PROCEDURE IF EXISTS dbo.spinlab_inmem_insert_loop_native;
DROP PROCEDURE IF EXISTS dbo.spinlab_inmem_insert_loop_interpreted;
DROP PROCEDURE IF EXISTS dbo.spinlab_inmem_insert_native;
DROP PROCEDURE IF EXISTS dbo.spinlab_inmem_insert_interpreted;
DROP TABLE IF EXISTS dbo.spinlab_inmem_insert;
