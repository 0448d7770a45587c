// The watch's pure parts and the simulator's side of it: the bounded history over 8 hours of ticks fed at full speed
// (memory flat), the top-N cut, the windows around a mark, the diagnosis thresholds, marks read as they are appended,
// --background parsing and the tick handler's column check.
import assert from 'node:assert/strict';
import { EXPERIMENT_SCHEMA_VERSION } from '../../src/shared/experiment';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { WatchHistory, mergePoints, pointOf } from '../../src/engine/watch/history';
import { dropMark, readNewMarks, MARKS_FILE } from '../../src/engine/watch/marks';
import { boundTick, type WatchTick } from '../../src/shared/watch';
import { compareWindows, windowFigures, windowsAroundMark } from '../../src/shared/watchCompare';
import { diagnoseWatch, XDESMGR_SPINS_PER_TXN } from '../../src/shared/watchDiagnosis';
import { emptyRunTotals, addTickToTotals } from '../../src/shared/analysis';
import { parseBackground } from '../../tools/sim/model/background';
import { executeBatch } from '../../tools/sim/model/exec/batch';
import { SimModel } from '../../tools/sim/model/instance';
import { loadSqlFile } from '../../src/db/sqlFiles';
import type { BatchCall } from '../../tools/sim/model/batchCall';
import { migrateExperiment, migrateWatch, NotebookError } from '../../src/engine/migrate';
import { WatchModel, WATCH_SCREEN_TICKS } from '../../src/webview/model/watchRun';

const SPINS = [
  'LOGCACHE_ACCESS',
  'XDESMGR',
  'LOGFLUSHQ',
  'SOS_CACHESTORE',
  'LOCK_HASH',
  'SOS_SCHEDULER',
  'SOS_SUSPEND_QUEUE',
  'BLOCKER_ENUM',
];

/** A tick as a busy server gives one: 8 spinlocks, 20 waits, 10 requests with text. */
function tick(i: number, over: { xdesmgr?: number; txns?: number; writelogMs?: number; pendingLogIo?: number } = {}): WatchTick {
  const spinlocks = Object.fromEntries(
    SPINS.map((n, k) => [n, { spins: 1000 * (k + 1) + (i % 7), collisions: 10 * (k + 1), backoffs: k, sleepTime: 0 }]),
  );
  if (over.xdesmgr !== undefined) spinlocks.XDESMGR = { spins: over.xdesmgr, collisions: 10, backoffs: 1, sleepTime: 0 };
  const waits: WatchTick['waits'] = Object.fromEntries(
    Array.from({ length: 20 }, (_, k) => [`WAIT_${k}`, { waitMs: k + (i % 3), count: k + 1, signalMs: 0 }]),
  );
  waits.WRITELOG = { waitMs: over.writelogMs ?? 50, count: 100, signalMs: 1 };
  const t: WatchTick = {
    t: (i + 1) * 1000,
    intervalMs: 1000,
    rows: 0,
    rowsPerSec: 0,
    transactions: over.txns ?? 100,
    transactionsPerSec: over.txns ?? 100,
    writeTransactionsPerSec: 100,
    batchRequestsPerSec: 500,
    spinlocks,
    waits,
    latches: { BUFFER: { waitMs: 3, count: 9 } },
    log: {
      flushes: 100,
      bytesFlushed: 1e6,
      flushesPerSec: 100,
      bytesFlushedPerSec: 1e6,
      flushWaitsPerSec: 100,
      flushWaitTimeMs: 40,
      avgWriteStallMs: 0.4,
    },
    pendingLogIo: over.pendingLogIo ?? 1,
    cpuByNode: { 0: 40, 1: 60 },
    cpuMs: 1000,
    onlineSchedulers: 8,
    runnableTasks: 2,
    all: { spins: 0, backoffs: 0, collisions: 0, waitMs: 0, waitCount: 0, latchMs: 3, latchCount: 9 },
    logByDb: { Sales: { transactions: 100, flushes: 100, bytesFlushed: 1e6, flushWaitTimeMs: 40, writes: 100, avgWriteStallMs: 0.4 } },
    cpuByScheduler: Object.fromEntries(Array.from({ length: 8 }, (_, k) => [String(k), 50])),
    pendingIo: 2,
    requests: Array.from({ length: 10 }, (_, k) => ({
      sessionId: 60 + k,
      status: 'suspended',
      command: 'INSERT',
      database: 'Sales',
      waitType: 'WRITELOG',
      waitMs: k,
      lastWaitType: 'WRITELOG',
      blockingSessionId: 0,
      schedulerId: k,
      nodeId: k % 2,
      cpuMs: 5,
      elapsedMs: 9,
      queryHash: '0x0123456789ABCDEF',
      text: `INSERT INTO dbo.Orders (a, b) VALUES (@a, @b) -- tick ${i}`,
    })),
    waitingNow: [{ waitType: 'WRITELOG', tasks: 7, maxWaitMs: 3, totalWaitMs: 9 }],
  };
  t.all.spins = Object.values(spinlocks).reduce((a, s) => a + s.spins, 0);
  return t;
}

