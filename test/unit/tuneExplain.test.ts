// Why a tune's winner wins: the spinlocks, waits and latches that moved between the current settings' trials and the
// winner's, on seeded synthetic trials (test/helpers/tuneExperiment.ts), each with the change and the post behind it.
import assert from 'node:assert/strict';
import type { RunRecord } from '../../src/shared/experiment';
import type { TuneConfig } from '../../src/shared/tune';
import { changedWords, tuneReasons } from '../../src/shared/tuneExplain';
import { lognormalFactors } from '../helpers/repeatedRuns';
import { TUNE_CONFIGS, tuneExperiment, tuneTrial, type TrueConfig } from '../helpers/tuneExperiment';

const cfg = (id: string) => TUNE_CONFIGS.find((c) => c.id === id)!;

/** `n` trials of each side at 8 sessions, alternating. */
function trials(a: [TuneConfig, TrueConfig], b: [TuneConfig, TrueConfig], n: number, cv = 0.05): RunRecord[] {
  const noise = lognormalFactors(5, cv);
  const out: RunRecord[] = [];
  for (let rep = 1; rep <= n; rep++) for (const [c, t] of rep % 2 ? [a, b] : [b, a]) out.push(tuneTrial(out.length, c, 8, rep, t, noise));
  return out;
}

const truth = (spins: Record<string, number>, waits: Record<string, number> = {}, latches: Record<string, number> = {}): TrueConfig => ({
  rowsPerSec: { 8: 20_000 },
  spinsPerRow: spins,
  waitMsPerRow: waits,
  latchMsPerRow: latches,
});

const W = { config: 'c1', threads: 8 };
const C = { config: 'c0', threads: 8 };

