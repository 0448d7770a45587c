// Gates that know noise: each gate judged per cell (an arm at a thread count) on the 95% interval over its
// repetitions (pass, fail, inconclusive with the repetitions that would settle it), against a saved baseline as a
// ratio with its interval, and the exit code those outcomes make. Synthetic cells with known values.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mean, sampleStandardDeviation } from 'simple-statistics';
import { evaluateGates, parseGate, GateError } from '../../src/shared/gates';
import { decide, repetitionsToSettle, settleFigure, settleRatio } from '../../src/shared/gateDecision';
import { estimate, tCritical } from '../../src/shared/repeats';
import chisqQuantile from '@stdlib/stats-base-dists-chisquare-quantile';
import { applyGates } from '../../src/cli/gates';
import { EXIT } from '../../src/cli/exitCodes';
import { readBaseline } from '../../src/cli/precheck';
import { againstBaseline, cellName, compareExperiments, workloadDifference } from '../../src/shared/experimentCompare';
import type { Experiment, RunRecord } from '../../src/shared/experiment';
import { experiment, runRecord } from '../helpers/builders';
import { tmp } from '../helpers/common';

/** One cell's repetitions: each run's throughput (and LOGCACHE_ACCESS spins per row) as given. */
function cell(rates: number[], o: { threads?: number; arm?: string; spins?: number[]; first?: number } = {}): RunRecord[] {
  return rates.map((rate, i) => {
    const r = runRecord((o.first ?? 0) + i, o.threads ?? 8, { latency: true });
    r.repetition = i + 1;
    if (o.arm) r.arm = { ...r.arm, id: o.arm, label: `arm ${o.arm}` };
    r.derived = { ...r.derived, rowsPerSec: rate, spinsPerRow: o.spins ? { LOGCACHE_ACCESS: o.spins[i] } : {} };
    return r;
  });
}

const judge = (gate: string, runs: RunRecord[], baseline: RunRecord[] | null = null) => evaluateGates([parseGate(gate)], runs, baseline);
const STEADY = [24000, 24300, 23800, 24100, 24200];