describe('watch: memory over hours', () => {
  it('8 hours of 1 s ticks fed at full speed: window and history stay bounded and the heap stays flat', function () {
    this.timeout(120_000);
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const h = new WatchHistory(600, 1200);
    const heapAfter = (n: number, from: number) => {
      for (let i = from; i < n; i++) h.add(tick(i));
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const oneHour = heapAfter(3600, 0);
    const eightHours = heapAfter(8 * 3600, 3600);
    assert.equal(h.ticks, 8 * 3600);
    assert.equal(h.window().length, 600, 'full resolution only for the window on screen');
    assert.ok(h.history().length <= 1200, `downsampled history bounded: ${h.history().length}`);
    assert.ok(h.ticksPerPoint >= 16, 'each point covers more ticks as the watch grows');
    assert.equal(Object.keys(h.totals.spinlocks).length, SPINS.length);
    const growthMb = (eightHours - oneHour) / 1024 / 1024;
    assert.ok(growthMb < 4, `heap grew ${growthMb.toFixed(2)} MB from hour 1 to hour 8`);
  });

  it('a watch (maxPoints 0) keeps its window and totals but no downsampled points', () => {
    const h = new WatchHistory(60, 0);
    for (let i = 0; i < 500; i++) h.add(tick(i));
    assert.equal(h.ticks, 500);
    assert.equal(h.window().length, 60);
    assert.equal(h.window().at(-1)!.t, tick(499).t);
    assert.deepEqual(h.history(), []);
    assert.equal(Object.keys(h.totals.spinlocks).length, SPINS.length);
    assert.throws(() => new WatchHistory(60, 3), RangeError);
  });

  it('merging two points weights each by the time it covers', () => {
    const a = { ...pointOf(tick(0)), spinsPerSec: 100, intervalMs: 1000 };
    const b = { ...pointOf(tick(1)), spinsPerSec: 400, intervalMs: 3000 };
    const m = mergePoints(a, b);
    assert.equal(m.intervalMs, 4000);
    assert.equal(m.spinsPerSec, 325);
    assert.equal(m.t, b.t);
  });
});

describe('watch: ticks, windows, diagnosis', () => {
  it('boundTick keeps the top N by spins and by backoffs, non-benign waits first, and the totals of everything', () => {
    const t = tick(0);
    t.waits.SLEEP_TASK = { waitMs: 1e6, count: 5, signalMs: 0 };
    const b = boundTick(t, 3);
    assert.deepEqual(Object.keys(b.spinlocks).sort(), ['BLOCKER_ENUM', 'SOS_SCHEDULER', 'SOS_SUSPEND_QUEUE'].sort());
    assert.ok(b.waits.WRITELOG && b.waits.SLEEP_TASK, 'benign kept apart, for when they are asked for');
    assert.equal(Object.keys(b.waits).filter((k) => k !== 'SLEEP_TASK').length, 3);
    assert.equal(
      b.all.spins,
      Object.values(t.spinlocks).reduce((a, s) => a + s.spins, 0),
    );
    assert.ok(!('SLEEP_TASK' in b.all), 'benign waits are not in the wait total');
    assert.equal(
      b.all.waitMs,
      Object.entries(t.waits)
        .filter(([k]) => k !== 'SLEEP_TASK')
        .reduce((a, [, w]) => a + w.waitMs, 0),
    );
  });

  it("the windows around a mark leave out the tick it fell in and compare in the experiments' words", () => {
    const ticks = Array.from({ length: 20 }, (_, i) => tick(i, { writelogMs: i < 10 ? 50 : 500 }));
    const mark = { id: 'm1', name: 'index rebuilt', t: ticks[9].t, at: '' };
    const [before, after] = windowsAroundMark(ticks, [mark], mark, null);
    assert.equal(before.length, 9);
    assert.equal(after.length, 10);
    const c = compareWindows(windowFigures('before the mark', before), windowFigures('after the mark', after));
    const wl = c.figures.find((f) => f.key === 'waitMsPerSec:WRITELOG')!;
    assert.equal(wl.a, 50);
    assert.equal(wl.b, 500);
    assert.ok(
      c.summary.some((s) => s === 'WRITELOG wait 10.0x higher after the mark (500 vs 50 ms/s).'),
      c.summary.join(' | '),
    );
  });

  it('a name far below the leader of its kind stays in the table but out of the summary', () => {
    const before = Array.from({ length: 5 }, (_, i) => tick(i));
    const after = Array.from({ length: 5 }, (_, i) => {
      const t = tick(i + 6);
      t.spinlocks.SOS_TINY = { spins: 1, collisions: 1, backoffs: 1, sleepTime: 0 };
      return t;
    });
    const c = compareWindows(windowFigures('before the mark', before), windowFigures('after the mark', after), 20);
    assert.ok(
      c.figures.some((f) => f.key === 'spinsPerSec:SOS_TINY'),
      'in the table',
    );
    assert.ok(!c.summary.some((s) => s.includes('SOS_TINY')), c.summary.join(' | '));
    assert.ok(!c.summary.some((s) => s.includes('backoffs')), 'backoffs are left to the table');
  });

  it('XDESMGR per transaction is named at its threshold and not below it', () => {
    const at = [tick(0, { xdesmgr: XDESMGR_SPINS_PER_TXN * 100, txns: 100 })];
    const below = [tick(0, { xdesmgr: XDESMGR_SPINS_PER_TXN * 100 - 100, txns: 100 })];
    const run = (w: WatchTick[]) =>
      diagnoseWatch(w.reduce(addTickToTotals, emptyRunTotals()), w, { topology: null, majorVersion: 16 }).map((v) => v.key);
    assert.ok(run(at).includes('xdesmgr-per-txn'));
    assert.ok(!run(below).includes('xdesmgr-per-txn'));
  });

  it("optimized locking's transaction-id lock waits are named with each wait's rate, and not without them", () => {
    const w = Array.from({ length: 4 }, (_, i) => {
      const t = tick(i);
      t.waits.LCK_M_S_XACT_MODIFY = { waitMs: 300, count: 3, signalMs: 0 };
      t.waits.LCK_M_S_XACT_READ = { waitMs: 100, count: 2, signalMs: 0 };
      return t;
    });
    const v = diagnoseWatch(w.reduce(addTickToTotals, emptyRunTotals()), w, { topology: null, majorVersion: 17 });
    const tid = v.find((x) => x.key === 'optimized-locking-tid');
    assert.ok(tid, v.map((x) => x.key).join(', '));
    assert.match(tid.text, /LCK_M_S_XACT_READ \d+, LCK_M_S_XACT_MODIFY \d+/);
    const plain = [tick(0)];
    assert.ok(
      !diagnoseWatch(plain.reduce(addTickToTotals, emptyRunTotals()), plain, { topology: null, majorVersion: 17 }).some(
        (x) => x.key === 'optimized-locking-tid',
      ),
    );
  });

  it("a wait that jumps against the watch's own baseline is named; pending log I/O near the log writer's limit too", () => {
    const w = Array.from({ length: 90 }, (_, i) => tick(i, { writelogMs: i < 60 ? 50 : 2000, pendingLogIo: i === 89 ? 100 : 1 }));
    const totals = w.reduce(addTickToTotals, emptyRunTotals());
    const v = diagnoseWatch(totals, w, { topology: null, majorVersion: 16 });
    const jump = v.find((x) => x.key === 'wait-jump:WRITELOG');
    assert.ok(jump, v.map((x) => x.key).join(', '));
    assert.match(jump.text, /thresholds: 3x and 100 ms\/s/);
    assert.match(v.find((x) => x.key === 'pending-log-io')!.text, /limit of 112 outstanding writes in 1 of 90 ticks/);
    const steady = Array.from({ length: 90 }, (_, i) => tick(i));
    assert.ok(
      !diagnoseWatch(steady.reduce(addTickToTotals, emptyRunTotals()), steady, { topology: null, majorVersion: 16 }).some((x) =>
        x.key.startsWith('wait-jump'),
      ),
    );
  });
});

describe('watch: marks', () => {
  it('reads marks as they are appended, waiting for a line still being written', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-marks-'));
    fs.writeFileSync(path.join(dir, 'experiment.json'), '{}');
    const first = dropMark(dir, '  index rebuilt ');
    let r = readNewMarks(dir, 0);
    assert.deepEqual(
      r.marks.map((m) => [m.id, m.name]),
      [[first.id, 'index rebuilt']],
    );
    fs.appendFileSync(path.join(dir, MARKS_FILE), '{"id":"m-2","name":"half');
    const again = readNewMarks(dir, r.offset);
    assert.deepEqual(again.marks, []);
    assert.equal(again.offset, r.offset);
    fs.appendFileSync(path.join(dir, MARKS_FILE), ' way","at":"x"}\n');
    r = readNewMarks(dir, again.offset);
    assert.deepEqual(
      r.marks.map((m) => m.name),
      ['half way'],
    );
    assert.throws(() => dropMark(dir, '   '), /needs a name/);
  });
});

