// The monitor's delta ticks (sql/dmv/sample-delta, sql/watch/tick-delta) through the real driver against the
// simulator on a manual clock: the text is prepared once and each tick is a short sp_execute; a tick with nothing
// moved returns no rows in the keyed sets; a tick after movement returns only the rows that moved; the rebuilt
// snapshot equals the full sample.sql / tick.sql read at the same instant on another connection; and after the
// monitor connection is dropped the next tick is a full snapshot, marked so, and rebuilds the same picture.
import assert from 'node:assert/strict';
import { connect, withSim } from '../helpers/simClient';
import { ManualClock } from '../../tools/sim/model/clock';
import { startBackground } from '../../tools/sim/model/background';
import { DbSession } from '../../src/db/client';
import { num, type Row } from '../../src/db/rows';
import { DeltaReader, SAMPLE_LAYOUT, WATCH_LAYOUT, type DeltaLayout } from '../../src/engine/snapshot';
import { parseMonitor } from '../../src/engine/sampleRows';
import { targetFor } from '../helpers/simTarget';

/** A result set as comparable text: rows sorted when the set is keyed, bigint strings and numbers alike. */
const line = (r: Row) =>
  JSON.stringify(
    Object.entries(r)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => [k, v === null ? null : v instanceof Date ? v.toISOString() : typeof v === 'boolean' ? Number(v) : String(v)]),
  );
function canon(rows: Row[], keyed: boolean): string[] {
  // Batch Requests/sec counts the full reader's own request too, so it is one ahead there: left out of the comparison.
  // So is a scheduler's CPU, which the readers' own batches add to (as on SQL Server): compared on its own below.
  const out = rows
    .filter((r) => r.counter_name !== 'Batch Requests/sec')
    .map((r) => line('total_cpu_usage_ms' in r ? { ...r, total_cpu_usage_ms: null } : r));
  return keyed ? out.sort() : out;
}

/** Each scheduler's CPU in the rebuilt set: at most the full read's, which is later by the readers' own few batches. */
function assertSchedulerCpu(rebuilt: Row[], full: Row[]): void {
  const cpu = (rows: Row[]) => new Map(rows.map((r) => [String(r.scheduler_id), Number(r.total_cpu_usage_ms)]));
  const later = cpu(full);
  for (const [id, ms] of cpu(rebuilt)) {
    const f = later.get(id) ?? NaN;
    assert.ok(f >= ms && f - ms <= 250, `scheduler ${id}: rebuilt ${ms} ms, full read ${f} ms`);
  }
}

/** The full sets a layout rebuilds from keyed parts. */
const keyedTargets = (layout: DeltaLayout) => new Set(layout.filter((p) => p.key).map((p) => p.target));

/** The delta file returns the full file's sets, then `extra` sets of the monitor's own cost (not in the full file). */
function assertSameSets(all: Row[][], full: Row[][], layout: DeltaLayout, skip: number[] = [], extra = 0): void {
  assert.equal(all.length, full.length + extra, "the full file's result sets and the monitor's cost");
  const rebuilt = all.slice(0, full.length);
  const keyed = keyedTargets(layout);
  rebuilt.forEach((rows, i) => {
    if (skip.includes(i)) return;
    assert.deepEqual(canon(rows, keyed.has(i)), canon(full[i], keyed.has(i)), `result set ${i}`);
    if (rows.some((r) => 'total_cpu_usage_ms' in r)) assertSchedulerCpu(rows, full[i]);
  });
}

/** Per keyed full set, the distinct keys the server sent for it this tick (over its parts), and all rows sent. */
interface Raw {
  full: boolean;
  keysSent: Map<number, Set<string>>;
  rows: Row[];
  sets: Row[][];
}
async function rawTick(db: DbSession, reader: DeltaReader, params: Record<string, unknown>, layout: DeltaLayout): Promise<Raw> {
  const keysSent = new Map<number, Set<string>>();
  const rows: Row[] = [];
  const original = db.executePrepared.bind(db);
  db.executePrepared = async (p, a) => {
    const sets = await original(p, a);
    layout.forEach((part, i) => {
      if (!part.key) return;
      const keys = keysSent.get(part.target) ?? new Set<string>();
      keysSent.set(part.target, keys);
      // The key as the file sends it: under its short alias where the part has one.
      const sentAs = part.key.map((c) => Object.entries(part.as ?? {}).find(([, full]) => full === c)?.[0] ?? c);
      for (const r of sets[i + 1]) {
        keys.add(sentAs.map((c) => String(r[c])).join('|'));
        rows.push(r);
      }
    });
    return sets;
  };
  try {
    const r = await reader.read(db, params);
    return { ...r, keysSent, rows };
  } finally {
    db.executePrepared = original;
  }
}
const sentCount = (r: Raw) => [...r.keysSent.values()].reduce((a, k) => a + k.size, 0);