describe('gates on noise: the three outcomes', () => {
  it('decides on both ends of the interval: all inside passes, all outside fails, a straddle is inconclusive', () => {
    const iv = { low: 90, high: 110 };
    assert.equal(decide('>=', 100, iv, 80), 'pass');
    assert.equal(decide('>=', 100, iv, 120), 'fail');
    assert.equal(decide('>=', 100, iv, 100), 'inconclusive');
    assert.equal(decide('<', 100, iv, 120), 'pass');
    assert.equal(decide('<', 100, iv, 80), 'fail');
    assert.equal(decide('<=', 100, iv, 95), 'inconclusive');
    // '=' and '!=' decide on the point; a cell of one run (no interval) decides nothing, however clear its value.
    assert.equal(decide('=', 100, iv, 100), 'pass');
    assert.equal(decide('!=', 100, iv, 100), 'fail');
    assert.equal(decide('>=', 100, null, 100), 'inconclusive');
    assert.equal(decide('>=', 100, null, 1), 'inconclusive');
  });

  it('a floor far below the interval passes, far above fails, inside is inconclusive; each says its interval and runs', () => {
    const runs = cell(STEADY);
    const [pass] = judge('rows_per_sec>=20000', runs);
    assert.equal(pass.outcome, 'pass');
    assert.equal(pass.ok, true);
    assert.equal(pass.run, '8 threads');
    assert.match(pass.actual, /^24,0\d\d \[23,\d{3}, 24,\d{3}\]$/);
    assert.equal(pass.note, '5 runs');
    const [fail] = judge('rows_per_sec>=30000', runs);
    assert.equal(fail.outcome, 'fail');
    const e = estimate(STEADY);
    const [open] = judge(`rows_per_sec>=${Math.round(e.value as number) + 200}`, runs);
    assert.equal(open.outcome, 'inconclusive');
    assert.equal(open.ok, false);
    assert.match(open.settle!, /^about \d+ to \d+ more repetitions \(\d+ to \d+ in all\) would settle it$/);
    // A ceiling the same way round.
    assert.equal(judge('rows_per_sec<30000', runs)[0].outcome, 'pass');
    assert.equal(judge('rows_per_sec<20000', runs)[0].outcome, 'fail');
    assert.equal(judge(`rows_per_sec<${Math.round(e.value as number)}`, runs)[0].outcome, 'inconclusive');
  });

  it('a cell of one run decides nothing: inconclusive, with no interval and what it needs', () => {
    const [r] = judge('rows_per_sec>=20000', cell([24000]));
    assert.equal(r.outcome, 'inconclusive');
    assert.equal(r.actual, '24,000');
    assert.equal(r.note, '1 run: no interval');
    assert.match(r.settle!, /a gate needs 2 repetitions or more: use --repeat auto/);
    assert.equal(judge('rows_per_sec>=24001', cell([24000]))[0].outcome, 'inconclusive');
    assert.equal(judge('rows_per_sec>=1', cell([24000]))[0].outcome, 'inconclusive');
  });

  it('judges each arm at each thread count apart, naming the cell', () => {
    const runs = [...cell([24000, 24100, 23900]), ...cell([9000, 9100, 8900], { threads: 2, first: 3 })];
    const res = judge('rows_per_sec>=20000', runs);
    assert.deepEqual(
      res.map((r) => [r.run, r.outcome]),
      [
        ['8 threads', 'pass'],
        ['2 threads', 'fail'],
      ],
    );
    const arms = judge('rows_per_sec>=20000', [...cell([24000, 24100]), ...cell([9000, 9100], { arm: 'other', first: 2 })]);
    assert.equal(arms[1].run, '8 threads (arm other)');
  });

  it('a failed repetition fails its cell, naming it; a latency missing in one repetition fails it too', () => {
    const runs = cell(STEADY);
    runs[2].status = 'failed';
    runs[2].failedReason = 'every call failed';
    const [r] = judge('rows_per_sec>=20000', runs);
    assert.equal(r.outcome, 'fail');
    assert.equal(r.actual, 'repetition 3 failed (every call failed)');
    const again = cell(STEADY);
    again[1].latency = null;
    assert.match(judge('p99<1s', again)[0].actual, /^repetition 2: no per-call latency/);
  });

  it('errors are counts judged run by run: every repetition must hold, the ones that do not are named', () => {
    const runs = cell([100, 100, 100]);
    runs[1].sessionFailures = [{ session: 1, error: 'x' } as never, { session: 2, error: 'y' } as never];
    const [r] = judge('errors=0', runs);
    assert.equal(r.outcome, 'fail');
    assert.equal(r.actual, '2 in repetition 2');
    const [ok] = judge('errors<=2', runs);
    assert.equal(ok.outcome, 'pass');
    assert.equal(ok.actual, '0 to 2');
    assert.equal(judge('errors=0', cell([1, 2, 3]))[0].actual, '0 in every run');
  });

  it('a per-row figure that is 0 in a repetition falls back to the mean, and still decides', () => {
    const runs = cell([100, 100, 100, 100], { spins: [0, 2, 1, 1] });
    assert.equal(judge('LOGCACHE_ACCESS.spins_per_row<10', runs)[0].outcome, 'pass');
    assert.equal(judge('LOGCACHE_ACCESS.spins_per_row>10', runs)[0].outcome, 'fail');
    const open = judge('LOGCACHE_ACCESS.spins_per_row<1.5', runs)[0];
    assert.equal(open.outcome, 'inconclusive');
    assert.match(open.settle!, /would settle it/);
  });
});

