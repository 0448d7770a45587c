// The monitor's delta ticks (sql/dmv/sample-delta, sql/watch/tick-delta) through the real driver against the
// simulator on a manual clock: the text is prepared once and each tick is a short sp_execute; a tick with nothing
// moved returns no rows in the keyed sets; a tick after movement returns only the rows that moved; the rebuilt
// snapshot equals the full sample.sql / tick.sql read at the same instant on another connection; and after the
// monitor connection is dropped the next tick is a full snapshot, marked so, and rebuilds the same picture.
import assert from 'node:assert/strict';
import { withSim, SIM_PASSWORD } from '../helpers/sim-client';
import type { Simulator } from '../../tools/sim/simulator';
import { ManualClock } from '../../tools/sim/model/clock';
import { startBackground } from '../../tools/sim/model/background';
import { DbSession, num, type DbTarget, type Row } from '../../src/db/client';
import { targetFromArgs } from '../../src/cli/commands';
import { DeltaReader, SAMPLE_KEYS, WATCH_KEYS, type KeyedSets } from '../../src/engine/snapshot';

const target = (sim: Simulator): DbTarget => targetFromArgs(`Server=127.0.0.1,${sim.port};User ID=sa;Password=${SIM_PASSWORD};Encrypt=false`, {});

/** A result set as comparable text: rows sorted by their key columns, bigint strings and numbers alike. */
const line = (r: Row) => JSON.stringify(Object.entries(r).map(([k, v]) => [k, v === null ? null : v instanceof Date ? v.toISOString() : typeof v === 'boolean' ? Number(v) : String(v)]));
function canon(rows: Row[], key: readonly string[] | undefined): string[] {
  // Batch Requests/sec counts the full reader's own request too, so it is one ahead there: left out of the comparison.
  const out = rows.filter((r) => r.counter_name !== 'Batch Requests/sec').map(line);
  return key ? out.sort() : out;
}

function assertSameSets(rebuilt: Row[][], full: Row[][], keys: KeyedSets, skip: number[] = []): void {
  assert.equal(rebuilt.length, full.length, 'same number of result sets');
  rebuilt.forEach((rows, i) => {
    if (skip.includes(i)) return;
    assert.deepEqual(canon(rows, keys.get(i)), canon(full[i], keys.get(i)), `result set ${i}`);
  });
}

/** Counts the rows of each keyed set in a tick as the server sent it (marker first). */
async function rawTick(db: DbSession, reader: DeltaReader, params: Record<string, unknown>, keys: KeyedSets): Promise<{ full: boolean; sent: number[]; rows: Row[]; sets: Row[][] }> {
  const sent: number[] = [];
  const rows: Row[] = [];
  const original = db.executePrepared.bind(db);
  db.executePrepared = async (p, a) => {
    const sets = await original(p, a);
    for (const i of keys.keys()) { sent.push(sets[i + 1].length); rows.push(...sets[i + 1]); }
    return sets;
  };
  try {
    const r = await reader.read(db, params);
    return { ...r, sent, rows };
  } finally {
    db.executePrepared = original;
  }
}

const plans: { name: string; file: string; full: string; keys: KeyedSets; db: string; params: Record<string, unknown>; skip: number[] }[] = [
  { name: 'sample', file: 'dmv/sample-delta', full: 'dmv/sample', keys: SAMPLE_KEYS, db: 'master', params: { db: 'master' }, skip: [] },
  // The watch's pending I/O, requests, waiting tasks and own CPU are drawn per read (synthetic, instantaneous): not compared.
  { name: 'watch tick', file: 'watch/tick-delta', full: 'watch/tick', keys: WATCH_KEYS, db: 'master', params: { top_requests: 10, text_chars: 40 }, skip: [6, 8, 9, 10] },
];

