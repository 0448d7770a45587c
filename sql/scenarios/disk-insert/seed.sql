-- Purpose: Pre-seed the disk-insert table with @seed_rows rows, as the posts do (they use 16M) so inserts land in a populated B-tree. The keys are -1, -2, ... -@seed_rows: unique (random 62-bit keys could collide, about 0.1% of the time at 100M rows, and fail the deploy with Msg 2627) and negative, so they never meet the workload's positive key blocks.
-- Permission: INSERT on dbo.spinlab_disk_insert (db_datawriter or owner)
-- Parameters: @seed_rows bigint
WITH d16 AS (SELECT n FROM (VALUES (0),(0),(0),(0),(0),(0),(0),(0),(0),(0),(0),(0),(0),(0),(0),(0)) AS v(n)),
     tally AS (SELECT TOP (@seed_rows) 1 AS one
               FROM d16 AS a CROSS JOIN d16 AS b CROSS JOIN d16 AS c CROSS JOIN d16 AS d
               CROSS JOIN d16 AS e CROSS JOIN d16 AS f CROSS JOIN d16 AS g)
INSERT INTO dbo.spinlab_disk_insert WITH (TABLOCK) (c1)
SELECT -ROW_NUMBER() OVER (ORDER BY (SELECT NULL))
FROM tally;
