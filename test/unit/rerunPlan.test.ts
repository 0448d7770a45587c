// The re-run plan and the cell check, pure: statements classified from their text (never from the stored label), a
// saved notebook agreeing with itself, and each kind of edit named by the cell it shows in.
import assert from 'node:assert/strict';
import { buildNotebook } from '../../src/engine/notebook/write';
import { parseNotebook, NotebookError } from '../../src/engine/notebook/read';
import { cellMismatches } from '../../src/engine/notebook/cells';
import { classifyStatement, planRerun, renderPlan } from '../../src/engine/notebook/plan';
import { experiment } from '../helpers/builders';
import type { Experiment } from '../../src/shared/experiment';

const customExperiment = (): Experiment => {
  const e = experiment('2026-01-01T00-00-00-000Z-custom', [2], { ticks: 3 });
  e.scenario = { id: 'custom', parameters: {} };
  e.title = 'Custom workload in [shop]: 2 threads';
  e.labDatabase = 'shop';
  e.custom = {
    statements: [{ source: '--sql 1', text: 'SELECT * FROM dbo.orders WHERE id = @id' }],
    database: 'shop',
    params: {
      kind: 'csv',
      from: '/home/author/ids.csv',
      csvText: 'id\n1\n2\n',
      columns: [{ name: 'id', type: 'int' }],
      rows: 2,
      order: 'round-robin',
      scope: 'session',
    },
    iterations: 10,
    thinkTimeMs: 0,
    queryTimeoutMs: null,
    stopOnError: false,
    writes: null,
  };
  return e;
};

/** A saved notebook, read back, after `edit` changed its record (and nothing else). */
function saved(e: Experiment, edit: (x: Experiment) => void = () => undefined) {
  const nb = buildNotebook([e]) as unknown as { metadata: { spinlab: { experiments: Experiment[] } } };
  edit(nb.metadata.spinlab.experiments[0]);
  return parseNotebook(JSON.stringify(nb));
}

it('statements are classified from their text: reads, writes, DDL; comments and strings do not count', () => {
  assert.equal(classifyStatement('s', 'SELECT 1 -- then DELETE everything').kind, 'read');
  assert.equal(classifyStatement('s', "SELECT 'UPDATE t SET x = 1'").kind, 'read');
  assert.equal(classifyStatement('s', 'UPDATE dbo.important SET x = 0').kind, 'write');
  assert.equal(classifyStatement('s', 'EXEC dbo.do_things').kind, 'write');
  assert.equal(classifyStatement('s', 'DROP TABLE dbo.orders').kind, 'DDL');
  assert.equal(classifyStatement('s', 'SELECT * INTO dbo.copy FROM dbo.orders').kind, 'DDL');
});

it('the plan says how often each thread count runs: once for a record from before repetitions, else its design', () => {
  const e = experiment('2026-01-01T00-00-00-000Z-disk-insert', [1, 2], { ticks: 3 });
  delete e.design;
  assert.match(renderPlan(planRerun(e, { server: 'here' })), /Threads: {3}1, 2 \(one run per count\)/);
  e.design = { repeat: 3, order: 'alternating', sequence: [] };
  const plan = planRerun(e, { server: 'here' });
  assert.equal(plan.repeat, 3);
  assert.match(renderPlan(plan), /Threads: {3}1, 2 \(each count 3 times: 3 passes over the counts, not 3 runs in a row\)/);
});

it('a notebook as saved agrees with itself (scenario and custom); its plan has no warning', () => {
  for (const e of [experiment('2026-01-01T00-00-00-000Z-disk-insert', [1, 2], { ticks: 3 }), customExperiment()]) {
    const nb = saved(e);
    assert.deepEqual(cellMismatches(nb.notebook, nb.record), []);
    assert.deepEqual(planRerun(nb.record.experiments[0], { server: 'here' }).warnings, []);
  }
});

it('an edited statement: the plan shows it as a write, the stored "reads only" is contradicted, the T-SQL cell named', () => {
  const nb = saved(customExperiment(), (x) => {
    x.custom!.statements[0].text = 'DELETE FROM dbo.orders';
  });
  const plan = planRerun(nb.record.experiments[0], { server: 'here' });
  const text = renderPlan(plan, cellMismatches(nb.notebook, nb.record));
  assert.match(text, /^WARNING/);
  assert.match(text, /1\. WRITE: DELETE may write \[--sql 1\]\n {7}DELETE FROM dbo\.orders\n/);
  assert.match(
    text,
    /the T-SQL cell of statement 1: line 1 shows "SELECT \* FROM dbo\.orders WHERE id = @id" where the record says "DELETE FROM dbo\.orders"/,
  );
  assert.match(text, /labels this workload "reads only", but checked now statement 1 is a write/);
  assert.match(text, /Params: +2 rows \(@id\) from ids\.csv, saved inside the notebook/);
});

it('edited knobs and database: the Knobs cell is named with the line it shows and the line the record says', () => {
  const nb = saved(experiment('2026-01-01T00-00-00-000Z-disk-insert', [1, 2], { ticks: 3 }), (x) => {
    x.knobs.applied = { affinity: { spec: 'cpu:0', cpus: [0] } };
  });
  const cells = cellMismatches(nb.notebook, nb.record);
  assert.ok(
    cells.some((c) => /^the Knobs cell: line \d+ shows "\| Process affinity .*unchanged.*" where the record says ".*cpu:0/.test(c)),
    cells.join('\n'),
  );
  assert.ok(
    cells.some((c) => /^the knob T-SQL cell is missing from the notebook/.test(c)),
    cells.join('\n'),
  );
  const plan = planRerun(nb.record.experiments[0], { server: 'here' });
  assert.match(renderPlan(plan), /process affinity set to cpu:0, server-wide \(put back afterwards\)/);
});

it('a custom record that cannot run as it stands is refused with the field', () => {
  const nb = saved(customExperiment(), (x) => {
    x.custom!.statements = [];
  });
  assert.throws(
    () => planRerun(nb.record.experiments[0], { server: 'here' }),
    (e: Error) => e instanceof NotebookError && /custom\.statements is empty/.test(e.message),
  );
  const abs = saved(customExperiment(), (x) => {
    x.custom!.params!.nearNotebook = '/etc/passwd';
  });
  assert.throws(() => planRerun(abs.record.experiments[0], { server: 'here' }), /nearNotebook is not a relative path/);
});
