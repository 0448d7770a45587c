// INSERT ... SELECT into the lab's user tables, executed (tools/sim/model/exec/userInsert.ts, lazy.ts): the seed's row
// count comes from its query (TOP over a cross-join tally), not from a handler that knows the file, so a changed TOP
// or a dropped CROSS JOIN changes what the model holds, a renamed table works the same, and SQL Server's constraint
// errors come back where the model can tell.
import assert from 'node:assert/strict';
import type { ResultSet, ServerMessage, Value } from '../../tools/sim/tds/contract';
import { errorsOf as errors, labTables as lab, RING, SEED } from '../helpers/simLabTables';

const ROWS16_7 = 16 ** 7;

describe('INSERT ... SELECT into the lab tables (disk-insert/seed, ring-buffer/tables)', () => {
  it('a seed of n rows gives the table n rows: its keys -1..-n when few, counted (with a sample) when many', async () => {
    const { model, table, seed } = await lab();
    assert.deepEqual(await seed(1000n), []);
    const t = table('dbo.spinlab_disk_insert')!;
    assert.equal(t.data!.count, 1000);
    assert.equal(model.counters.table('lab', t.name).inserts, 1000);
    assert.deepEqual(
      t.data!.known.map((r) => r[0]),
      Array.from({ length: 1000 }, (_, i) => BigInt(-1 - i)),
    );
    // The defaults of the columns the INSERT leaves out (c3 char(111) pads 'a').
    assert.deepEqual(t.data!.known[0].slice(2), ['a'.padEnd(111), 1, 2, 42n]);

    const big = await lab();
    assert.deepEqual(await big.seed(16_777_216n), []);
    const b = big.table('dbo.spinlab_disk_insert')!.data!;
    assert.equal(b.count, 16_777_216);
    assert.equal(b.complete, false);
    assert.deepEqual(
      b.known.map((r) => r[0]),
      [-1n, -2n, -16_777_216n],
    );
  });

  it('the count comes from the query: TOP caps the tally of 16^7 rows; TOP removed or changed, a CROSS JOIN dropped, change it', async () => {
    const more = await lab();
    assert.deepEqual(await more.seed(BigInt(ROWS16_7) + 5n), []);
    assert.equal(more.table('dbo.spinlab_disk_insert')!.data!.count, ROWS16_7, 'TOP (n) of a product of 16^7 rows: 16^7');

    const noTop = await lab();
    assert.deepEqual(await noTop.seed(10n, SEED.batches[0].replace('TOP (@seed_rows) ', '')), []);
    assert.equal(noTop.table('dbo.spinlab_disk_insert')!.data!.count, ROWS16_7);

    const half = await lab();
    assert.deepEqual(await half.seed(1000n, SEED.batches[0].replace('TOP (@seed_rows)', 'TOP (@seed_rows / 2)')), []);
    assert.equal(half.table('dbo.spinlab_disk_insert')!.data!.count, 500);

    const fewer = await lab();
    assert.deepEqual(await fewer.seed(BigInt(ROWS16_7), SEED.batches[0].replace(' CROSS JOIN d16 AS g', '')), []);
    assert.equal(fewer.table('dbo.spinlab_disk_insert')!.data!.count, 16 ** 6);

    const none = await lab();
    assert.deepEqual(await none.seed(0n), []);
    assert.equal(none.table('dbo.spinlab_disk_insert')!.data!.count, 0);
    assert.deepEqual(await none.seed(-1n), [1060], 'a negative TOP');
  });

  it('a renamed table and column work the same: nothing knows the file', async () => {
    const { table, seed } = await lab((t) => t.replace(/spinlab_disk_insert\b/g, 'my_rows').replace(/\bc1\b/g, 'k'));
    assert.deepEqual(await seed(300n), []);
    assert.equal(table('dbo.my_rows')!.data!.count, 300);
    assert.equal(table('dbo.spinlab_disk_insert'), undefined);
  });

  it("SQL Server's errors: 2627 for keys that collide, 515 for NULL, 208, 207, 120, 544; a shape it cannot count is refused", async () => {
    const x = await lab();
    assert.deepEqual(await x.seed(100n), []);
    assert.deepEqual(await x.seed(100n), [2627], 'the same keys again');
    assert.equal(x.table('dbo.spinlab_disk_insert')!.data!.count, 100, 'the failed statement inserted nothing');
    const big = await lab();
    assert.deepEqual(await big.seed(1_000_000n), []);
    assert.deepEqual(await big.seed(1_000_000n), [2627], 'a counted seed keeps the keys it evaluated');
    const constant = SEED.batches[0].replace('SELECT -ROW_NUMBER() OVER (ORDER BY (SELECT NULL))', 'SELECT 7');
    assert.deepEqual(await (await lab()).seed(1_000_000n, constant), [2627], 'one key for every row');
    assert.deepEqual(
      await (await lab()).seed(10n, SEED.batches[0].replace('SELECT -ROW_NUMBER()', 'SELECT NULLIF(1, 1) + ROW_NUMBER()')),
      [515],
    );
    assert.deepEqual(await x.seed(1n, SEED.batches[0].replace('INTO dbo.spinlab_disk_insert', 'INTO dbo.nope')), [208]);
    assert.deepEqual(await x.seed(1n, SEED.batches[0].replace('(c1)', '(c9)')), [207]);
    assert.deepEqual(await x.seed(1n, SEED.batches[0].replace('(c1)', '(c1, c2)')), [120]);
    // A filter needs every row to count: 16^7 rows are not materialised, clearly.
    const filtered = SEED.batches[0].replace('CROSS JOIN d16 AS g)', 'CROSS JOIN d16 AS g WHERE a.n = 0)');
    const r = await x.run(filtered, new Map<string, Value>([['@seed_rows', 5n]]), SEED.parameters);
    assert.deepEqual(errors(r), [50000]);
    assert.match((r[0] as ServerMessage).message, /does not support.*a join of/);
    assert.deepEqual(errors(await x.run('CREATE TABLE dbo.ids (id bigint IDENTITY(1, 1) NOT NULL PRIMARY KEY, v int NULL);')), []);
    assert.deepEqual(errors(await x.run('INSERT INTO dbo.ids (id) VALUES (1);')), [544]);
    assert.deepEqual(errors(await x.run('INSERT INTO dbo.ids (v) SELECT n FROM (VALUES (1), (2)) AS t(n);')), []);
    assert.deepEqual(x.table('dbo.ids')!.data!.known, [
      [1n, 1],
      [2n, 2],
    ]);
  });

  it('ring-buffer/tables: validates, creates the slot table and the slot-number source, fills @slots slots', async () => {
    const p = { storage: 'disk', durability: 'SCHEMA_AND_DATA', slots: 4096, slot_source: 'sequence', sequence_cache: 0 };
    const x = await lab();
    assert.deepEqual(await x.ring(p), []);
    const slots = x.table('dbo.spinlab_ring_slots')!;
    assert.equal(slots.memoryOptimized, undefined);
    assert.equal(slots.data!.count, 4096);
    assert.equal(x.model.counters.table('lab', slots.name).inserts, 4096);
    // Slot s's key is (s % 16) * 2^32 + s / 16: neighbours 2^32 apart, every key distinct; a free slot holds nothing.
    const keys = slots.data!.known.map((r) => r[0] as bigint);
    assert.deepEqual(keys.slice(0, 3), [0n, 4294967296n, 8589934592n]);
    assert.equal(keys[16], 1n);
    assert.equal(new Set(keys).size, 4096);
    assert.deepEqual(
      slots.data!.known[5].slice(1).filter((v) => !(v instanceof Date)),
      [0n, '', 0],
    );
    assert.equal(x.table('dbo.spinlab_ring_push_seq')?.type, 'SO');
    assert.equal(x.table('dbo.spinlab_ring_push_ids'), undefined);

    // Again, memory-optimized with the identity source and many slots: the earlier objects dropped first.
    assert.deepEqual(await x.ring({ ...p, storage: 'memory', durability: 'SCHEMA_ONLY', slots: 2_000_000, slot_source: 'identity' }), []);
    const mem = x.table('dbo.spinlab_ring_slots')!;
    assert.deepEqual([mem.memoryOptimized, mem.durability, mem.data!.count], [true, 'SCHEMA_ONLY', 2_000_000]);
    assert.equal(x.table('dbo.spinlab_ring_push_seq'), undefined);
    assert.equal(x.table('dbo.spinlab_ring_pop_ids')?.meta?.identity, 'id');

    assert.deepEqual(await x.ring({ ...p, storage: 'ssd' }), [50030]);
    assert.deepEqual(await x.ring({ ...p, durability: 'NONE' }), [50031]);
    assert.deepEqual(await x.ring({ ...p, slot_source: 'guid' }), [50032]);
    assert.deepEqual(await x.ring({ ...p, slots: 15 }), [50033]);
    assert.deepEqual(await x.ring({ ...p, sequence_cache: -1 }), [50034]);
    // TOP (@slots) over the tally decides the count: changed, the table holds what the query gives.
    assert.deepEqual(await x.ring({ ...p, slots: 64 }, RING.batches[0].replace('TOP (@slots)', 'TOP (@slots / 4)')), []);
    assert.equal(x.table('dbo.spinlab_ring_slots')!.data!.count, 16);
  });

  it('ROW_NUMBER() OVER (ORDER BY ...) in a query numbers rows in its order (4108 outside the select list); SET @v op= e', async () => {
    const { run } = await lab();
    const r = await run('SELECT v, ROW_NUMBER() OVER (ORDER BY v DESC) AS n FROM (VALUES (1), (3), (2)) AS t(v);');
    assert.deepEqual((r[0] as ResultSet).rows, [
      [1, 3n],
      [3, 1n],
      [2, 2n],
    ]);
    assert.deepEqual(errors(await run('SELECT v FROM (VALUES (1)) AS t(v) WHERE ROW_NUMBER() OVER (ORDER BY v) = 1;')), [4108]);
    const set = await run('DECLARE @b bigint = 3; SET @b *= 4; SET @b -= 2; SET @b %= 7; SELECT @b;');
    assert.deepEqual((set[0] as ResultSet).rows, [[3n]]);
  });
});
