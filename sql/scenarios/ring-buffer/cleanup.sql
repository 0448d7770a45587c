-- Purpose: Remove the ring-buffer scenario's objects from the lab database (procedures first: native ones are schema-bound to the tables).
-- Permission: ALTER on the dbo schema in the lab database (db_ddladmin or db_owner)
-- Parameters: none
DROP PROCEDURE IF EXISTS dbo.spinlab_ring_loop;
DROP PROCEDURE IF EXISTS dbo.spinlab_ring_step;
DROP PROCEDURE IF EXISTS dbo.spinlab_ring_push;
DROP PROCEDURE IF EXISTS dbo.spinlab_ring_pop;
DROP TABLE IF EXISTS dbo.spinlab_ring_slots;
DROP TABLE IF EXISTS dbo.spinlab_ring_push_ids;
DROP TABLE IF EXISTS dbo.spinlab_ring_pop_ids;
DROP SEQUENCE IF EXISTS dbo.spinlab_ring_push_seq;
DROP SEQUENCE IF EXISTS dbo.spinlab_ring_pop_seq;