/** Rows of the keyed sets that differ between two rebuilt ticks, by their full-set index. */
function changedRows(before: Row[][], after: Row[][], layout: DeltaLayout): Map<number, Row[]> {
  const out = new Map<number, Row[]>();
  for (const t of keyedTargets(layout)) {
    const prev = new Set(before[t].map(line));
    out.set(
      t,
      after[t].filter((r) => !prev.has(line(r))),
    );
  }
  return out;
}

const plans: {
  name: string;
  file: string;
  full: string;
  layout: DeltaLayout;
  db: string;
  params: Record<string, unknown>;
  skip: number[];
  extra: number;
  /** The rebuilt sets of the monitor's own session row and the compilation counters (parseMonitor's input). */
  monitor: [number, number];
}[] = [
  {
    name: 'sample',
    file: 'dmv/sample-delta',
    full: 'dmv/sample',
    layout: SAMPLE_LAYOUT,
    db: 'master',
    params: { db: 'master', db_physical: null },
    skip: [],
    extra: 1,
    monitor: [9, 10],
  },
  // The watch's pending I/O, requests, waiting tasks and own CPU are drawn per read (synthetic, instantaneous): not compared.
  {
    name: 'watch tick',
    file: 'watch/tick-delta',
    full: 'watch/tick',
    layout: WATCH_LAYOUT,
    db: 'master',
    params: { top_requests: 10, text_chars: 40 },
    skip: [6, 8, 9, 10],
    extra: 1,
    monitor: [10, 11],
  },
];

