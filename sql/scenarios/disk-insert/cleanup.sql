-- Purpose: Remove the disk-insert scenario's objects from the lab database.
-- Permission: ALTER on the dbo schema in the lab database (db_ddladmin or db_owner)
-- Parameters: none
DROP PROCEDURE IF EXISTS dbo.spinlab_disk_insert_loop;
DROP PROCEDURE IF EXISTS dbo.spinlab_disk_insert_batch;
DROP TABLE IF EXISTS dbo.spinlab_disk_insert;
