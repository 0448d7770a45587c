// A tune's re-run is a confirmation A/B: its two arms from the record's configurations and result (knobs, rows per
// transaction, each side's session count), the plan that shows them, its verdict, and a confirmation run again.
import assert from 'node:assert/strict';
import type { Experiment } from '../../src/shared/experiment';
import type { TuneConfig } from '../../src/shared/tune';
import { confirmArms, confirmTitle, confirmVerdict, isConfirmation } from '../../src/engine/tuneConfirm';
import { planRerun } from '../../src/engine/notebook/plan';
import { ratioVerdict } from '../../src/shared/repeats';
import { lognormalFactors } from '../helpers/repeatedRuns';
import { TUNE_CONFIGS, TUNE_TRUTH, tuneExperiment, tuneTrial } from '../helpers/tuneExperiment';

const CTX = { server: 'lab:1433 as sa' };

function withWinner(c: Partial<TuneConfig>, threads = 8, current = { config: 'c0', threads: 8 }): Experiment {
  const e = tuneExperiment();
  const winner: TuneConfig = { ...TUNE_CONFIGS[1], ...c, id: 'c9', current: false };
  e.tune = { ...e.tune!, configs: [...TUNE_CONFIGS, winner], result: { ...e.tune!.result!, winner: { config: 'c9', threads }, current } };
  return e;
}

/** A confirmation's record: its two arms (the current settings, the winner) run 3 times each, interleaved. */
function confirmation(): Experiment {
  const noise = lognormalFactors(3, 0.03);
  const e = tuneExperiment();
  const runs = [1, 2, 3].flatMap((rep) =>
    (['current', 'winner'] as const).map((id, i) => {
      const r = tuneTrial(
        0,
        id === 'current' ? TUNE_CONFIGS[0] : TUNE_CONFIGS[1],
        8,
        rep,
        TUNE_TRUTH[id === 'current' ? 'c0' : 'c1'],
        noise,
      );
      return { ...r, index: (rep - 1) * 2 + i, arm: { ...r.arm, id, label: id } };
    }),
  );
  return { ...e, kind: 'experiment', tune: null, title: confirmTitle(e), runs, design: { repeat: 3, order: 'alternating', sequence: [] } };
}

describe('tune: the re-run confirms the winner against the current settings', () => {
  it("arms: A the current settings at its count, B the winner's knobs and rows per transaction at its own", () => {
    const [a, b] = confirmArms(
      withWinner({ affinity: 'numa:0', batchSize: 4, delayedDurability: 'FORCED' }, 16, { config: 'c0', threads: 4 }),
    );
    assert.deepEqual([a.id, a.threads, a.knobs, a.parameters.batch_size], ['current', [4], {}, 1]);
    assert.deepEqual(
      [b.id, b.threads, b.knobs, b.parameters.batch_size],
      ['winner', [16], { affinity: 'numa:0', delayedDurability: 'FORCED' }, 4],
    );
    assert.equal(b.parameters.seed_rows, 100000, "the record's other parameters are kept");
  });

  it('the current settings at another session count are a winner too; the same cell is nothing to confirm', () => {
    const e = tuneExperiment();
    e.tune!.result = { ...e.tune!.result!, winner: { config: 'c0', threads: 16 } };
    assert.deepEqual(
      confirmArms(e).map((x) => [x.id, x.threads[0], x.knobs]),
      [
        ['current', 8, {}],
        ['winner', 16, {}],
      ],
    );
    e.tune!.result = { ...e.tune!.result!, winner: { config: 'c0', threads: 8 } };
    assert.throws(() => confirmArms(e), /found the current settings best/);
  });

  it("the plan says it is a confirmation, with each arm's knobs; a confirmation re-runs as its own two arms", () => {
    const p = planRerun(tuneExperiment(), CTX);
    assert.equal(p.title, "Confirm the tune's winner: log writer's node (numa:0) at 8 sessions against the current settings at 8 sessions");
    assert.equal(p.repeat, 3);
    assert.match(p.what[2], /^arm winner \(B\), .*process affinity numa:0/);
    assert.deepEqual(p.warnings, []);
    const c = confirmation();
    assert.ok(isConfirmation(c));
    const again = planRerun(c, CTX);
    assert.equal(again.title, c.title);
    assert.match(again.what[0], /the same two arms again/);
    assert.match(again.what[2], /^arm winner \(B\), winner: .*process affinity numa:0/);
  });

  it("the verdict: the winner's runs against the current settings', with its interval", () => {
    const v = confirmVerdict(confirmation());
    assert.match(
      v[0],
      /^Confirmation: the winner \(B, 8 sessions, 3 runs\) against the current settings \(A, 8 sessions, 3 runs\): The winner is faster by \d+% \(95% interval/,
    );
    assert.ok(
      v.some((l) => /LOGCACHE_ACCESS spins per row is 4\.\dx lower/.test(l)),
      v.join('\n'),
    );
    assert.ok(!isConfirmation(tuneExperiment()));
  });

  it('a name the winner brought down to nothing reads "down to 0", not Infinity x lower', () => {
    // As a record from before this version stored it (a bootstrap ratio, no level or design).
    const r = { method: 'bootstrap' as const, ratio: 0, interval: { low: 0, high: 0 }, nA: 3, nB: 3, sdLog: null };
    const v = ratioVerdict(r, { subject: 'The winner', figure: 'ASYNC_NETWORK_IO wait ms per row', higher: 'higher', lower: 'lower' });
    assert.equal(v.text, "The winner's ASYNC_NETWORK_IO wait ms per row is down to 0.");
  });
});