describe('gates on noise: repetitions that would settle an inconclusive gate', () => {
  it('is the first n at which t(0.975, n-1) * sdLog / sqrt(n) falls below |ln(value / limit)|', () => {
    const values = [100, 106, 95, 103];
    const limit = 97;
    const logs = values.map(Math.log);
    const s = sampleStandardDeviation(logs);
    const distance = Math.abs(mean(logs) - Math.log(limit));
    const half = (n: number) => (tCritical(n - 1) * s) / Math.sqrt(n);
    const n = repetitionsToSettle(distance, half, values.length)!;
    assert.ok(n > values.length);
    assert.ok(half(n) < distance, 'settled at n');
    assert.ok(half(n - 1) >= distance || n - 1 === values.length, 'not before');
    // The far end of the range: the same plan at the spread's 80% upper confidence bound, s sqrt(3 / chi2(0.2, 3)).
    const up = (s * Math.sqrt(3 / chisqQuantile(0.2, 3))) / s;
    const m = repetitionsToSettle(distance, (k) => half(k) * up, values.length)!;
    assert.ok(m > n);
    assert.equal(
      settleFigure(values, limit),
      `about ${n - values.length} to ${m - values.length} more repetitions (${n} to ${m} in all) would settle it`,
    );
  });
  it('says when the figure sits on the limit, and when the noise is too large for any practical number', () => {
    const values = [100, 110, 90];
    const g = estimate(values).value as number;
    assert.match(settleFigure(values, g), /sits on the limit/);
    assert.match(settleFigure([100, 300, 30], g * 1.0001), /noise is too large/);
  });
  it('against a baseline, only this side repeats: a baseline too noisy to settle it is said so', () => {
    assert.match(settleRatio([100, 140, 70], [100, 101, 99], 0.97), /baseline's 3 runs are too few/);
    assert.match(
      settleRatio([100, 101, 99], [100, 104, 96], 0.97),
      /^about \d+ to \d+ more repetitions \(\d+ to \d+ in all\) would settle it$/,
    );
  });
});

describe('gates on noise: against a baseline', () => {
  it('parses baseline, baseline + N% and baseline - N% as a factor on the baseline', () => {
    assert.deepEqual(parseGate('rows_per_sec >= baseline - 5%'), {
      text: 'rows_per_sec >= baseline - 5%',
      metric: { kind: 'rate', stat: 'rows_per_sec' },
      op: '>=',
      value: 0.95,
      against: 'baseline',
    });
    assert.equal(parseGate('p99 <= baseline + 10%').value, 1.1);
    assert.equal(parseGate('p99 <= baseline + 200%').value, 3);
    assert.deepEqual(parseGate('LOGCACHE_ACCESS.spins_per_row<=baseline').metric, {
      kind: 'per-row',
      name: 'LOGCACHE_ACCESS',
      stat: 'spins_per_row',
    });
    assert.equal(parseGate('LOGCACHE_ACCESS.spins_per_row<=baseline').value, 1);
    assert.equal(parseGate('rows_per_sec>=20000').against, undefined);
  });
  it('refuses errors against a baseline, = and !=, a margin without % or past 99%, naming the gate', () => {
    for (const [text, why] of [
      ['errors<=baseline', /judged run by run against a number/],
      ['p99=baseline', /compare with < <= > >=/],
      ['rows_per_sec>=baseline-150%', /below 100%/],
      ['rows_per_sec>=baseline+-5%', /write the margin as a percentage/],
      ['rows_per_sec>=baseline-5', /not a gate/],
      ['rows_per_sec>=baselines', /not a gate/],
    ] as const)
      assert.throws(
        () => parseGate(text),
        (e: Error) => e instanceof GateError && e.message.includes(`"${text}"`) && why.test(e.message),
        text,
      );
  });
  it('passes, fails and is inconclusive on the ratio to the matched cell, with its interval', () => {
    const baseline = cell(STEADY);
    const same = judge('rows_per_sec >= baseline - 5%', cell([24100, 23900, 24200, 24000, 24150]), baseline)[0];
    assert.equal(same.outcome, 'pass');
    assert.match(same.actual, /^24,\d{3} against the baseline's 24,\d{3}: [-+]\d\.\d% \[-\d\.\d%, \+\d\.\d%\]$/);
    assert.equal(same.note, '5 runs; the baseline 5');
    const slower = judge('rows_per_sec >= baseline - 5%', cell(STEADY.map((v) => v * 0.7)), baseline)[0];
    assert.equal(slower.outcome, 'fail');
    assert.match(slower.actual, /: -30%/);
    const edge = judge('rows_per_sec >= baseline - 5%', cell(STEADY.map((v, i) => v * (i % 2 ? 0.9 : 1.0))), baseline)[0];
    assert.equal(edge.outcome, 'inconclusive');
    assert.match(edge.settle!, /would settle it|too few|within its noise of the limit/);
    // A ceiling on a per-row figure: the spins went up 40%.
    const spins = judge(
      'LOGCACHE_ACCESS.spins_per_row <= baseline',
      cell(STEADY, { spins: [14, 14.2, 13.9, 14.1, 14] }),
      cell(STEADY, { spins: [10, 10.1, 9.9, 10, 10.05] }),
    )[0];
    assert.equal(spins.outcome, 'fail');
  });
  it('one run on this side decides nothing against the baseline, however many the baseline has', () => {
    const [r] = judge('rows_per_sec >= baseline - 5%', cell([23000]), cell([24000]));
    assert.equal(r.outcome, 'inconclusive');
    assert.equal(r.note, '1 run: no interval');
    assert.equal(judge('rows_per_sec >= baseline - 5%', cell([22000]), cell(STEADY))[0].outcome, 'inconclusive');
  });
  it('a cell the baseline lacks fails, saying which thread counts and arms the baseline has', () => {
    const [r] = judge('rows_per_sec >= baseline', cell([24000, 24100], { threads: 16 }), [
      ...cell([100, 101], { threads: 2 }),
      ...cell([200, 201], { threads: 4, first: 2 }),
    ]);
    assert.equal(r.outcome, 'fail');
    assert.equal(r.actual, 'the baseline has no run at 16 threads (it has runs at 2, 4 threads)');
    const [arm] = judge('rows_per_sec >= baseline', cell([24000], { arm: 'b' }), cell([24000], { arm: 'a' }));
    assert.equal(arm.actual, 'the baseline has no run of arm b at 8 threads (it has arm a at 8 threads)');
  });
  it('a baseline figure of 0 (a spinlock that did not spin) makes the limit 0 itself', () => {
    const [r] = judge(
      'LOGCACHE_ACCESS.spins_per_row <= baseline',
      cell([100, 100], { spins: [3, 4] }),
      cell([100, 100], { spins: [0, 0] }),
    );
    assert.equal(r.outcome, 'fail');
    assert.match(r.actual, /against the baseline's 0$/);
  });
});

describe('gates on noise: the exit code', () => {
  const exp = (runs: RunRecord[]): Experiment => ({ ...experiment('e', [8]), runs });
  const run = (gates: string[], runs: RunRecord[], code = 0) => {
    let out = '';
    let err = '';
    const c = applyGates(
      gates.map(parseGate),
      exp(runs),
      code,
      (s) => (out += s),
      (s) => (err += s),
    );
    return { code: c, out, err };
  };
  it('0 when all pass, 7 when one is inconclusive and none failed, 1 when one failed (over an inconclusive one)', () => {
    const runs = cell(STEADY);
    const middle = `rows_per_sec>=${Math.round(estimate(STEADY).value as number) + 200}`;
    assert.equal(run(['rows_per_sec>=20000'], runs).code, EXIT.ok);
    const open = run(['rows_per_sec>=20000', middle], runs);
    assert.equal(open.code, EXIT.inconclusive);
    assert.equal(EXIT.inconclusive, 7);
    assert.match(open.out, /^ {2}pass {2}rows_per_sec>=20000 {2}at 8 threads: 24,\d{3} \[23,\d{3}, 24,\d{3}\] \(5 runs\)$/m);
    assert.match(
      open.out,
      /^ {2}INCONCLUSIVE {2}rows_per_sec>=\d+ {2}at 8 threads: .* \(5 runs\): about \d+ to \d+ more repetitions \(\d+ to \d+ in all\) would settle it$/m,
    );
    assert.match(open.err, /gate inconclusive at this noise: "rows_per_sec>=\d+"/);
    const failed = run(['rows_per_sec>=30000', middle], runs);
    assert.equal(failed.code, EXIT.failed);
    // The closing line says which gate and where, once; why is in the Gates lines, not repeated.
    assert.equal(failed.err, 'spinlab: gate failed: "rows_per_sec>=30000" at 8 threads (why: the Gates section above)\n');
    assert.match(
      open.err,
      /^spinlab: gate inconclusive at this noise: "rows_per_sec>=\d+" at 8 threads \(what would settle it: the Gates section above\)\n$/,
    );
    // A run that already failed keeps its own code.
    assert.equal(run([middle], runs, 130).code, 130);
  });
});

describe('gates on noise: --baseline checked before anything connects', () => {
  const saved = (e: Experiment) => {
    const dir = tmp('baseline');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'experiment.json'), JSON.stringify(e));
    return dir;
  };
  it('reads a saved experiment, from its folder or its experiment.json', () => {
    const dir = saved(experiment('b', [2, 4]));
    const problems: string[] = [];
    assert.equal(readBaseline(dir, [], problems)?.experiment.id, 'b');
    assert.equal(readBaseline(path.join(dir, 'experiment.json'), [], problems)?.dir, path.join(dir, 'experiment.json'));
    assert.deepEqual(problems, []);
  });
  it('refuses a missing folder, a record with no completed run, and a gate on the baseline without --baseline', () => {
    const problems: string[] = [];
    assert.equal(readBaseline(path.join(tmp('baseline'), 'nowhere'), [], problems), null);
    assert.match(problems[0], /^--baseline .*nowhere: .*does not exist/);
    const failed = experiment('f', [2]);
    failed.runs[0].status = 'failed';
    assert.equal(readBaseline(saved(failed), [], problems), null);
    assert.match(problems[1], /no completed run to compare with/);
    assert.equal(readBaseline(undefined, [parseGate('rows_per_sec >= baseline - 5%'), parseGate('p99<5ms')], problems), null);
    assert.deepEqual(problems.slice(2), [
      '--assert "rows_per_sec >= baseline - 5%" compares with a baseline: give --baseline DIR (a saved experiment), or write a number.',
    ]);
  });
  it('refuses a latency gate against a baseline that measured no latency', () => {
    const problems: string[] = [];
    const serverLoop = saved(experiment('s', [2]));
    assert.ok(readBaseline(serverLoop, [parseGate('p99 <= baseline + 10%'), parseGate('rows_per_sec >= baseline')], problems));
    assert.equal(problems.length, 1);
    assert.match(problems[0], /^--assert "p99 <= baseline \+ 10%": the baseline .* has no per-call latency/);
    const clientLoop: string[] = [];
    readBaseline(saved(experiment('c', [2], { latency: true })), [parseGate('p99 <= baseline + 10%')], clientLoop);
    assert.deepEqual(clientLoop, []);
  });
});

describe('one experiment against another (spinlab compare, the "Against the baseline" section)', () => {
  const exp = (runs: RunRecord[], over: Partial<Experiment> = {}): Experiment => ({ ...experiment('e', [8]), runs, ...over });
  it('matches cells by arm and thread count and says B against A with its interval', () => {
    const a = exp([...cell(STEADY), ...cell([9000, 9100, 8900], { threads: 2, first: 5 })]);
    const b = exp([...cell(STEADY.map((v) => v * 0.85)), ...cell([5000], { threads: 16, first: 5 })]);
    const c = compareExperiments(a, b);
    assert.deepEqual(
      c.cells.map((x) => x.threads),
      [8],
    );
    assert.match(
      c.cells[0].comparison.verdict.text,
      /^B is slower by 15% \(95% interval \d+\.?\d*% to \d+\.?\d*%\)\. The two sides ran in separate sessions, not interleaved: the interval includes a between-session term/,
    );
    assert.deepEqual(c.onlyA.map(cellName), ['2 threads']);
    assert.deepEqual(c.onlyB.map(cellName), ['16 threads']);
    assert.equal(c.note, null);
  });
  it('says this experiment against the baseline, cell by cell, and notes a different workload', () => {
    const baseline = exp(cell(STEADY));
    const slower = againstBaseline(exp(cell(STEADY.map((v) => v * 0.88))), baseline);
    assert.equal(slower.verdicts[0].cell, '8 threads');
    assert.match(slower.verdicts[0].verdict.text, /^This experiment is slower than the baseline by 12% \(95% interval/);
    const same = againstBaseline(exp(cell([24100, 23900, 24000])), baseline);
    assert.match(
      same.verdicts[0].verdict.text,
      /^No difference in throughput detectable at this noise \(this experiment against the baseline, /,
    );
    const other = againstBaseline(exp(cell(STEADY), { preset: { id: 'writelog' } as never }), baseline);
    assert.equal(
      other.note,
      'The baseline ran scenario disk-insert (batch_size=1, seed_rows=100000), this experiment preset writelog: this compares different workloads.',
    );
    assert.equal(workloadDifference(baseline, exp([], { load: { ...baseline.load, mode: 'client-loop' } }))?.includes('client-loop'), true);
  });
});