describe('tune: why the winner wins', () => {
  it("names LOGCACHE_ACCESS 4.2x lower with the workers on the log writer's node, citing the NUMA post", () => {
    const e = tuneExperiment();
    const r = tuneReasons(e, W, C);
    assert.ok(r.length >= 1, JSON.stringify(r));
    assert.equal(r[0].figure, 'spinsPerRow:LOGCACHE_ACCESS');
    assert.match(
      r[0].text,
      /^LOGCACHE_ACCESS spins per row 4\.\dx lower \(95% interval .*\) with the workers on the log writer's node \(numa:0\)$/,
    );
    assert.ok(r[0].ratio! > 0.2 && r[0].ratio! < 0.26, String(r[0].ratio));
    assert.equal(r[0].post, 'numa-logcache-access');
    // XDESMGR and WRITELOG did not move: no reason for them.
    assert.ok(!r.some((x) => /XDESMGR|WRITELOG/.test(x.figure)), JSON.stringify(r));
  });

  it('cites the large-pages post when the winner leaves core 0 out', () => {
    const runs = trials([cfg('c0'), truth({ LOGCACHE_ACCESS: 4 })], [cfg('c3'), truth({ LOGCACHE_ACCESS: 2 })], 3);
    const r = tuneReasons({ runs, tune: { configs: TUNE_CONFIGS } }, { config: 'c3', threads: 8 }, C);
    assert.equal(r[0].post, 'large-pages');
    assert.match(r[0].text, /with the workers without core 0 \(exclude-core0\)/);
  });

  it('XDESMGR with more rows per transaction cites the big-box post; WRITELOG with delayed durability the WRITELOG post', () => {
    const bigger: TuneConfig = { ...cfg('c0'), id: 'c4', label: '4 rows/tx', batchSize: 4, delayedDurability: 'FORCED', current: false };
    const configs = [...TUNE_CONFIGS, bigger];
    const runs = trials([cfg('c0'), truth({ XDESMGR: 3 }, { WRITELOG: 0.4 })], [bigger, truth({ XDESMGR: 1 }, { WRITELOG: 0.02 })], 3);
    const r = tuneReasons({ runs, tune: { configs } }, { config: 'c4', threads: 8 }, C);
    const by = (f: string) => r.find((x) => x.figure === f)!;
    assert.equal(by('waitMsPerRow:WRITELOG').post, 'writelog-at-scale');
    assert.equal(by('spinsPerRow:XDESMGR').post, 'xdesmgr-big-box');
    assert.match(by('spinsPerRow:XDESMGR').text, /with 4 rows per transaction instead of 1 and delayed durability FORCED$/);
    // Largest move first: WRITELOG 20x before XDESMGR 3x.
    assert.equal(r[0].figure, 'waitMsPerRow:WRITELOG');
  });

  it('gives at most 4 reasons, the largest moves first, spinlocks, waits and latches alike', () => {
    const a = truth({ A: 10, B: 10, C: 10 }, { W1: 1, W2: 1 }, { L1: 1 });
    const b = truth({ A: 5, B: 1, C: 10 }, { W1: 0.25, W2: 0.7 }, { L1: 0.125 });
    const r = tuneReasons({ runs: trials([cfg('c0'), a], [cfg('c1'), b], 3), tune: { configs: TUNE_CONFIGS } }, W, C);
    assert.deepEqual(
      r.map((x) => x.figure),
      ['spinsPerRow:B', 'latchMsPerRow:L1', 'waitMsPerRow:W1', 'spinsPerRow:A'],
    );
  });

  it('adds a CPU per row line after the named reasons when CPU per row moved', () => {
    const a = { ...truth({ LOGCACHE_ACCESS: 4 }), cpuMsPerRow: 0.1 };
    const b = { ...truth({ LOGCACHE_ACCESS: 1 }), cpuMsPerRow: 0.06 };
    const r = tuneReasons({ runs: trials([cfg('c0'), a], [cfg('c1'), b], 3), tune: { configs: TUNE_CONFIGS } }, W, C);
    assert.deepEqual(
      r.map((x) => x.figure),
      ['spinsPerRow:LOGCACHE_ACCESS', 'cpuMsPerRow'],
    );
    assert.match(r[1].text, /^CPU per row lower by 4\d% /);
  });

  it('leaves out a move inside the noise: equal sides give no reason', () => {
    const t = truth({ LOGCACHE_ACCESS: 3 }, { WRITELOG: 0.1 });
    const r = tuneReasons({ runs: trials([cfg('c0'), t], [cfg('c1'), t], 3), tune: { configs: TUNE_CONFIGS } }, W, C);
    assert.deepEqual(r, []);
  });

  it('leaves out a name too small to matter: under 5% of its kind on both sides, however far it moved', () => {
    const a = truth({ LOGCACHE_ACCESS: 10, TINY: 0.2 });
    const b = truth({ LOGCACHE_ACCESS: 10, TINY: 0.05 });
    const r = tuneReasons({ runs: trials([cfg('c0'), a], [cfg('c1'), b], 3), tune: { configs: TUNE_CONFIGS } }, W, C);
    assert.deepEqual(r, []);
  });

  it('leaves out a move under 10%, however sure its interval', () => {
    const a = truth({ LOGCACHE_ACCESS: 10, XDESMGR: 5 });
    const b = truth({ LOGCACHE_ACCESS: 10, XDESMGR: 4.75 });
    const runs = trials([cfg('c0'), a], [cfg('c1'), b], 5, 0.005);
    assert.deepEqual(tuneReasons({ runs, tune: { configs: TUNE_CONFIGS } }, W, C), []);
  });

  it('leaves out a name seen in one repeated run only (no interval): a stray wait is not a reason', () => {
    const runs = trials([cfg('c0'), truth({ LOGCACHE_ACCESS: 3 })], [cfg('c1'), truth({ LOGCACHE_ACCESS: 3 })], 3);
    const first = runs.find((x) => x.arm.id === 'c0')!;
    first.totals = { ...first.totals, waits: { PAGEIOLATCH_SH: { waitMs: first.rows * 5, count: 3, signalMs: 0 } } };
    const r = tuneReasons({ runs, tune: { configs: TUNE_CONFIGS } }, W, C);
    assert.deepEqual(r, []);
  });

  it('with one trial a side: only a 2x move counts, and it says "1 run each"', () => {
    const runs = trials(
      [cfg('c0'), truth({ LOGCACHE_ACCESS: 4, XDESMGR: 1.3 })],
      [cfg('c1'), truth({ LOGCACHE_ACCESS: 1, XDESMGR: 1 })],
      1,
      0.01,
    );
    const r = tuneReasons({ runs, tune: { configs: TUNE_CONFIGS } }, W, C);
    assert.deepEqual(
      r.map((x) => x.figure),
      ['spinsPerRow:LOGCACHE_ACCESS'],
    );
    assert.match(r[0].text, /4\.\dx lower with the workers on the log writer's node \(numa:0\) \(1 run each: no interval\)$/);
  });

  it('no reasons when the winner is the current settings, or a side has no completed trial', () => {
    const e = tuneExperiment();
    assert.deepEqual(tuneReasons(e, C, C), []);
    assert.deepEqual(tuneReasons(e, W, null), []);
    assert.deepEqual(tuneReasons(e, W, { config: 'c0', threads: 16 }), []);
  });
});

describe("tune: the affinity in a reason's words, from the search's own reasons", () => {
  const c0 = TUNE_CONFIGS[0];
  const words = (affinity: string, affinityWhy: string) =>
    changedWords(
      c0,
      { ...c0, id: 'c9', affinity, affinityWhy, current: false },
      { config: 'c0', threads: 8 },
      { config: 'c9', threads: 8 },
    );
  it('puts the spec where the reason names the node, and once', () => {
    assert.equal(words('numa:0', "the log writer's node (node 0)"), "with the workers on the log writer's node (numa:0)");
    assert.equal(
      words('numa:1', "another node than the log writer's (node 1)"),
      "with the workers on another node than the log writer's (numa:1)",
    );
    assert.equal(words('auto', 'all CPUs (AUTO)'), 'with the workers on all CPUs (AUTO)');
    assert.equal(words('cpu:2-5', 'asked for (cpu:2-5)'), 'with the workers on cpu:2-5');
    assert.equal(
      words('exclude-core0', 'without core 0, where the log writer and system tasks run'),
      'with the workers without core 0, where the log writer and system tasks run (exclude-core0)',
    );
  });
});

describe('tune reasons, one knob at a time', () => {
  // Current: all CPUs at 1 row/tx; winner: without core 0 at 10 rows/tx; the search also tried all CPUs at 10 rows/tx.
  // The model puts LOGCACHE_ACCESS down to the affinity alone and XDESMGR down to the rows per transaction alone.
  const cfg = (id: string, affinity: string | null, batchSize: number): TuneConfig => ({
    id,
    label: `${affinity ?? 'current affinity'} · ${batchSize} rows/tx`,
    affinity,
    affinityWhy: affinity ? 'without core 0, where the log writer and system tasks run' : "the server's current affinity",
    batchSize,
    delayedDurability: null,
    cpus: 16,
    sessions: [8],
    current: id === 'c0',
  });
  const configs = [cfg('c0', null, 1), cfg('c1', null, 10), cfg('c2', 'exclude-core0', 10)];
  const truth: Record<string, TrueConfig> = {
    c0: { rowsPerSec: { 8: 10_000 }, spinsPerRow: { LOGCACHE_ACCESS: 12, XDESMGR: 10 } },
    c1: { rowsPerSec: { 8: 50_000 }, spinsPerRow: { LOGCACHE_ACCESS: 12, XDESMGR: 1 } },
    c2: { rowsPerSec: { 8: 60_000 }, spinsPerRow: { LOGCACHE_ACCESS: 1, XDESMGR: 1 } },
  };
  const noise = lognormalFactors(3, 0.05);
  const runs = [0, 1, 2].flatMap((rep) => configs.map((c, i) => tuneTrial(rep * 3 + i, c, 8, rep + 1, truth[c.id], noise)));
  const reasons = tuneReasons({ runs, tune: { configs } }, { config: 'c2', threads: 8 }, { config: 'c0', threads: 8 });

  it('puts each move down to the knob that made it, with the post that describes it', () => {
    const lc = reasons.find((r) => r.figure === 'spinsPerRow:LOGCACHE_ACCESS')!;
    assert.match(lc.text, /^LOGCACHE_ACCESS spins per row 1\d(\.\d)?x lower .*with the workers without core 0/);
    assert.doesNotMatch(lc.text, /rows per transaction/, 'the affinity alone, against all CPUs at 10 rows/tx');
    assert.equal(lc.post, 'large-pages');
    const xd = reasons.find((r) => r.figure === 'spinsPerRow:XDESMGR')!;
    assert.match(xd.text, /^XDESMGR spins per row \d+(\.\d)?x lower .*with 10 rows per transaction instead of 1/);
    assert.doesNotMatch(xd.text, /core 0/, 'the rows per transaction alone (all CPUs at 1 and at 10 rows/tx)');
    assert.equal(xd.post, 'xdesmgr-big-box');
  });

  it('compares a knob pair only at a session count both ran; without one it says so, not a move across session counts', () => {
    // The search ran all CPUs at 10 rows/tx only at 4 sessions: no pair differs in one knob alone at the same count.
    const at4 = { ...truth.c1, rowsPerSec: { 4: 30_000 } };
    const n = lognormalFactors(3, 0.05);
    const mixed = [0, 1, 2].flatMap((rep) => [
      tuneTrial(rep * 3, configs[0], 8, rep + 1, truth.c0, n),
      tuneTrial(rep * 3 + 1, configs[1], 4, rep + 1, at4, n),
      tuneTrial(rep * 3 + 2, configs[2], 8, rep + 1, truth.c2, n),
    ]);
    const r = tuneReasons({ runs: mixed, tune: { configs } }, { config: 'c2', threads: 8 }, { config: 'c0', threads: 8 });
    assert.ok(
      r.every((x) => !/sessions instead of/.test(x.text)),
      `no knob compared across session counts:\n${r.map((x) => x.text).join('\n')}`,
    );
    const cannot = r.find((x) => x.figure.startsWith('knob:'))!;
    assert.match(cannot.text, /^What affinity and rows per transaction did on their own cannot be told: .*same session count/);
    assert.ok(
      r.some((x) => x.figure === 'spinsPerRow:LOGCACHE_ACCESS'),
      'the whole change still explains the move',
    );
  });
});
