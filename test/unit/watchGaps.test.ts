// A watch's clock, gaps and repeated warnings, without a server: tick times on one monotonic clock across a restart,
// each outage a gap with no delta across it (never a negative or a huge one), the watch's time in words, a warning
// said once and then counted, and the notebook's charts shading a gap instead of drawing a line across it.
import assert from 'node:assert/strict';
import { WatchSequence, type SampleArrival } from '../../src/engine/watch/gaps';
import type { WatchSample } from '../../src/engine/watch/tick';
import type { Outage } from '../../src/engine/sampler';
import { describeCoverage, describeGap, lostMs } from '../../src/shared/watchGaps';
import { RepeatedWarnings } from '../../src/shared/repeatedWarnings';
import type { WatchGap } from '../../src/shared/watch';
import { svgLineChart } from '../../src/engine/notebook/svgChart';
import { sample } from './samples';

const BOOT = '2026-11-25T10:00:00.000Z';
const REBOOT = '2026-11-25T12:00:10.000Z';

/** A sample that arrived at `atMs`, asked for `sent` ms before. */
function at(atMs: number, msTicks: number, spins: number, o: { startTime?: string; outage?: Outage; sent?: number } = {}): SampleArrival {
  const raw = sample({
    msTicks,
    startTime: o.startTime ?? BOOT,
    spins: { LOGCACHE_ACCESS: spins },
    waits: { WRITELOG: [spins, spins] },
    cpu: [[0, msTicks / 2]],
  });
  const s: WatchSample = { raw, logFiles: new Map(), requests: [], waitingNow: [], ownCpuMs: null };
  return { sample: s, sentAtMs: atMs - (o.sent ?? 0), atMs, ...(o.outage ? { outage: o.outage } : {}) };
}
const lost = (failedTicks: number, firstError: string | null = 'Connection lost - read ECONNRESET'): Outage => ({
  sinceAtMs: null,
  connectionLost: true,
  failedTicks,
  firstError,
});

function ticked(step: ReturnType<WatchSequence['next']>) {
  assert.equal(step.kind, 'tick', JSON.stringify(step));
  return (step as Extract<typeof step, { kind: 'tick' }>).tick;
}
function gapOf(step: ReturnType<WatchSequence['next']>) {
  assert.equal(step.kind, 'gap', JSON.stringify(step));
  return step as Extract<typeof step, { kind: 'gap' }>;
}

