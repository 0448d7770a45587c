// The monitor on a server up for 400 days (`spinlab sim --uptime 400d`), and under a fault on every tick, through the
// real driver: a watch and a sampled run tick a minute's worth of ticks (60 at 250 ms, the shortest interval a watch
// takes, so it takes 15 s) with no failure and no reconnect, although backoffs and other counters are past 2^31; a
// delta tick that fails every time for 30 s costs a few reconnects, falls back to the full query once, says so once,
// and keeps ticking; when the full query fails too, the ticks come less often and return to normal once it succeeds.
import assert from 'node:assert/strict';
import { withSim, connect } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import { runWatch } from '../../src/engine/watch/run';
import { runExperiment } from '../../src/engine/experiment';
import { defaultParameters, getScenario } from '../../src/engine/scenarios';
import { FAILURES_BEFORE_FALLBACK } from '../../src/engine/monitorPolicy';
import type { WatchRecord } from '../../src/shared/watch';
import type { ExperimentEvent, RunRecord } from '../../src/shared/experiment';
import { tmp } from '../helpers/common';
import { targetFor } from '../helpers/simTarget';
import { failFile } from '../helpers/simFaults';

const DAY = 86_400_000;
const INTERVAL = 250;
const MINUTE_OF_TICKS = 60 * INTERVAL;
const OVERFLOW = { number: 8115, message: 'Arithmetic overflow error converting expression to data type int. (injected)' };
/** Events other than the simulator's own banner. */
const said = (events: ExperimentEvent[]) =>
  events.filter((e) => !/Spinlock Lab simulator/.test(e.message)).map((e) => `${e.level}: ${e.message}`);

/** A watch of `durationMs`; `during` runs beside it, its tick count in hand, until the watch ends. */
// The watch's own cost budget (10 ms CPU per second) would lengthen a 250 ms interval against the simulator's synthetic
// tick cost; these tests are about failures, so the budget is set out of the way (watchCost.test.ts tests it).
const NO_COST_BUDGET = 1_000;

async function watch(
  sim: Simulator,
  durationMs: number,
  during?: (ticks: () => number) => Promise<void>,
): Promise<{ record: WatchRecord; ticks: number }> {
  let ticks = 0;
  let over = false;
  const result = runWatch(
    {
      target: targetFor(sim, { connectTimeoutS: 5 }),
      outDir: tmp('watch'),
      stateDir: tmp('state'),
      settings: { intervalMs: INTERVAL, durationMs, topRequests: 10, textChars: 80, costBudgetMsPerSec: NO_COST_BUDGET },
    },
    new AbortController().signal,
    (p) => {
      if (p.kind === 'tick') ticks++;
    },
  ).finally(() => {
    over = true;
  });
  await during?.(() => (over ? Infinity : ticks));
  const { record } = await result;
  return { record, ticks };
}

async function sampledRun(sim: Simulator, durationMs: number, onTick: (n: number) => void = () => undefined): Promise<RunRecord> {
  let ticks = 0;
  const scenario = getScenario('disk-insert');
  const { experiment } = await runExperiment(
    {
      target: targetFor(sim, { connectTimeoutS: 5 }),
      scenarioId: 'disk-insert',
      parameters: { ...defaultParameters(scenario), seed_rows: 0 },
      labDatabase: 'SpinlockLab',
      load: { mode: 'server-loop', threads: [2], durationMs, rows: null, warmupMs: 0, intervalMs: INTERVAL },
      knobs: {},
      outDir: tmp('run'),
      stateDir: tmp('state'),
    },
    new AbortController().signal,
    (p) => {
      if (p.kind === 'tick') onTick(++ticks);
    },
  );
  assert.equal(experiment.runs.length, 1);
  return experiment.runs[0];
}

describe('the monitor on a server up for 400 days', function () {
  this.timeout(180_000);

  it('serves counters past 2^31 (the premise)', () =>
    withSim({ uptimeMs: 400 * DAY }, async (sim) => {
      const pool = await connect(sim);
      try {
        const r = (await pool.request().query('SELECT name, backoffs FROM sys.dm_os_spinlock_stats')).recordset as { backoffs: string }[];
        assert.ok(
          r.some((x) => Number(x.backoffs) > 2 ** 31),
          'some spinlock has backed off more than 2^31 times',
        );
        const i = (await pool.request().query('SELECT sqlserver_start_time FROM sys.dm_os_sys_info')).recordset[0] as {
          sqlserver_start_time: Date;
        };
        assert.ok(Date.now() - i.sqlserver_start_time.getTime() >= 400 * DAY - 60_000);
      } finally {
        await pool.close();
      }
    }));

  it('a watch ticks a minute of ticks with no failure, no reconnect and no fallback', () =>
    withSim({ uptimeMs: 400 * DAY, background: [{ scenario: 'disk-insert', sessions: 4 }] }, async (sim) => {
      const { record, ticks } = await watch(sim, MINUTE_OF_TICKS);
      assert.equal(record.status, 'completed', said(record.events).join('\n'));
      assert.deepEqual(
        said(record.events).filter((e) => e.startsWith('warning') || e.startsWith('error')),
        [],
      );
      assert.deepEqual(record.monitor, { reconnects: 0, failedTicks: 0, fallbacks: 0, fullQuery: false, longestIntervalMs: INTERVAL });
      assert.ok(ticks >= 20, `ticks kept: ${ticks}`);
    }));

  it('a sampled run ticks a minute of ticks with no failure, no reconnect and no fallback', () =>
    withSim({ uptimeMs: 400 * DAY }, async (sim) => {
      const run = await sampledRun(sim, MINUTE_OF_TICKS);
      assert.equal(run.status, 'completed', said(run.events).join('\n'));
      assert.deepEqual(
        said(run.events).filter((e) => e.startsWith('warning') || e.startsWith('error')),
        [],
      );
      assert.deepEqual(run.monitor, { reconnects: 0, failedTicks: 0, fallbacks: 0, fullQuery: false, longestIntervalMs: INTERVAL });
      assert.ok(run.timeline.length >= 20, `ticks: ${run.timeline.length}`);
    }));
});

