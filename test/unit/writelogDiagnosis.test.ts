// Seed 003's WRITELOG diagnosis: each figure beside the threshold the seed names, with a verdict from the numbers.
import assert from 'node:assert/strict';
import { averageWriteStallMs, diagnoseWritelog, logWriterQueueLimit, type WritelogInput } from '../../src/shared/writelogDiagnosis';

function tick(flushes: number, stall: number | null, pending: number) {
  return {
    log: {
      flushes,
      bytesFlushed: flushes * 7000,
      flushesPerSec: flushes,
      bytesFlushedPerSec: flushes * 7000,
      flushWaitsPerSec: 0,
      flushWaitTimeMs: 0,
      avgWriteStallMs: stall,
    },
    pendingLogIo: pending,
  };
}

function input(o: {
  flushes: number;
  bytes: number;
  rows: number;
  txns: number;
  writelog?: [number, number];
  ticks: ReturnType<typeof tick>[];
  major?: number;
}): WritelogInput {
  return {
    totals: {
      elapsedMs: 10_000,
      rows: o.rows,
      transactions: o.txns,
      logFlushes: o.flushes,
      logBytesFlushed: o.bytes,
      waits: o.writelog ? { WRITELOG: { waitMs: o.writelog[0], count: o.writelog[1], signalMs: 0 } } : {},
    },
    timeline: o.ticks,
    majorVersion: o.major ?? 16,
  };
}

it("the log writer's queue limit: 32 up to 2008 R2, 112 from 2012", () => {
  assert.equal(logWriterQueueLimit(10), 32);
  assert.equal(logWriterQueueLimit(11), 112);
  assert.equal(logWriterQueueLimit(16), 112);
  assert.equal(logWriterQueueLimit(null), 112);
});

it('average write stall weighs each sample by its flushes and skips samples without one', () => {
  assert.equal(averageWriteStallMs([tick(100, 0.1, 0), tick(300, 0.3, 0), tick(50, null, 0)]), (10 + 90) / 400);
  assert.equal(averageWriteStallMs([tick(0, 0.2, 0)]), null);
});

it("seed 003's own figures: WRITELOG well above the stall and a saturated queue need attention", () => {
  const d = diagnoseWritelog(
    input({
      flushes: 150_000,
      bytes: 1_048_576_000,
      rows: 5_000_000,
      txns: 2_500_000,
      writelog: [150_000, 300_000],
      ticks: [tick(50_000, 0.1, 112), tick(50_000, 0.1, 112), tick(50_000, 0.1, 111)],
    }),
  );
  const by = Object.fromEntries(d.lines.map((l) => [l.key, l]));
  assert.equal(by.logFlushes.values.perSec, 15_000);
  assert.equal(by.logFlushes.flag, 'info', "a rate beside the seed's is not a sign either way");
  assert.match(by.logFlushes.verdict, /15,000\/s, at or above/);
  assert.equal(by.logBytes.values.perSec, 104_857_600);
  assert.equal(by.waitVsStall.values.avgWritelogWaitMs, 0.5);
  assert.ok(Math.abs((by.waitVsStall.values.ratio as number) - 5) < 1e-9);
  assert.equal(by.waitVsStall.flag, 'attention');
  assert.match(by.waitVsStall.verdict, /5x the log write stall/);
  assert.equal(by.pendingLogIo.values.limit, 112);
  assert.ok(Math.abs((by.pendingLogIo.values.shareAtLimit as number) - 2 / 3) < 1e-9);
  assert.equal(by.pendingLogIo.flag, 'ok', 'two samples in three is not "consistently"');
  assert.equal(d.summary, 'Look at: average writelog wait vs log write stall.');
});

it('delayed durability: no WRITELOG waits, few flushes per transaction, nothing to look at', () => {
  const d = diagnoseWritelog(
    input({ flushes: 200, bytes: 12_000_000, rows: 400_000, txns: 200_000, ticks: [tick(100, 0.05, 1), tick(100, 0.05, 0)] }),
  );
  const by = Object.fromEntries(d.lines.map((l) => [l.key, l]));
  assert.equal(by.waitVsStall.flag, 'ok');
  assert.match(by.waitVsStall.verdict, /no WRITELOG waits/);
  assert.match(by.logFlushes.verdict, /per transaction \(commits share flushes/);
  assert.equal(by.pendingLogIo.flag, 'ok');
  assert.match(by.pendingLogIo.verdict, /at most 1 \(mean 0.5\) of 112/);
  assert.match(d.summary, /None of the WRITELOG post's signs/);
});

it('delayed durability with a few straggling WRITELOG waits: not a sign, even when each is long', () => {
  const d = diagnoseWritelog(
    input({
      flushes: 2000,
      bytes: 120_000_000,
      rows: 600_000,
      txns: 300_000,
      writelog: [40, 100],
      ticks: [tick(1000, 0.08, 0), tick(1000, 0.08, 0)],
    }),
  );
  const line = d.lines.find((l) => l.key === 'waitVsStall')!;
  assert.equal(line.flag, 'ok');
  assert.match(line.verdict, /rare \(0.3 per 1,000 transactions/);
});

it('a 2008 R2 server at 32 outstanding writes in every sample is saturated; the wait close to the stall is the storage', () => {
  const d = diagnoseWritelog(
    input({
      major: 10,
      flushes: 1000,
      bytes: 1_000_000,
      rows: 2000,
      txns: 1000,
      writelog: [1100, 1000],
      ticks: [tick(500, 1, 32), tick(500, 1, 33)],
    }),
  );
  const by = Object.fromEntries(d.lines.map((l) => [l.key, l]));
  assert.equal(by.pendingLogIo.flag, 'attention');
  assert.match(by.pendingLogIo.verdict, /limit of 32 in 100% of the samples/);
  assert.equal(by.waitVsStall.flag, 'ok');
  assert.match(by.waitVsStall.verdict, /close to the log write stall/);
});

it('no samples and no time: unknown, not a verdict', () => {
  const d = diagnoseWritelog({
    totals: {
      elapsedMs: 0,
      rows: 0,
      transactions: 0,
      logFlushes: 0,
      logBytesFlushed: 0,
      waits: { WRITELOG: { waitMs: 5, count: 1, signalMs: 0 } },
    },
    timeline: [],
    majorVersion: 16,
  });
  assert.ok(d.lines.every((l) => l.flag === 'unknown'));
  assert.equal(d.summary, 'Not enough data for a diagnosis.');
});