for (const plan of plans) {
  describe(`delta ticks: ${plan.name}`, () => {
    it('returns only moved rows after the first tick, rebuilds what the full query returns, and starts again in full after a reconnect', function () {
      this.timeout(60_000);
      const clock = new ManualClock();
      return withSim({ clock }, async (sim) => {
        const stop = startBackground(sim.model, [{ scenario: 'disk-insert', sessions: 4 }]);
        const monitor = await DbSession.open(target(sim), { database: plan.db, appName: 'delta monitor' });
        const other = await DbSession.open(target(sim), { database: plan.db, appName: 'full reader' });
        try {
          const reader = new DeltaReader(plan.file, plan.keys);
          clock.advance(2000);
          const first = await rawTick(monitor, reader, plan.params, plan.keys);
          assert.equal(first.full, true, 'the first tick on a connection is a full snapshot');
          assert.ok(first.sent.some((n) => n > 0), 'the full snapshot lists rows');
          assertSameSets(first.sets, await other.runFile(plan.full, plan.params), plan.keys, plan.skip);

          // Nothing moved (the clock stood still) but the count of requests, which our own requests move: only that row.
          const still = await rawTick(monitor, reader, plan.params, plan.keys);
          assert.equal(still.full, false, 'a later tick is a delta');
          assert.deepEqual(still.rows.map((r) => r.counter_name), ['Batch Requests/sec'], 'no other keyed rows when nothing moved');
          assertSameSets(still.sets, await other.runFile(plan.full, plan.params), plan.keys, plan.skip);

          // A second of workload: only the rows that moved come back; the rest keep their last values.
          clock.advance(1000);
          const before = still.sets;
          const moved = await rawTick(monitor, reader, plan.params, plan.keys);
          const full = await other.runFile(plan.full, plan.params);
          assert.equal(moved.full, false);
          assert.ok(moved.sent.some((n) => n > 0), 'some rows moved');
          const total = [...plan.keys.keys()].reduce((a, i) => a + full[i].length, 0);
          assert.ok(moved.sent.reduce((a, b) => a + b, 0) < total, `fewer rows sent (${moved.sent.join('+')}) than the full query lists (${total})`);
          for (const [i, key] of plan.keys) {
            const prev = new Map(before[i].map((r) => [key.map((k) => String(r[k])).join('|'), line(r)]));
            const changed = moved.sets[i].filter((r) => prev.get(key.map((k) => String(r[k])).join('|')) !== line(r)).length;
            assert.equal(changed, moved.sent[[...plan.keys.keys()].indexOf(i)], `set ${i}: the rows sent are exactly the rows that changed`);
          }
          assertSameSets(moved.sets, full, plan.keys, plan.skip);

          // The monitor connection dropped: the pool opens a new one; the next tick is full again and rebuilds the same.
          const spid = sim.server.sessions().find((s) => s.appName === 'delta monitor')!.spid;
          assert.ok(sim.faults.dropSession(spid));
          await new Promise((r) => setTimeout(r, 50));
          clock.advance(1000);
          const again = await rawTick(monitor, reader, plan.params, plan.keys);
          assert.equal(again.full, true, 'after a reconnect the tick is marked full');
          assertSameSets(again.sets, await other.runFile(plan.full, plan.params), plan.keys, plan.skip);
          const next = await rawTick(monitor, reader, plan.params, plan.keys);
          assert.equal(next.full, false, 'and the one after is a delta again');
          assert.deepEqual(next.rows.map((r) => r.counter_name), ['Batch Requests/sec']);
        } finally {
          stop();
          await monitor.close();
          await other.close();
        }
      });
    });
  });
}

it('the #temp snapshot tables belong to the session: a second CREATE is refused with Msg 2714, another session has none (Msg 208)', function () {
  this.timeout(30_000);
  return withSim({}, async (sim) => {
    const a = await DbSession.open(target(sim), { database: 'master' });
    const b = await DbSession.open(target(sim), { database: 'master' });
    try {
      await a.runFile('dmv/snapshot-setup');
      const p = await a.prepare('dmv/sample-delta');
      const sets = await a.executePrepared(p, { db: 'master' });
      assert.equal(num(sets[0][0].ticks_kept), 0);
      const ad = await a.rpcChannel();
      try {
        await assert.rejects(ad.exec('CREATE TABLE #spinlab_tick (n int NOT NULL);', []), (e: Error & { number?: number }) => e.number === 2714);
        await ad.exec('DROP TABLE #spinlab_tick;', []);
        await assert.rejects(ad.exec('DROP TABLE #spinlab_tick;', []), (e: Error & { number?: number }) => e.number === 3701);
      } finally {
        ad.release();
      }
      await a.runFile('dmv/snapshot-setup'); // runs again on the same connection: it drops what it creates first
      await assert.rejects(b.prepare('dmv/sample-delta').then((q) => b.executePrepared(q, { db: 'master' })), (e: Error & { number?: number }) => e.number === 208 || e.number === 8179);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
