-- Purpose: Pre-seed the disk-insert table with @seed_rows rows of random keys, as the posts do (they use 16M) so inserts land in a populated B-tree. The keys are negative, so they never collide with the workload's positive key blocks.
-- Permission: INSERT on dbo.spinlab_disk_insert (db_datawriter or owner)
-- Parameters: @seed_rows bigint
WITH d16 AS (SELECT n FROM (VALUES (0),(0),(0),(0),(0),(0),(0),(0),(0),(0),(0),(0),(0),(0),(0),(0)) AS v(n)),
     tally AS (SELECT TOP (@seed_rows) 1 AS one
               FROM d16 AS a CROSS JOIN d16 AS b CROSS JOIN d16 AS c CROSS JOIN d16 AS d
               CROSS JOIN d16 AS e CROSS JOIN d16 AS f CROSS JOIN d16 AS g)
INSERT INTO dbo.spinlab_disk_insert WITH (TABLOCK) (c1)
SELECT -1 - (CAST(CRYPT_GEN_RANDOM(8) AS bigint) & CAST(0x3FFFFFFFFFFFFFFF AS bigint))
FROM tally;