describe('simulator: --background and the watch tick', () => {
  it('parses SCENARIO:SESSIONS and says what is wrong otherwise', () => {
    assert.deepEqual(parseBackground('disk-insert:8'), { scenario: 'disk-insert', sessions: 8 });
    assert.throws(() => parseBackground('disk-insert'), /SCENARIO:SESSIONS/);
    assert.throws(() => parseBackground('nope:2'), /unknown scenario 'nope'/);
    assert.throws(() => parseBackground('disk-insert:0'), /1 to 4096/);
    assert.throws(() => parseBackground('disk-insert:4097'), /1 to 4096/);
    assert.deepEqual(parseBackground('disk-insert:2048'), { scenario: 'disk-insert', sessions: 2048 });
  });

  it("the tick's every alias.column is a documented column; a made-up one is Msg 207", async () => {
    // The tick is executed (tools/sim/model/exec): each column resolves against the view's documented columns.
    const run = (text: string) =>
      executeBatch({
        model: new SimModel(),
        session: { spid: 51, login: 'sa', database: 'master', state: new Map() },
        params: new Map<string, number>([
          ['@top_requests', 5],
          ['@text_chars', 100],
        ]),
        paramDefs: '@top_requests int, @text_chars int',
        signal: new AbortController().signal,
        text,
      } as unknown as BatchCall);
    const errors = async (text: string) => (await run(text)).filter((i) => i.kind === 'error') as { number: number; message: string }[];
    const text = loadSqlFile('watch/tick').batches[0];
    assert.deepEqual(await errors(text), []);
    assert.equal((await errors(text.replace('r.query_hash', 'r.query_hashes')))[0]?.number, 207);
    assert.match(
      (await errors(text.replace('wt.wait_duration_ms', 'wt.wait_time_ms')))[0]?.message ?? '',
      /Invalid column name 'wait_time_ms'/,
    );
  });
});