for (const plan of plans) {
  describe(`delta ticks: ${plan.name}`, () => {
    it('returns only moved rows after the first tick, rebuilds what the full query returns, and starts again in full after a reconnect', function () {
      this.timeout(60_000);
      const clock = new ManualClock();
      return withSim({ clock }, async (sim) => {
        const stop = startBackground(sim.model, [{ scenario: 'disk-insert', sessions: 4 }]);
        const monitor = await DbSession.open(targetFor(sim), { database: plan.db, appName: 'delta monitor' });
        const other = await DbSession.open(targetFor(sim), { database: plan.db, appName: 'full reader' });
        try {
          const reader = new DeltaReader(plan.file, plan.layout, plan.full, (m) => assert.fail(`fell back to the full file: ${m}`));
          clock.advance(2000);
          const first = await rawTick(monitor, reader, plan.params, plan.layout);
          assert.equal(first.full, true, 'the first tick on a connection is a full snapshot');
          assert.ok(
            first.rows.some((r) => typeof r.n === 'string'),
            'the full snapshot sends the names (as n, by key k)',
          );
          assertSameSets(first.sets, await other.runFile(plan.full, plan.params), plan.layout, plan.skip, plan.extra);
          // The monitor's own cost, sent under short aliases: read back under the names parseMonitor knows (the sample's
          // compilation counters as columns of its own row, the watch's as rows of their own).
          const [own, compiles] = [first.sets[plan.monitor[0]], first.sets[plan.monitor[1]] ?? []];
          const ownColumns = ['cpu_time', 'logical_reads', 'reads', 'total_scheduled_time', 'writes'];
          const counterColumns = compiles.length ? [] : ['sql_compilations', 'sql_recompilations'];
          assert.deepEqual(Object.keys(own[0] ?? {}).sort(), [...ownColumns, ...counterColumns].sort());
          if (plan.name === 'sample') assert.equal(compiles.length, 0, 'no set of compilation rows: they are columns');
          else {
            assert.deepEqual(compiles.map((r) => Object.keys(r).sort().join(',') + `:${String(r.counter_name)}`).sort(), [
              'cntr_value,counter_name:SQL Compilations/sec',
              'cntr_value,counter_name:SQL Re-Compilations/sec',
            ]);
          }
          const m = parseMonitor(own, compiles);
          assert.ok(m, "the monitor's own session row");
          for (const [k, v] of Object.entries(m)) assert.ok(typeof v === 'number' && Number.isFinite(v), `monitor ${k}: ${v}`);

          // Nothing moved (the clock stood still) but what our own requests move, as on SQL Server: the count of
          // requests, and the CPU of the schedulers the two readers' sessions ran on. Only those rows are sent.
          const still = await rawTick(monitor, reader, plan.params, plan.layout);
          assert.equal(still.full, false, 'a later tick is a delta');
          const changed = [...changedRows(first.sets, still.sets, plan.layout).values()].flat();
          assert.deepEqual(
            changed.filter((r) => !('scheduler_id' in r)).map((r) => r.counter_name),
            ['Batch Requests/sec'],
          );
          assert.ok(changed.filter((r) => 'scheduler_id' in r).length <= 2, "at most the two readers' schedulers");
          assert.equal(sentCount(still), changed.length, 'only the rows that moved are sent');
          assert.ok(
            still.rows.every((r) => !('n' in r) && !('o' in r)),
            'a name already sent is not sent again',
          );
          assertSameSets(still.sets, await other.runFile(plan.full, plan.params), plan.layout, plan.skip, plan.extra);

          // A second of workload: only the rows that moved come back; the rest keep their last values.
          clock.advance(1000);
          const before = still.sets;
          const moved = await rawTick(monitor, reader, plan.params, plan.layout);
          const full = await other.runFile(plan.full, plan.params);
          assert.equal(moved.full, false);
          assert.ok(sentCount(moved) > 0, 'some rows moved');
          const total = [...keyedTargets(plan.layout)].reduce((a, i) => a + full[i].length, 0);
          assert.ok(sentCount(moved) < total, `fewer rows sent (${sentCount(moved)}) than the full query lists (${total})`);
          for (const [t, rows] of changedRows(before, moved.sets, plan.layout)) {
            assert.equal(rows.length, moved.keysSent.get(t)?.size ?? 0, `set ${t}: the rows sent are exactly the rows that changed`);
          }
          assertSameSets(moved.sets, full, plan.layout, plan.skip, plan.extra);

          // The monitor connection dropped: the pool opens a new one; the next tick is full again and rebuilds the same.
          const spid = sim.server.sessions().find((s) => s.appName === 'delta monitor')!.spid;
          assert.ok(sim.faults.dropSession(spid));
          await new Promise((r) => setTimeout(r, 50));
          clock.advance(1000);
          const again = await rawTick(monitor, reader, plan.params, plan.layout);
          assert.equal(again.full, true, 'after a reconnect the tick is marked full');
          assertSameSets(again.sets, await other.runFile(plan.full, plan.params), plan.layout, plan.skip, plan.extra);
          const next = await rawTick(monitor, reader, plan.params, plan.layout);
          assert.equal(next.full, false, 'and the one after is a delta again');
          // Again only what the readers' own requests moved: the request count and at most their two schedulers.
          const nextChanged = [...changedRows(again.sets, next.sets, plan.layout).values()].flat();
          assert.equal(sentCount(next), nextChanged.length);
          assert.ok(nextChanged.length >= 1 && nextChanged.length <= 3, `${nextChanged.length} rows moved`);
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
    const a = await DbSession.open(targetFor(sim), { database: 'master' });
    const b = await DbSession.open(targetFor(sim), { database: 'master' });
    try {
      await a.runFile('dmv/snapshot-setup');
      const p = await a.prepare('dmv/sample-delta');
      const sets = await a.executePrepared(p, { db: 'master', db_physical: null });
      assert.equal(num(sets[0][0].ticks_kept), 0);
      const ad = await a.rpcChannel();
      try {
        await assert.rejects(
          ad.exec('CREATE TABLE #spinlab_tick (n int NOT NULL);', []),
          (e: Error & { number?: number }) => e.number === 2714,
        );
        await ad.exec('DROP TABLE #spinlab_tick;', []);
        await assert.rejects(ad.exec('DROP TABLE #spinlab_tick;', []), (e: Error & { number?: number }) => e.number === 3701);
      } finally {
        ad.release();
      }
      await a.runFile('dmv/snapshot-setup'); // runs again on the same connection: it drops what it creates first
      await assert.rejects(
        b.prepare('dmv/sample-delta').then((q) => b.executePrepared(q, { db: 'master', db_physical: null })),
        (e: Error & { number?: number }) => e.number === 208 || e.number === 8179,
      );
    } finally {
      await a.close();
      await b.close();
    }
  });
});

it('the simulator hashes names as SQL Server does: HASHBYTES SHA2_256 (FIPS 180-2 vector), SUBSTRING of bytes, binary read big-endian as int', function () {
  this.timeout(30_000);
  return withSim({}, async (sim) => {
    const pool = await connect(sim, 'sa');
    try {
      {
        const r = (
          await pool.request()
            .query(`SELECT HASHBYTES('SHA2_256', 'abc') AS h, CAST(SUBSTRING(HASHBYTES('SHA2_256', 'abc'), 1, 4) AS int) AS k,
          HASHBYTES('SHA2_256', N'abc') AS u, SUBSTRING('spinlock', 0, 3) AS s;`)
        ).recordset[0];
        assert.equal((r.h as Buffer).toString('hex'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
        assert.equal(r.k, 0xba7816bf | 0, 'the first four bytes, big-endian, signed');
        assert.notEqual(
          (r.u as Buffer).toString('hex'),
          (r.h as Buffer).toString('hex'),
          'nvarchar is hashed as UTF-16LE, not as the varchar bytes',
        );
        assert.equal(r.s, 'sp', 'SUBSTRING from 0 for 3 gives the first 2 characters');
        await assert.rejects(pool.request().query(`SELECT HASHBYTES('SHA3_256', 'abc') AS h;`), /does not compute HASHBYTES/);
      }
    } finally {
      await pool.close();
    }
  });
});