describe('a fault on every tick', function () {
  this.timeout(180_000);

  /** The fault's own messages: its first failure, and the fallback; nothing listed twice. */
  function assertSaidOnce(events: ExperimentEvent[]): void {
    // A slow-sample warning is about the machine's load, not the fault: a loaded test machine may add one. So is the
    // steady-state note (its ticks settling after a 0 s warm-up and the fault's reconnect): about the run's figures.
    const lines = said(events).filter((l) => !/a monitor sample took \d+ ms, longer than|were still settling \(MSER/.test(l));
    assert.equal(new Set(lines).size, lines.length, `no message repeated:\n${lines.join('\n')}`);
    assert.equal(lines.filter((l) => /monitor sample failed: Arithmetic overflow/.test(l)).length, 1, lines.join('\n'));
    const fallbacks = lines.filter((l) => /delta tick failed 3 times in a row .*in full every tick/.test(l));
    assert.equal(fallbacks.length, 1, `one fallback message:\n${lines.join('\n')}`);
    assert.match(
      fallbacks[0],
      /\(last: Arithmetic overflow error converting expression to data type int\. \(injected\)\)/,
      'with its reason',
    );
    assert.ok(lines.length <= 2, lines.join('\n'));
  }

  it("the watch's delta tick failing for 30 s: a few reconnects, one fallback said once, and the ticks go on", () =>
    withSim({ background: [{ scenario: 'disk-insert', sessions: 2 }] }, async (sim) => {
      const { record, ticks } = await watch(sim, 30_000, async (n) => {
        while (n() < 2) await new Promise((r) => setTimeout(r, 50));
        failFile(sim, 'watch/tick-delta', OVERFLOW);
      });
      assert.equal(record.status, 'completed');
      assertSaidOnce(record.events);
      assert.ok(record.monitor!.reconnects <= FAILURES_BEFORE_FALLBACK, `reconnects: ${record.monitor!.reconnects}`);
      assert.equal(record.monitor!.failedTicks, FAILURES_BEFORE_FALLBACK);
      assert.equal(record.monitor!.fallbacks, 1);
      assert.equal(record.monitor!.fullQuery, true);
      assert.ok(ticks >= 40, `ticks kept through the fault: ${ticks}`);
    }));

  it("a sampled run's delta tick failing for 30 s: the same, recorded on the run", () =>
    withSim({}, async (sim) => {
      const run = await sampledRun(sim, 30_000, (n) => {
        if (n === 2) failFile(sim, 'dmv/sample-delta', OVERFLOW);
      });
      assert.equal(run.status, 'completed', said(run.events).join('\n'));
      assertSaidOnce(run.events);
      assert.ok(run.monitor!.reconnects <= FAILURES_BEFORE_FALLBACK, `reconnects: ${run.monitor!.reconnects}`);
      assert.equal(run.monitor!.fallbacks, 1);
      assert.ok(run.timeline.length >= 40, `ticks kept: ${run.timeline.length}`);
    }));

  it('when the full query fails too, the watch ticks less often, and back at its interval once a tick succeeds', () =>
    withSim({}, async (sim) => {
      let logins = 0;
      // Long enough for the try after the fault, at most one longest interval (8 s) after it, and ticks after that.
      const { record, ticks } = await watch(sim, 20_000, async (n) => {
        while (n() < 2) await new Promise((r) => setTimeout(r, 50));
        const before = sim.server.sessions().length;
        failFile(sim, 'watch/tick-delta', OVERFLOW);
        failFile(sim, 'watch/tick', OVERFLOW);
        const spids = new Set<number>();
        const seen = setInterval(() => {
          for (const x of sim.server.sessions()) spids.add(x.spid);
        }, 20);
        await new Promise((r) => setTimeout(r, 8000));
        clearInterval(seen);
        logins = spids.size - before;
        sim.faults.clearFailures();
      });
      const lines = said(record.events);
      assert.equal(new Set(lines).size, lines.length, lines.join('\n'));
      assert.equal(lines.filter((l) => /in full every tick/.test(l)).length, 1, lines.join('\n'));
      assert.equal(
        lines.filter((l) => /ticking less often, every 500 ms and doubling up to every 60 s/.test(l)).length,
        1,
        lines.join('\n'),
      );
      assert.equal(
        lines.filter((l) => /succeed again after \d+ failed in a row: back to every 250 ms/.test(l)).length,
        1,
        lines.join('\n'),
      );
      assert.equal(record.monitor!.fallbacks, 2);
      assert.ok(record.monitor!.longestIntervalMs >= 2000, `backed off to ${record.monitor!.longestIntervalMs} ms`);
      // 8 s at 250 ms would be 32 ticks; backing off, far fewer tries, and a new connection for none of the full ones.
      assert.ok(record.monitor!.failedTicks <= 14, `failed ticks: ${record.monitor!.failedTicks}`);
      assert.ok(logins <= FAILURES_BEFORE_FALLBACK, `new sessions while failing: ${logins}`);
      assert.ok(ticks >= 5, `ticks before and after the fault are kept: ${ticks}`);
    }));
});
