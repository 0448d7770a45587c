// A watch across an outage, against the simulator: the CLI watching while its connection is dropped and refused for a
// while, and a watch across an instance restart (ms_ticks and the counters from zero). Tick times only go forward on
// one clock, each outage is a gap in experiment.json with its reason, the summary counts the whole wall time and the
// time lost, and a warning that comes back is said once.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import { main } from '../../src/cli/main';
import { targetFromArgs } from '../../src/cli/commands';
import { runWatch } from '../../src/engine/watch/run';
import { buildWatchNotebook } from '../../src/engine/watch/notebook';
import type { WatchRecord, WatchTick } from '../../src/shared/watch';
import { tmp, sleep } from '../helpers/common';
import { connString } from '../helpers/simTarget';

const WATCHER = { name: 'watcher', password: 'W4tcher-Pw1!', permissions: ['VIEW SERVER STATE' as const] };
const conn = (sim: Simulator) => connString(sim, { user: WATCHER.name, password: WATCHER.password });

function ticksOf(dir: string): WatchTick[] {
  const text = fs.existsSync(path.join(dir, 'samples.jsonl')) ? fs.readFileSync(path.join(dir, 'samples.jsonl'), 'utf8').trim() : '';
  return text ? text.split('\n').map((l) => JSON.parse(l) as WatchTick) : [];
}

/** Cuts the watch's connection and refuses new ones for `ms`, then lets it back. */
async function outage(sim: Simulator, ms: number, restart = false): Promise<void> {
  await sim.faults.refuseConnections(true);
  if (restart) sim.faults.restart();
  else for (const x of sim.server.sessions().filter((s) => s.appName === 'Spinlock Lab watch')) sim.faults.dropSession(x.spid);
  await sleep(ms);
  await sim.faults.refuseConnections(false);
}

function assertForward(ticks: readonly WatchTick[]): void {
  const ts = ticks.map((t) => t.t);
  assert.ok(
    ts.every((t, i) => t > 0 && (i === 0 || t > ts[i - 1])),
    `tick times only go forward: ${ts.join(' ')}`,
  );
}

