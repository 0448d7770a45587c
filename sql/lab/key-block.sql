-- Purpose: Reserve one key block for a workload session: its keys are block * 10000000000 onwards (the posts' @@SPID * 10000000000, made unique across runs). Called once per session when it connects, before any warm-up or baseline sample: the NO CACHE sequence writes metadata on every draw, which must not land in a measured window.
-- Permission: UPDATE on dbo.spinlab_key_block (db_datawriter or owner)
-- Parameters: none
SELECT NEXT VALUE FOR dbo.spinlab_key_block AS key_block;