describe('watch: the versioned record', () => {
  const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/experiment-v1.json');

  it('an older experiment record is migrated to the current version as kind experiment; a watch is refused where an experiment is read, and the other way round', () => {
    const e = migrateExperiment(JSON.parse(fs.readFileSync(FIXTURE, 'utf8')), 'v1.json');
    assert.equal(e.schemaVersion, EXPERIMENT_SCHEMA_VERSION);
    assert.equal(e.kind, 'experiment');
    assert.throws(
      () => migrateWatch(JSON.parse(fs.readFileSync(FIXTURE, 'utf8')), 'v1.json'),
      (x: Error) => x instanceof NotebookError && /an experiment, not a watch/.test(x.message),
    );
    const watch = { ...JSON.parse(JSON.stringify(e)), kind: 'watch' } as Record<string, unknown>;
    assert.throws(
      () => migrateExperiment(watch, 'w.json'),
      (x: Error) => x instanceof NotebookError && /this is a watch/.test(x.message) && /spinlab watch --compare/.test(x.message),
    );
    assert.throws(
      () => migrateWatch(watch, 'w.json'),
      (x: Error) => x instanceof NotebookError && /must have required property 'settings'/.test(x.message),
    );
  });
});

describe('watch: the panel over hours', () => {
  it('8 hours of 1 s ticks in the panel: bounded, the whole watch on the charts, every delta counted, the recent window at full resolution', () => {
    const m = new WatchModel();
    let spins = 0,
      waitMs = 0,
      flushes = 0;
    for (let i = 0; i < 8 * 3600; i++) {
      const t = tick(i, { txns: 100 + (i % 50) });
      spins += t.all.spins;
      waitMs += t.waits.WRITELOG.waitMs;
      flushes += t.log.flushes;
      m.tick('w1', t);
      assert.ok(m.run!.ticks.length <= WATCH_SCREEN_TICKS);
    }
    const ticks = m.run!.ticks as WatchTick[];
    assert.equal(
      ticks.reduce((a, t) => a + t.intervalMs, 0),
      8 * 3600 * 1000,
      'the ticks cover the whole watch',
    );
    assert.equal(ticks[0].t - ticks[0].intervalMs, 0, 'from its first second');
    assert.equal(ticks.at(-1)!.t, 8 * 3600 * 1000);
    assert.equal(
      ticks.reduce((a, t) => a + t.all.spins, 0),
      spins,
      'every spin counted',
    );
    assert.equal(
      ticks.reduce((a, t) => a + t.waits.WRITELOG.waitMs, 0),
      waitMs,
    );
    assert.equal(
      ticks.reduce((a, t) => a + t.log.flushes, 0),
      flushes,
    );
    assert.ok(
      ticks.every((t) => Math.abs(t.batchRequestsPerSec - 500) < 1e-9),
      'a steady rate stays that rate when ticks merge',
    );
    assert.ok(
      ticks.slice(-WATCH_SCREEN_TICKS / 2).every((t) => t.intervalMs === 1000),
      'the newest half at full resolution',
    );
  });
});