describe('a watch across an outage', function () {
  this.timeout(120_000);
  const state = tmp('state');
  before(() => {
    process.env.SPINLAB_STATE_DIR = state;
  });
  after(() => {
    delete process.env.SPINLAB_STATE_DIR;
  });

  it('spinlab watch across a dropped connection: one clock, the gap recorded and summarised, the whole wall time counted', () =>
    withSim({ background: [{ scenario: 'disk-insert', sessions: 2 }], logins: [WATCHER] }, async (sim) => {
      const out = tmp('cli');
      let stdout = '',
        stderr = '';
      const ow = process.stdout.write.bind(process.stdout),
        ew = process.stderr.write.bind(process.stderr);
      process.stdout.write = ((s: string) => {
        stdout += s;
        return true;
      }) as typeof process.stdout.write;
      process.stderr.write = ((s: string) => {
        stderr += s;
        return true;
      }) as typeof process.stderr.write;
      let code: number;
      try {
        const watching = main(['watch', '-c', conn(sim), '--duration', '8s', '--interval', '250ms', '--out', out, '--quiet']);
        // Bounded: a watch that ends (or stalls) before its fourth tick fails here instead of hanging the tier.
        let ended = false;
        const end = (): void => void (ended = true);
        watching.then(end, end);
        while (ticksOf(out).length < 4 && !ended) await sleep(50);
        assert.ok(ticksOf(out).length >= 4, `the watch ended after ${ticksOf(out).length} tick(s), before the outage`);
        await outage(sim, 2500);
        code = await watching;
      } finally {
        process.stdout.write = ow;
        process.stderr.write = ew;
      }
      assert.equal(code, 0, stderr);
      const record = JSON.parse(fs.readFileSync(path.join(out, 'experiment.json'), 'utf8')) as WatchRecord;
      const ticks = ticksOf(out);
      assertForward(ticks);
      assert.equal(record.gaps?.length, 1, JSON.stringify(record.gaps));
      const gap = record.gaps![0];
      assert.equal(gap.reason, 'connection-lost');
      assert.ok(gap.recovered && gap.failedTicks >= 1, JSON.stringify(gap));
      assert.ok(gap.toT - gap.fromT >= 2500, `the gap spans the outage: ${JSON.stringify(gap)}`);
      assert.ok(ticks.some((t) => t.t <= gap.fromT) && ticks.some((t) => t.t > gap.toT), 'ticks on both sides of it');
      assert.ok(
        ticks.every((t) => t.intervalMs < gap.toT - gap.fromT),
        `no tick spans the gap: ${ticks.map((t) => t.intervalMs).join(' ')}`,
      );
      const c = record.coverage!;
      assert.ok(c.watchedMs >= 8000 && c.watchedMs < 40_000, `the whole wall time: ${JSON.stringify(c)}`);
      assert.equal(c.lostMs, gap.toT - gap.fromT);
      assert.equal(c.coveredMs, record.totals.elapsedMs, 'rates are per second of the time the ticks cover');
      assert.ok(c.coveredMs < c.watchedMs - c.lostMs + 1000, JSON.stringify(c));
      assert.match(
        stdout,
        /watched \d+\.\d s; \d+\.\d s lost in 1 gap: connection lost \d\d:\d\d:\d\d-\d\d:\d\d:\d\d UTC \([\d.]+ s, \d+ failed ticks?\), reconnected; rates are per second of the [\d.]+ s the ticks cover\./,
        stdout,
      );
      assert.match(stderr, /gap at [\d.]+-[\d.]+ s: connection lost/, stderr);
      // Each warning line once: a repeat is counted ("(repeated N times) ..."), never printed again.
      const warnings = stderr.split('\n').filter((l) => l.startsWith('warning: '));
      assert.equal(new Set(warnings).size, warnings.length, `no warning printed twice:\n${warnings.join('\n')}`);

      const nb = JSON.stringify(await buildWatchNotebook(out));
      assert.match(nb, /## Gaps/);
      assert.match(nb, /connection lost \d\d:\d\d:\d\d-\d\d:\d\d:\d\d UTC/);
      assert.match(nb, />gap<\/text>/, 'the charts shade it');
    }));

  it('a watch across an instance restart: the clock goes on, the restart is a gap, no delta crosses it', () =>
    withSim({ background: [{ scenario: 'disk-insert', sessions: 2 }], logins: [WATCHER] }, async (sim) => {
      const out = tmp('restart');
      let ticks = 0;
      const result = runWatch(
        {
          target: targetFromArgs(conn(sim), {}),
          outDir: out,
          stateDir: state,
          settings: { intervalMs: 250, durationMs: 7000, topRequests: 10, textChars: 80 },
        },
        new AbortController().signal,
        (p) => {
          if (p.kind === 'tick') ticks++;
        },
      );
      while (ticks < 4) await sleep(50);
      const before = ticksOf(out).at(-1)!.t;
      await outage(sim, 1500, true);
      const { record } = await result;
      const all = ticksOf(out);
      assertForward(all);
      assert.equal(record.gaps?.length, 1, JSON.stringify(record.gaps));
      assert.equal(record.gaps![0].reason, 'server-restart');
      assert.match(record.gaps![0].detail, /sqlserver_start_time changed/);
      const after = all.filter((t) => t.t > record.gaps![0].toT);
      assert.ok(
        after.length >= 3 && after[0].t > before + 1500,
        `the ticks after the restart go on from ${before}: ${after.map((t) => t.t).join(' ')}`,
      );
      // Deltas from the restarted server's own baseline: a tick's spins are a few hundred milliseconds' worth, not the
      // whole of the old server's history, and none is negative.
      const perSec = (t: WatchTick) => t.all.spins / (t.intervalMs / 1000);
      const rates = all.map(perSec);
      assert.ok(rates.every((r) => r >= 0));
      assert.ok(
        Math.max(...after.map(perSec)) < 20 * Math.max(...all.filter((t) => t.t <= before).map(perSec)),
        `no huge delta: ${rates.join(' ')}`,
      );
      assert.ok(
        record.coverage && record.coverage.watchedMs >= 7000 && record.coverage.lostMs === record.gaps![0].toT - record.gaps![0].fromT,
        JSON.stringify(record.coverage),
      );
    }));
});
