// The simulator's model of statement recompilation over #temp tables (tools/sim/model/planCost.ts): SQL Server's
// thresholds for temporary tables, a recompile once modifications since the statistics reach them, every plan built
// on older statistics recompiling after an update, and OPTION (KEEPFIXED PLAN) skipping all of it.
import assert from 'node:assert/strict';
import { SimModel } from '../../tools/sim/model/instance';
import { hasKeepFixed, recompileThreshold, usePlan } from '../../tools/sim/model/planCost';
import type { TempTable } from '../../tools/sim/model/tempstore';
import type { SessionContext } from '../../tools/sim/tds/contract';

const table = (rows: number): TempTable => ({
  name: '#t',
  columns: [],
  rows: Array.from({ length: rows }, () => []),
  stats: { modifications: 0, version: 0 },
});
const session = (spid = 60) => ({ spid }) as unknown as SessionContext;

describe('simulator: #temp table recompilations', () => {
  it("uses SQL Server's thresholds for temporary tables: 6 under 6 rows, 500 up to 500, then 500 + 20%", () => {
    assert.deepEqual([0, 5, 6, 500, 501, 1000].map(recompileThreshold), [6, 6, 500, 500, 500 + 0.2 * 501, 700]);
  });

  it('compiles once, recompiles when modifications reach the threshold, and not with KEEPFIXED PLAN', () => {
    const m = new SimModel();
    const s = session();
    const t = table(3);
    const q = 'SELECT * FROM #t';
    assert.equal(usePlan(m, s, q, { tables: [t], keepFixed: false }), 'compiled');
    t.stats.modifications = 5;
    assert.equal(usePlan(m, s, q, { tables: [t], keepFixed: false }), 'cached', '5 < 6');
    t.stats.modifications = 6;
    assert.equal(usePlan(m, s, q, { tables: [t], keepFixed: false }), 'recompiled');
    assert.equal(m.counters.recompilations, 1);
    assert.equal(t.stats.modifications, 0, 'statistics updated');

    const fixed = `${q} OPTION (KEEPFIXED PLAN)`;
    assert.ok(hasKeepFixed(fixed) && !hasKeepFixed(q));
    assert.equal(usePlan(m, s, fixed, { tables: [t], keepFixed: true }), 'compiled');
    t.stats.modifications = 10_000;
    assert.equal(usePlan(m, s, fixed, { tables: [t], keepFixed: true }), 'cached');
    assert.equal(t.stats.modifications, 10_000, 'no statistics check, so no update either');
    assert.equal(m.counters.recompilations, 1);
  });

  it('after a statistics update, every plan built on the older statistics recompiles once', () => {
    const m = new SimModel();
    const s = session();
    const t = table(100);
    for (const q of ['SELECT a FROM #t', 'SELECT b FROM #t']) usePlan(m, s, q, { tables: [t], keepFixed: false });
    t.stats.modifications = 500;
    assert.equal(usePlan(m, s, 'SELECT a FROM #t', { tables: [t], keepFixed: false }), 'recompiled');
    assert.equal(usePlan(m, s, 'SELECT b FROM #t', { tables: [t], keepFixed: false }), 'recompiled', 'stale plan: newer statistics');
    assert.equal(usePlan(m, s, 'SELECT b FROM #t', { tables: [t], keepFixed: false }), 'cached');
    assert.equal(usePlan(m, session(61), 'SELECT b FROM #t', { tables: [t], keepFixed: false }), 'compiled', 'plans are per session');
  });
});
