// The verdicts checked against data they do not assume: heavy tails (t with 3 degrees of freedom), drift over the
// experiment, an order effect inside each block, and level shifts, on twenty figures per comparison, seeded, 1,000
// draws or more each. The measured rates are printed (the README quotes them). The i.i.d. checks of the unit tier
// (test/unit/repeatStats.test.ts) stay; these say what happens when the world is messier.
import assert from 'node:assert/strict';
import { compareArmCells, compareFigures, equivalencePlan, isEquivalent, type CellRun } from '../../src/shared/repeats';
import { MESSY, messyRuns, messyThroughput, noiseSource, type Mess } from '../helpers/messyRuns';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const A = { id: 'A', rowsPerSec: 20_000 };

/** `draws` seeded experiments of arms A and B (B's throughput `ratio` times A's), n repetitions each. */
function experiments(seed: number, draws: number, n: number, ratio: number, mess: Mess): CellRun[][] {
  const src = noiseSource(seed, mess.heavy);
  return Array.from({ length: draws }, () => messyRuns(src, [A, { id: 'B', rowsPerSec: A.rowsPerSec * ratio }], n, mess));
}

describe('verdicts on messy data: heavy tails, drift, order effects, level shifts', function () {
  this.timeout(600_000);

  for (const n of [3, 5, 10]) {
    it(`A/A at ${n} repetitions: no secondary figure called different in at least 95% of comparisons (1,000 draws)`, () => {
      const draws = experiments(4400 + n, 1000, n, 1, MESSY);
      let anySecondary = 0;
      let primary = 0;
      const perFigure = new Map<string, number>();
      for (const runs of draws) {
        const [c] = compareArmCells(runs, 'A', 'B');
        assert.equal(c.layout.design, 'paired', 'alternating blocks are analysed as pairs');
        const called = c.figures.filter((f) => f.differs);
        if (called.some((f) => !f.primary)) anySecondary++;
        if (called.some((f) => f.primary)) primary++;
        for (const f of called) perFigure.set(f.key, (perFigure.get(f.key) ?? 0) + 1);
      }
      const fwer = anySecondary / draws.length;
      console.log(
        `      ${n} repetitions: any secondary figure called different ${pct(fwer)} (family-wise), throughput ${pct(primary / draws.length)}`,
      );
      console.log(
        `      per figure: ${
          [...perFigure.entries()]
            .sort((x, y) => y[1] - x[1])
            .map(([k, v]) => `${k} ${pct(v / draws.length)}`)
            .join(', ') || 'none'
        }`,
      );
      assert.ok(fwer <= 0.05, `family-wise rate ${pct(fwer)}`);
      assert.ok(primary / draws.length <= 0.06, `throughput alone ${pct(primary / draws.length)}`);
    });
  }

  /** Coverage of the true ratio 1.2 by the paired interval, and by Welch on the same runs, over 2,000 draws. */
  function coverage(seed: number, mess: Mess): { paired: number; unpaired: number } {
    let paired = 0;
    let unpaired = 0;
    const draws = experiments(seed, 2000, 5, 1.2, mess);
    for (const runs of draws) {
      const r = compareArmCells(runs, 'A', 'B')[0].figures[0].ratio;
      assert.equal(r.design, 'paired');
      if (r.interval!.low <= 1.2 && 1.2 <= r.interval!.high) paired++;
      const a = runs.filter((x) => x.arm.id === 'A').map((x) => x.derived!.rowsPerSec);
      const b = runs.filter((x) => x.arm.id === 'B').map((x) => x.derived!.rowsPerSec);
      const u = compareFigures(a, b);
      if (u.interval!.low <= 1.2 && 1.2 <= u.interval!.high) unpaired++;
    }
    return { paired: paired / draws.length, unpaired: unpaired / draws.length };
  }

  it('with pairing, the 95% interval of the primary ratio covers the truth 93-97% of the time under drift (2,000 draws)', () => {
    const c = coverage(4501, { ...MESSY, drift: 0.02, order: 0, shiftChance: 0, heavy: false });
    console.log(`      coverage under drift (2% a run): paired ${pct(c.paired)}, unpaired Welch on the same runs ${pct(c.unpaired)}`);
    assert.ok(c.paired >= 0.93 && c.paired <= 0.97, `paired coverage ${pct(c.paired)}`);
  });

  it('under drift, heavy tails and an order effect together the paired interval still covers at least 93% (2,000 draws)', () => {
    const c = coverage(4503, { ...MESSY, drift: 0.02, shiftChance: 0 });
    console.log(`      coverage with t(3) tails and a 3.6% order effect too: paired ${pct(c.paired)}, unpaired ${pct(c.unpaired)}`);
    // t intervals are conservative under t(3) tails; what must not happen is that they cover less than they say.
    assert.ok(c.paired >= 0.93, `paired coverage ${pct(c.paired)}`);
  });

  it('pairing narrows the interval under drift: the paired error is smaller than the unpaired one in most draws', () => {
    const mess: Mess = { ...MESSY, drift: 0.03, order: 0, shiftChance: 0 };
    let narrower = 0;
    const draws = experiments(4502, 1000, 5, 1.1, mess);
    for (const runs of draws) {
      const r = compareArmCells(runs, 'A', 'B')[0].figures[0].ratio;
      if (r.pairing && r.log && r.log.se < r.pairing.unpairedSe) narrower++;
    }
    console.log(`      pairing removed error in ${pct(narrower / draws.length)} of draws`);
    assert.ok(narrower / draws.length >= 0.8);
  });

  it('no true difference: equivalence within ±5% is shown at least 80% of the time at the repetitions the plan recommends (1,000 draws)', () => {
    // A pilot of 5 blocks plans the repetitions; the plan's upper end (the spread's 80% upper bound) is the
    // recommendation; fresh runs at that count are then judged, paired as the engine lays them out. 5% noise keeps the
    // counts practical here; drift, tails and order effects as above.
    const mess: Mess = { ...MESSY, cv: 0.05, shiftChance: 0 };
    const src = noiseSource(4600, mess.heavy);
    const paired = (n: number) => {
      const t = messyThroughput(src, 1, n, mess);
      return compareFigures(t.a, t.b, { design: 'paired' });
    };
    let shown = 0;
    let atPoint = 0;
    const counts: number[] = [];
    const draws = 1000;
    for (let i = 0; i < draws; i++) {
      const plan = equivalencePlan(paired(5))!;
      const n = Math.max(5, plan.high ?? 1000);
      counts.push(n);
      if (isEquivalent(paired(n))) shown++;
      if (isEquivalent(paired(Math.max(2, plan.point ?? 1000)))) atPoint++;
    }
    counts.sort((x, y) => x - y);
    console.log(
      `      equivalence shown ${pct(shown / draws)} at the plan's upper end (median ${counts[draws >> 1]} repetitions), ${pct(atPoint / draws)} at its point`,
    );
    assert.ok(shown / draws >= 0.8, `equivalence at the recommended repetitions ${pct(shown / draws)}`);
  });
});
