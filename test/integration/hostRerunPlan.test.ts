// The panel's "Run this experiment again" shows the plan from the notebook's record before anything runs, the same
// text `spinlab rerun` prints: an edited statement is shown classified as a write under a title that says the
// notebook does not show what it will run; declining runs nothing; confirming runs the record's custom workload.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim, SIM_PASSWORD } from '../helpers/simClient';
import { LabController } from '../../src/host/labController';
import { simProfile } from '../helpers/host';
import { parseNotebook } from '../../src/engine/notebook/read';
import { buildProgram } from '../../src/cli/main';
import { observedCalls } from '../../tools/sim/model/custom';
import { PLAN_ACTION, PLAN_MISMATCH_TITLE } from '../../src/host/features/history/rerunPlan';
import { fakePorts, tmpDir } from '../unit/host/fakePorts';
import { connString } from '../helpers/simTarget';

const SELECT = 'SELECT TOP 5 name, spins FROM sys.dm_os_spinlock_stats ORDER BY spins DESC';
const UPDATE = 'UPDATE dbo.important SET x = 0';

it('panel: re-running an edited custom notebook shows the plan (the statement, a write, the mismatch) and runs only after a yes', () =>
  withSim({}, async (sim) => {
    const work = tmpDir('nb-plan');
    const file = path.join(work, 'reads.ipynb');
    let code = -1;
    const program = buildProgram(
      () => undefined,
      () => undefined,
      (c) => {
        code = c;
      },
      null,
    );
    await program.parseAsync(
      [
        'run',
        '-c',
        connString(sim),
        '--sql',
        SELECT,
        '--threads',
        '2',
        '--iterations',
        '3',
        '--warmup',
        '0s',
        '--out',
        path.join(work, 'r1'),
        '--notebook',
        file,
      ],
      { from: 'user' },
    );
    assert.equal(code, 0);
    const nb = JSON.parse(fs.readFileSync(file, 'utf8'));
    nb.metadata.spinlab.experiments[0].custom.statements[0].text = UPDATE;
    fs.writeFileSync(file, JSON.stringify(nb));
    const updates = () => observedCalls(sim.model).filter((c) => c.text === UPDATE).length;

    const ports = fakePorts();
    const c = new LabController(ports, { editor: 'vscode', stateDir: tmpDir('state') });
    await c.start();
    try {
      await c.receive({ type: 'connectionOpen', payload: { profile: simProfile(sim), password: SIM_PASSWORD, savePassword: false } });
      ports.confirmAnswer = false;
      await c.rerunNotebook(file);
      assert.equal(ports.lastState().lastError, null, JSON.stringify(ports.lastState().lastError));
      const shown = ports.confirms[ports.confirms.length - 1];
      assert.equal(shown.title, PLAN_MISMATCH_TITLE);
      assert.equal(shown.actionLabel, PLAN_ACTION);
      assert.match(shown.detail, /1\. WRITE: UPDATE may write/);
      assert.ok(shown.detail.includes(UPDATE));
      assert.match(shown.detail, /the T-SQL cell of statement 1: line 1 shows "SELECT TOP 5/);
      assert.match(shown.detail, /Server: +SPINLAB-SIM/);
      assert.equal(updates(), 0, 'declined: nothing was sent');
      assert.equal(parseNotebook(fs.readFileSync(file, 'utf8')).record.experiments.length, 1);

      ports.confirmAnswer = true;
      await c.rerunNotebook(file);
      assert.equal(ports.lastState().lastError, null, JSON.stringify(ports.lastState().lastError));
      assert.ok(updates() > 0, "confirmed: the record's statement ran");
      const { record } = parseNotebook(fs.readFileSync(file, 'utf8'));
      assert.equal(record.experiments.length, 2);
      assert.equal(record.experiments[1].custom?.statements[0].text, UPDATE);
    } finally {
      await c.dispose();
    }
  })).timeout(120_000);
