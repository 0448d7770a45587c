// The comparison summary's wording at the edges: a side next to zero gives "over 100x", not a nine-digit ratio; a
// run whose transactions SQL Server does not count (natively compiled procedures) is said so, not "only in run A".
import assert from 'node:assert/strict';
import { compareRuns, summarizeComparison, type ComparedFigure, type RunFigures } from '../../src/shared/analysis';

function figures(over: Partial<RunFigures>): RunFigures {
  return {
    threads: 4,
    status: 'completed',
    elapsedSec: 10,
    rows: 100_000,
    rowsPerSec: 10_000,
    transactionsPerSec: 5_000,
    cpuMsPerRow: 0.1,
    logBytesPerRow: 100,
    logFlushesPerSec: 2_000,
    spins: {},
    backoffs: {},
    waitMs: {},
    latchMs: {},
    spinsPerRow: {},
    backoffsPerRow: {},
    waitMsPerRow: {},
    latchMsPerRow: {},
    p50Us: null,
    p99Us: null,
    ...over,
  };
}

it('a figure next to zero on one side is "over 100x", with both numbers', () => {
  const f: ComparedFigure[] = [
    {
      key: 'spinsPerRow:XDESMGR',
      label: 'XDESMGR spins per row',
      unit: 'spins/row',
      a: 0.000001,
      b: 151.064585,
      changePct: null,
      direction: 'lower-better',
    },
  ];
  const s = summarizeComparison(f);
  assert.deepEqual(s, ['XDESMGR spins per row over 100x higher in run B (151 vs 0.000001).']);
  const down = summarizeComparison([{ ...f[0], a: 151.064585, b: 0.000001 }]);
  assert.deepEqual(down, ['XDESMGR spins per row over 100x lower in run B (0.000001 vs 151).']);
  // 50x is still said as a ratio.
  assert.match(summarizeComparison([{ ...f[0], a: 2, b: 100 }])[0], /50\.0x higher/);
});

it('no transactions counted in a run that wrote rows: the counter leaves out natively compiled procedures', () => {
  const a = figures({ transactionsPerSec: 5_000, rowsPerSec: 10_000 });
  const b = figures({ transactionsPerSec: 0, rowsPerSec: 42_000 });
  const s = compareRuns(a, b).summary;
  assert.ok(
    s.some(
      (x) =>
        x ===
        "Transactions: none counted in run B, which wrote 42,000 rows/s: SQL Server's Transactions/sec counter leaves out natively compiled procedures' transactions.",
    ),
    s.join('\n'),
  );
  assert.ok(!s.some((x) => /Transactions: only in run A/.test(x)), s.join('\n'));
  const back = compareRuns(b, a).summary;
  assert.ok(
    back.some((x) => /^Transactions: none counted in run A, which wrote 42,000 rows\/s/.test(x)),
    back.join('\n'),
  );
  // A run with neither rows nor transactions keeps the plain wording.
  const idle = compareRuns(a, figures({ transactionsPerSec: 0, rowsPerSec: 0, rows: 0 })).summary;
  assert.ok(
    idle.some((x) => /Transactions: only in run A/.test(x)),
    idle.join('\n'),
  );
});

it('a figure on one side only names that run and gives its number first; a time per row says "time", not "ms"', () => {
  const a = figures({ backoffsPerRow: { SOS_CACHESTORE: 0.000038 }, latchMsPerRow: {} });
  const b = figures({ backoffsPerRow: {}, latchMsPerRow: { BUFFER: 0.0000192 } });
  const s = compareRuns(a, b).summary;
  assert.ok(s.includes('SOS_CACHESTORE backoffs per row: only in run A (0.000038 vs 0).'), s.join('\n'));
  assert.ok(s.includes('BUFFER latch time per row: only in run B (19.2 ns vs 0 ms).'), s.join('\n'));
});
