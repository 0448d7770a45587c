// The CLI's report of a tune: leaderboard with intervals and states, the rounds, verdict, reasons with their posts,
// the T-SQL that applies the winner (and that it was not applied), the budget against the time taken.
import assert from 'node:assert/strict';
import { tuneReport } from '../../src/engine/tuneReport';
import { POSTS } from '../../src/shared/posts';
import { budgetLine, minutesText } from '../../src/shared/tuneText';
import { tuneExperiment } from '../helpers/tuneExperiment';

const C0 = { config: 'c0', threads: 8 };
const C1 = { config: 'c1', threads: 8 };

describe('tune: the CLI report', () => {
  const e = tuneExperiment();
  const text = tuneReport(e).join('\n');

  it('prints the leaderboard as a table, best first, with the objective as value [low, high] in its unit and each state', () => {
    const lines = text.split('\n');
    const head = lines.findIndex((l) => /^#\s+Configuration\s+Sessions\s+Throughput \(rows\/s\) \[95%\]\s+Trials\s+State$/.test(l));
    assert.ok(head >= 0, text);
    const rows = lines.slice(head + 2, head + 6);
    assert.match(rows[0], /^1\s+log writer's node \(numa:0\)\s+8\s+[\d,]+ \[[\d,]+, [\d,]+\]\s+5\s+winner$/);
    assert.match(rows[1], /^2\s+without core 0 \(exclude-core0\)\s+8\s+.*\s+runner-up$/);
    assert.match(rows[2], /^3\s+current settings\s+8\s/);
    assert.match(rows[3], /^4\s+other node \(numa:1\)\s+8\s+.*\s+dropped in round 1$/);
    assert.match(text, /Dropped:\n {2}other node \(numa:1\), round 1: slower than the leader by 50%/);
  });

  it('gives each round in a line, with what it dropped', () => {
    assert.match(text, /Round 1 \(screen\): 8 trials; dropped other node \(numa:1\)\n/);
    assert.match(text, /Round 2 \(race\): 6 trials; run-to-run noise 5\.0%\n/);
    assert.match(text, /Round 3 \(confirm\): 2 trials/);
  });

  it('gives the verdict against the current settings, the certainty, and the reasons with their post cited', () => {
    assert.match(
      text,
      /Winner: log writer's node \(numa:0\) at 8 sessions, against the current settings \(current settings at 8 sessions\)\./,
    );
    assert.ok(text.includes(e.tune!.result!.verdict) && text.includes(e.tune!.result!.certainty));
    assert.match(text, /Why:\n {2}- LOGCACHE_ACCESS spins per row 4\.\dx lower .* \(Chris Adkin, “NUMA, The LOGCACHE_ACCESS Spinlock/);
    assert.ok(text.includes(POSTS['numa-logcache-access'].title));
  });

  it('shows the T-SQL that applies the winner and says it was NOT applied, unless it was', () => {
    assert.match(text, /NOT applied.*\n {2}ALTER SERVER CONFIGURATION SET PROCESS AFFINITY NUMANODE = 0;/);
    const applied = tuneExperiment();
    applied.tune!.result!.applied = true;
    const t2 = tuneReport(applied).join('\n');
    assert.doesNotMatch(t2, /NOT applied/);
    assert.match(t2, /left applied/);
  });

  it('says what more time would settle when the search left it open', () => {
    assert.match(text, /More time: nothing left to settle\./);
    const open = tuneExperiment();
    open.tune!.result!.moreTime = 'About 4 more trials of each leader would tell them apart.';
    assert.match(tuneReport(open).join('\n'), /More time: About 4 more trials/);
  });

  it('never closes with "nothing left to settle" beside an open verdict, in a record saved before the confirmation stage', () => {
    // An older record: the verdict from the selection's trials, undecided, and no moreTime.
    const old = tuneExperiment();
    const r = old.tune!.result!;
    r.versus = { method: 'pooled-log', ratio: 2.2, interval: { low: 0.6, high: 8.07 }, nA: 1, nB: 6, sdLog: 0.4 };
    r.verdict = 'No difference in throughput detectable at this noise (95% interval -40% to +707%).';
    r.moreTime = null;
    const t2 = tuneReport(old).join('\n');
    assert.doesNotMatch(t2, /nothing left to settle/);
    assert.match(t2, /More time: the verdict against the current settings is open; `spinlab rerun`/);
    // A decided one, with the selection's estimate beside the confirmation's verdict.
    r.confirmation = { pairs: 12, ratio: 2.1, interval: { low: 1.9, high: 2.3 }, sdLog: 0.1, planned: 12, a: C0, b: C1 };
    r.selection = "The search's own estimate, from the trials that chose the winner (biased upward: the winner's curse): ...";
    const t3 = tuneReport(old).join('\n');
    assert.match(t3, /More time: nothing left to settle\./);
    assert.ok(t3.includes(r.selection), t3);
  });

  it('gives the budget against the time taken, and the stop reason', () => {
    assert.match(text, /Budget 10m 0s; took 8m 32s \(85% of it\)\.\nStopped: the budget was spent\.$/);
    assert.equal(minutesText(45_000), '45s');
    assert.equal(budgetLine({ budgetMs: 60_000, elapsedMs: null }), 'Budget 1m 0s; time taken not recorded.');
  });

  it('a search without a result says why it stopped, with the standings it reached', () => {
    const c = tuneExperiment();
    c.tune!.result = null;
    c.tune!.stopReason = 'cancelled';
    const t = tuneReport(c).join('\n');
    assert.match(t, /The search found no result: cancelled\./);
    assert.match(t, /other node \(numa:1\)/);
  });

  it('names the constraints the winner had to meet', () => {
    const c = tuneExperiment();
    c.tune!.constraints = [
      { figure: 'p99Us', op: '<=', value: 2000 },
      { figure: 'sessions', op: '<=', value: 16 },
    ];
    assert.match(
      tuneReport(c).join('\n'),
      /^Objective: Throughput \(higher is better\)\.\nConstraints: p99 latency \(µs\) <= 2,000; sessions <= 16\.\n/,
    );
    assert.doesNotMatch(text, /Constraints/);
  });
});