describe('watch clock and gaps', () => {
  const ctx = { topN: 15, nodeOfScheduler: new Map([[0, 0]]) };

  it('tick times stay on one monotonic clock across a server restart (ms_ticks starting again): the restart is a gap, no negative or huge delta', () => {
    const seq = new WatchSequence(at(50_000, 900_000, 1000), ctx);
    assert.equal(ticked(seq.next(at(51_000, 901_000, 2000))).t, 1000);
    // The server restarted: counters and ms_ticks from zero, a new start time, two ticks failed meanwhile.
    const g = gapOf(seq.next(at(55_000, 800, 30, { startTime: REBOOT, outage: lost(2) })));
    assert.equal(g.gap.reason, 'server-restart');
    assert.deepEqual([g.gap.fromT, g.gap.toT, g.gap.failedTicks, g.gap.recovered], [1000, 5000, 2, true]);
    assert.match(g.gap.detail, /sqlserver_start_time changed/);
    assert.match(g.warning ?? '', /SQL Server restarted/);
    const after = ticked(seq.next(at(56_000, 1800, 530, { startTime: REBOOT })));
    assert.equal(after.t, 6000, 'the clock goes on from where it was, not from the new ms_ticks');
    assert.equal(after.intervalMs, 1000, "the interval is the server's");
    assert.equal(after.spinlocks.LOGCACHE_ACCESS.spins, 500, 'the delta from the new baseline: not negative, not the whole history');
    assert.equal(after.waits.WRITELOG.waitMs, 500);
    const ts = [1000, after.t];
    assert.ok(ts[1] > ts[0]);
  });

  it('ms_ticks going backwards with the same start time (a failover to another machine) is a restart too', () => {
    const seq = new WatchSequence(at(0, 5_000_000, 10), ctx);
    const g = gapOf(seq.next(at(1000, 20_000, 20)));
    assert.equal(g.gap.reason, 'server-restart');
    assert.match(g.gap.detail, /ms_ticks went backwards/);
  });

  it('a connection lost with the server alive: a gap from the last sample to the request of the first after it, and no delta averaged across it', () => {
    // The clock starts when the first sample was asked for (200 ms before it arrived).
    const seq = new WatchSequence(at(1000, 10_000, 100, { sent: 200 }), ctx);
    assert.equal(ticked(seq.next(at(2000, 11_000, 200))).t, 1200);
    // Reconnecting took the 500 ms before the first sample after the outage arrived: lost too.
    const g = gapOf(seq.next(at(20_500, 29_500, 99_999, { outage: lost(6), sent: 500 })));
    assert.equal(g.gap.reason, 'connection-lost');
    assert.deepEqual([g.gap.fromT, g.gap.toT], [1200, 19_200]);
    assert.equal(g.gap.from, new Date(1_700_000_000_000 + 11_000).toISOString(), 'the wall clock of the last sample before it');
    assert.equal(g.gap.to, new Date(1_700_000_000_000 + 29_500 - 500).toISOString(), 'and of the request after it');
    assert.equal(g.gap.detail, 'Connection lost - read ECONNRESET');
    assert.equal(g.warning, null, 'the monitor already said what failed');
    const next = ticked(seq.next(at(21_500, 30_500, 100_099)));
    assert.equal(next.spinlocks.LOGCACHE_ACCESS.spins, 100, 'only the interval after the new baseline');
    assert.equal(next.t, 20_700);
  });

  it('ticks that failed on a live connection are a gap of their own kind; the end of a watch inside an outage is a gap not recovered', () => {
    const seq = new WatchSequence(at(0, 10_000, 1), ctx);
    const g = gapOf(
      seq.next(
        at(3000, 13_000, 2, {
          outage: { sinceAtMs: 0, connectionLost: false, failedTicks: 2, firstError: 'Msg 1222, Lock request time out period exceeded.' },
        }),
      ),
    );
    assert.equal(g.gap.reason, 'failed-ticks');
    const open = seq.end(9000, 1_700_000_020_000, lost(5, 'Failed to connect'));
    assert.ok(open);
    assert.deepEqual([open.reason, open.fromT, open.toT, open.recovered], ['connection-lost', 3000, 9000, false]);
    assert.equal(seq.end(9000, 0, null), null, 'no outage under way: no gap');
    assert.equal(lostMs(seq.gaps), 9000);
  });

  it('counters cleared without a restart (DBCC SQLPERF CLEAR) are a gap, said once, with no negative delta', () => {
    const seq = new WatchSequence(at(0, 10_000, 5000), ctx);
    const g = gapOf(seq.next(at(1000, 11_000, 3)));
    assert.equal(g.gap.reason, 'counter-reset');
    assert.match(g.warning ?? '', /Counters went backwards/);
    assert.equal(ticked(seq.next(at(2000, 12_000, 13))).spinlocks.LOGCACHE_ACCESS.spins, 10);
  });

  it("says the watch's time: watched (real), lost in gaps, and the time rates are per second of", () => {
    const gap: WatchGap = {
      reason: 'connection-lost',
      fromT: 3000,
      toT: 21_500,
      from: '2026-11-25T12:00:03.000Z',
      to: '2026-11-25T12:00:21.500Z',
      failedTicks: 6,
      detail: 'ECONNRESET',
      recovered: true,
    };
    assert.equal(
      describeCoverage({ watchedMs: 60_000, coveredMs: 41_500, lostMs: 18_500 }, [gap]),
      'watched 60.0 s; 18.5 s lost in 1 gap: connection lost 12:00:03-12:00:21 UTC (18.5 s, 6 failed ticks), reconnected; rates are per second of the 41.5 s the ticks cover',
    );
    assert.equal(
      describeCoverage({ watchedMs: 10_000, coveredMs: 9900, lostMs: 0 }, []),
      'watched 10.0 s; no gap; rates are per second of the 9.9 s the ticks cover',
    );
    assert.equal(
      describeGap({ ...gap, reason: 'server-restart', failedTicks: 1 }),
      'SQL Server restarted 12:00:03-12:00:21 UTC (18.5 s, 1 failed tick), counters taken again from the new values',
    );
    assert.equal(
      describeGap({ ...gap, failedTicks: 0, recovered: false }),
      'connection lost 12:00:03-12:00:21 UTC (18.5 s), not back when the watch ended',
    );
  });
});

describe('a repeated warning is said once, then counted', () => {
  it('the same warning every tick: once, and "(repeated N times)" when another comes and at the end', () => {
    const w = new RepeatedWarnings();
    const said: string[] = [];
    for (let i = 0; i < 15; i++) said.push(...w.add(`a monitor sample took ${1200 + i} ms, longer than the 1000 ms interval`));
    assert.deepEqual(
      said,
      ['a monitor sample took 1200 ms, longer than the 1000 ms interval'],
      'numbers that change do not make a new warning',
    );
    said.push(...w.add('reconnect failed: ECONNREFUSED'));
    for (let i = 0; i < 3; i++) said.push(...w.add('reconnect failed: ECONNREFUSED'));
    said.push(...w.flush());
    assert.deepEqual(said.slice(1), [
      '(repeated 14 times) a monitor sample took 1200 ms, longer than the 1000 ms interval',
      'reconnect failed: ECONNREFUSED',
      '(repeated 3 times) reconnect failed: ECONNREFUSED',
    ]);
    assert.deepEqual(w.flush(), [], 'each count said once');
    assert.equal(w.count('reconnect failed: ECONNREFUSED'), 4);
    assert.deepEqual(w.add('reconnect failed: ECONNREFUSED'), [], 'still a repeat after its count was said');
    assert.deepEqual(w.flush(), ['(repeated 1 time) reconnect failed: ECONNREFUSED']);
  });
});

describe('watch notebook charts and gaps', () => {
  it('shades a gap and draws no line across it', () => {
    const pts = [
      [1, 5],
      [2, 6],
      [10, 7],
      [11, 8],
    ] as [number, number][];
    const plain = svgLineChart([{ name: 's', points: pts }], { title: 't', xLabel: 'x', yLabel: 'y' });
    const gapped = svgLineChart([{ name: 's', points: pts }], { title: 't', xLabel: 'x', yLabel: 'y', gaps: [[2, 9]] });
    const moves = (svg: string) => (svg.match(/<path d="([^"]+)"/)![1].match(/M/g) ?? []).length;
    assert.equal(moves(plain), 1);
    assert.equal(moves(gapped), 2, 'the line stops at the gap and starts again after it');
    assert.match(gapped, />gap<\/text>/);
    assert.doesNotMatch(plain, />gap<\/text>/);
  });
});
