// `spinlab tune --objective spins-per-row:NAME` checks NAME against the spinlocks the server itself lists
// (sys.dm_os_spinlock_stats) after connecting and before any knob moves or lock is taken: a name the server does not
// have would read 0 spins per row in every trial, so the search would move server-wide affinity trial after trial
// and name a winner on nothing. A wait type or latch class given as a spinlock is refused before connecting.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';
import { mainCli } from '../helpers/cliInProcess';
import { tmp } from '../helpers/common';
import type { Simulator } from '../../tools/sim/simulator';

const QUICK = [
  '--trial',
  '2s',
  '--warmup',
  '0s',
  '--set',
  'seed_rows=0',
  '--budget',
  '2m',
  '--affinity',
  'numa:1',
  '--batch-size',
  '1',
  '--sessions',
  '4',
];
const env = (sim: Simulator | null, state: string) => ({
  SPINLAB_CONNECTION: `Server=127.0.0.1,${sim?.port ?? 1};User ID=sa;Encrypt=false`,
  SPINLAB_PASSWORD: SIM_PASSWORD,
  SPINLAB_STATE_DIR: state,
});

/** The affinity statements the simulator runs from now on. */
function affinitySets(sim: Simulator): string[] {
  const set: string[] = [];
  const setAffinity = sim.model.setAffinity.bind(sim.model);
  sim.model.setAffinity = (spec: string) => (set.push(spec), setAffinity(spec));
  return set;
}

describe('spinlab tune: the objective names a spinlock the server has', function () {
  this.timeout(120_000);

  for (const [name, expect] of [
    ['FOO', /this server has no spinlock named FOO/],
    ['LOGCACHE_ACESS', /this server has no spinlock named LOGCACHE_ACESS.*did you mean LOGCACHE_ACCESS\?/],
  ] as const) {
    it(`spins-per-row:${name}: exit 2 after connecting, before any knob moves or journal is written`, () =>
      withSim({ seed: 7 }, async (sim) => {
        const set = affinitySets(sim);
        const state = tmp('state');
        const started = Date.now();
        const r = await mainCli(
          ['tune', '--scenario', 'disk-insert', '--objective', `spins-per-row:${name}`, ...QUICK, '--out', path.join(tmp('tn'), 'out')],
          env(sim, state),
        );
        assert.equal(r.code, 2, r.output);
        assert.match(r.stderr, expect);
        assert.match(r.stderr, /sys\.dm_os_spinlock_stats/);
        assert.doesNotMatch(r.stderr, /trial 1/, 'no trial ran');
        assert.deepEqual(set, [], 'no affinity was set');
        assert.ok(!fs.existsSync(path.join(state, 'journal')) || !fs.readdirSync(path.join(state, 'journal')).length, 'no journal');
        assert.ok(Date.now() - started < 30_000, 'refused at once');
      }));
  }

  it('a wait type or a latch class as the spinlock: exit 2 before connecting, saying what it is', async () => {
    const state = tmp('state');
    for (const [name, what] of [
      ['WRITELOG', /WRITELOG is a wait type, not a spinlock/],
      ['ACCESS_METHODS_DATASET_PARENT', /ACCESS_METHODS_DATASET_PARENT is a latch class, not a spinlock/],
    ] as const) {
      const r = await mainCli(['tune', '--scenario', 'disk-insert', '--objective', `spins-per-row:${name}`, ...QUICK], env(null, state));
      assert.equal(r.code, 2, r.output);
      assert.match(r.stderr, what);
      assert.doesNotMatch(r.stderr, /connect/i, 'refused before connecting');
    }
  });
});

describe('spinlab tune: an objective spinlock the workload never spins on', function () {
  this.timeout(300_000);

  it('stops once every configuration read 0 spins per row, names no winner, exit 1, settings put back', () =>
    withSim({ seed: 7 }, async (sim) => {
      const before = sim.model.onlineCpus().length;
      const r = await mainCli(
        ['tune', '--scenario', 'disk-insert', '--objective', 'spins-per-row:BACKUP_CTX', ...QUICK, '--out', path.join(tmp('tz'), 'out')],
        env(sim, tmp('state')),
      );
      assert.equal(r.code, 1, r.output);
      assert.match(r.stdout, /The search found no result: BACKUP_CTX did not spin in any of the \d+ trials run/);
      assert.match(r.stdout, /the trials' busiest: [A-Z_]+/);
      assert.doesNotMatch(r.stdout, /^Winner:/m);
      assert.equal(sim.model.onlineCpus().length, before, 'affinity put back');
    }));
});

describe('spinlab tune: constraints the search could never meet', function () {
  this.timeout(120_000);

  it('--constraint p99<=2ms in server-loop: exit 2 before connecting (no latency is measured there)', async () => {
    const r = await mainCli(['tune', '--scenario', 'disk-insert', '--constraint', 'p99<=2ms', ...QUICK], env(null, tmp('state')));
    assert.equal(r.code, 2, r.output);
    assert.match(r.stderr, /--constraint p99<=2ms: a server-loop tune measures no per-call latency.*--mode client-loop/);
    assert.doesNotMatch(r.stderr, /connect to/i);
  });

  it('--constraint sessions<=2 with --sessions 4: exit 2 before connecting, naming both', async () => {
    const r = await mainCli(['tune', '--scenario', 'disk-insert', '--constraint', 'sessions<=2', ...QUICK], env(null, tmp('state')));
    assert.equal(r.code, 2, r.output);
    assert.match(r.stderr, /--constraint sessions<=2 leaves none of --sessions 4 to try/);
  });

  it('--constraint sessions>=100 on a 40-CPU server: exit 2 saying the CPUs the current settings leave, nothing changed', () =>
    withSim({ seed: 7 }, async (sim) => {
      const set = affinitySets(sim);
      const args = ['tune', '--scenario', 'disk-insert', '--constraint', 'sessions>=100', '--budget', '2m', '--affinity', 'numa:1'];
      const r = await mainCli([...args, '--batch-size', '1', '--trial', '2s', '--warmup', '0s'], env(sim, tmp('state')));
      assert.equal(r.code, 2, r.output);
      assert.match(r.stderr, /No session count is left to try for the current settings: sessions>=100 against 1 to 40 sessions/);
      assert.match(r.stderr, /How to fix: /);
      assert.deepEqual(set, []);
    }));

  it('--constraint throughput>=999999999 no trial meets: says so with the best reached, exit 1, no winner', () =>
    withSim({ seed: 7 }, async (sim) => {
      const r = await mainCli(
        ['tune', '--scenario', 'disk-insert', '--constraint', 'throughput>=999999999', ...QUICK, '--out', path.join(tmp('tu'), 'out')],
        env(sim, tmp('state')),
      );
      assert.equal(r.code, 1, r.output);
      assert.match(
        r.stdout,
        /The search found no result: no trial met the constraints \(throughput >= 999,999,999\); the best reached [\d,]+ rows\/s/,
      );
      assert.doesNotMatch(r.stdout, /^Winner:/m);
    }));
});
