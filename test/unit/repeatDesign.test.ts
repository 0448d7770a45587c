// The parts of a comparison's method on their own: how two cells' runs were laid out (design.ts), Holm's step-down
// adjustment (family.ts) against the worked example of Holm (1979) as textbooks give it, repetition plans as ranges
// (plan.ts), and equivalence by two one-sided tests (interval.ts).
import assert from 'node:assert/strict';
import {
  cellLayout,
  compareFigures,
  detectPlan,
  equivalenceInterval,
  holm,
  isEquivalent,
  lowPower,
  spreadBounds,
} from '../../src/shared/repeats';

const runs = (spec: string, arm: string) =>
  [...spec].flatMap((c, index) => (c === arm ? [{ index, repetition: 0 }] : [])).map((r, k) => ({ ...r, repetition: k + 1 }));

describe('comparison method: layout, Holm, plans, equivalence', () => {
  it('A B, B A, A B is paired block by block; AAA then BBB is separate sessions; runs with no order are unpaired', () => {
    const abba = cellLayout(runs('ABBAAB', 'A'), runs('ABBAAB', 'B'));
    assert.equal(abba.design, 'paired');
    assert.deepEqual(abba.pairs, [
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
    assert.equal(cellLayout(runs('AAABBB', 'A'), runs('AAABBB', 'B')).design, 'separate');
    assert.equal(cellLayout([{ repetition: 1 }, { repetition: 2 }], [{ repetition: 1 }, { repetition: 2 }]).design, 'unpaired');
    // Another run of the cells between a pair's two runs: not a block.
    assert.equal(cellLayout(runs('AABBAB', 'A'), runs('AABBAB', 'B')).design, 'unpaired');
  });

  it("Holm's step-down: the textbook example (p = 0.01, 0.04, 0.03, 0.005 at 5%) rejects only the two smallest", () => {
    const d = holm([0.01, 0.04, 0.03, 0.005]);
    assert.deepEqual(
      d.map((x) => x.differs),
      [true, false, false, true],
    );
    // Adjusted p: 4 x 0.005, 3 x 0.01, then max(0.03, 2 x 0.03) = 0.06 and max(0.06, 0.04) = 0.06.
    assert.deepEqual(
      d.map((x) => +x.adjustedP!.toFixed(6)),
      [0.03, 0.06, 0.06, 0.02],
    );
    // Each rejected figure's interval at its step's level; the kept ones at the level where the procedure stopped.
    assert.deepEqual(
      d.map((x) => +x.level.toFixed(6)),
      [1 - 0.05 / 3, 1 - 0.05 / 2, 1 - 0.05 / 2, 1 - 0.05 / 4].map((x) => +x.toFixed(6)),
    );
    assert.deepEqual(holm([null, 0.001]), [
      { differs: false, level: 0.95, adjustedP: null },
      { differs: true, level: 0.95, adjustedP: 0.001 },
    ]);
  });

  it("a plan is a range from the spread's chi-square bounds: 4 degrees of freedom give sqrt(4 / 7.779) to sqrt(4 / 1.064) the spread (chi-square table)", () => {
    const b = spreadBounds(1, 4);
    assert.ok(Math.abs(b.low - Math.sqrt(4 / 7.779)) < 0.001 && Math.abs(b.high - Math.sqrt(4 / 1.064)) < 0.001, JSON.stringify(b));
    const p = detectPlan({ sdLog: 0.1, df: 4, design: 'unpaired' })!;
    assert.ok(p.low! < p.point! && p.point! < p.high!, JSON.stringify(p));
    // At 10% noise a 5% change takes about 67 repetitions of each arm (two-sample t, 95%, 80% power).
    assert.ok(Math.abs(detectPlan({ sdLog: 0.1, df: 1e6, design: 'unpaired' })!.point! - 67) <= 1);
    // Separate sessions: the between-session term alone keeps a 5% change out of reach.
    assert.equal(detectPlan({ sdLog: 0.01, df: 10, design: 'separate' })!.sessionsBound, true);
  });

  it('equivalence: the 90% interval inside ±5% is equivalent; a wide interval holding 1 is not', () => {
    const tight = compareFigures([100, 101, 99.5, 100.2, 99.9], [100.1, 100.8, 99.7, 100.4, 100], { design: 'paired' });
    assert.ok(isEquivalent(tight));
    assert.ok(equivalenceInterval(tight)!.high < 1.05);
    const wide = compareFigures([100, 120, 85], [105, 90, 118]);
    assert.ok(!isEquivalent(wide));
  });

  it('a change found with little to spare is flagged as possibly overstated; a clear one is not', () => {
    const borderline = compareFigures([100, 104, 96, 101, 99], [106, 110, 101, 108, 104]);
    const clear = compareFigures([100, 101, 99, 100, 100], [150, 151, 149, 150, 150]);
    assert.ok(borderline.interval!.low > 1, 'detected');
    assert.equal(lowPower(borderline), true);
    assert.equal(lowPower(clear), false);
  });
});

describe('comparison layout from recorded blocks', () => {
  it('runs sharing a recorded block pair; arms that never shared one ran as separate sessions', () => {
    const a = [
      { index: 0, repetition: 1, block: 1 },
      { index: 3, repetition: 2, block: 2 },
    ];
    const b = [
      { index: 1, repetition: 1, block: 1 },
      { index: 2, repetition: 2, block: 2 },
    ];
    assert.deepEqual(cellLayout(a, b), {
      design: 'paired',
      pairs: [
        [0, 0],
        [1, 1],
      ],
    });
    const later = b.map((r, i) => ({ ...r, block: 5 + i }));
    assert.equal(cellLayout(a, later).design, 'separate');
  });
});

describe('the primary figure', () => {
  it('names a figure the verdict rests on; a name that is no figure is refused; an unmeasured one gets no verdict', async () => {
    const { primaryKey, cellsOf, compareCells } = await import('../../src/shared/repeats');
    const { messyRuns, noiseSource, MESSY } = await import('../helpers/messyRuns');
    assert.equal(primaryKey('throughput'), 'rowsPerSec');
    assert.equal(primaryKey('p99'), 'p99Us');
    assert.equal(primaryKey('logcache_access.spins_per_row'), 'spinsPerRow:LOGCACHE_ACCESS');
    assert.equal(primaryKey('FOO'), null);
    assert.equal(primaryKey('X.bananas_per_row'), null);
    const [a, b] = cellsOf(
      messyRuns(
        noiseSource(3, false),
        [
          { id: 'A', rowsPerSec: 1000 },
          { id: 'B', rowsPerSec: 1000 },
        ],
        3,
        MESSY,
      ),
    );
    const c = compareCells(a, b, 'B', { primary: 'spinsPerRow:LOGCACHE_ACCESS' });
    assert.deepEqual(
      c.figures.filter((f) => f.primary).map((f) => f.key),
      ['spinsPerRow:LOGCACHE_ACCESS'],
    );
    assert.equal(c.figures.find((f) => f.key === 'rowsPerSec')!.primary, false);
    assert.match(c.verdict.text, /LOGCACHE_ACCESS spins per row/);
    const none = compareCells(a, b, 'B', { primary: 'p99Us' });
    assert.equal(none.verdict.kind, 'none');
    assert.match(none.verdict.text, /not measured in these runs/);
  });
});
