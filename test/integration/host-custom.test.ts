// The panel's Custom workload through LabController (messages through receive, fake host ports) against the
// simulator: "Load Test This Query" fills the form through the host, runCustom makes the calls it says, live
// messages flow, the experiment is saved to history, and nothing is deployed; a batch that may write is confirmed
// naming its database, and declining runs nothing.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim } from '../helpers/sim-client';
import { connectedController } from '../helpers/host';
import { observedCalls } from '../../tools/sim/model/custom';
import { CUSTOM_FORM_DEFAULTS, type CustomForm } from '../../src/shared/customForm';
import { WRITE_CONFIRM_TITLE } from '../../src/host/customPath';
import { fakePorts, tmpDir } from '../unit/host/fakePorts';

const SPINS = 'SELECT TOP 5 name, spins FROM sys.dm_os_spinlock_stats ORDER BY spins DESC';
const form = (patch: Partial<CustomForm>): CustomForm => ({ ...CUSTOM_FORM_DEFAULTS, database: 'master', threads: '1,2', iterations: '10', ...patch });

describe('the panel runs a custom workload', function () {
  this.timeout(120_000);

  it('fill from Load Test This Query, then 1 and 2 sessions x 10 iterations make 30 calls, saved, nothing deployed; for a duration, live ticks', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      const c = await connectedController(sim, ports, tmpDir('state'));
      try {
        // The run settings' warm-up and sampling interval apply to a custom run too: no warm-up calls here.
        const sel = ports.lastState().selection;
        await c.receive({ type: 'select', payload: { ...sel, run: { ...sel.run, warmup: '0s', interval: '250ms' } } });
        c.fillCustom({ sql: SPINS, source: 'spins.sql' });
        let s = ports.lastState();
        assert.deepEqual(s.customFill, { sql: SPINS, source: 'spins.sql', seq: 1 });
        assert.equal(s.selection.scenarioId, 'custom', 'the panel opens on the Custom workload');

        await c.receive({ type: 'runCustom', payload: { form: form({ sql: SPINS }), title: 'mine' } });
        s = ports.lastState();
        assert.equal(s.lastError, null, JSON.stringify(s.lastError));
        assert.equal(s.active?.status, 'completed', s.active?.message);
        assert.equal(ports.confirms.length, 0, 'a read-only batch changes nothing: no question');
        assert.equal(observedCalls(sim.model).filter((x) => x.text === SPINS).length, 30);
        const id = s.active!.experimentId!;
        assert.deepEqual(ports.ofType('runStart').map((m) => m.payload.threads), [1, 2]);
        assert.equal(s.history[0]?.id, id, 'the experiment heads the history');
        const saved = JSON.parse(fs.readFileSync(path.join(ports.settingsValue.resultsFolder, id, 'experiment.json'), 'utf8'));
        assert.equal(saved.scenario.id, 'custom');
        assert.deepEqual(saved.runs.map((r: { custom: { calls: number } }) => r.custom.calls), [10, 20]);
        assert.equal(s.server?.labExists, false, 'no lab database was created');
        assert.deepEqual(s.server?.deployed, [], 'nothing was deployed');

        // For a duration, the live charts get a tick per sampling interval, each counting calls.
        await c.receive({ type: 'runCustom', payload: { form: form({ sql: SPINS, stopBy: 'duration', duration: '1s', threads: '2' }) } });
        s = ports.lastState();
        assert.equal(s.active?.status, 'completed', s.active?.message);
        const ticks = ports.ofType('tick').filter((t) => t.payload.experimentId === s.active!.experimentId);
        assert.ok(ticks.length >= 2 && ticks.every((t) => t.payload.tick.rows > 0), `ticks: ${ticks.map((t) => t.payload.tick.rows).join(',')}`);
        assert.equal(s.history.length, 2);
      } finally {
        await c.dispose();
      }
    }));

  it('a batch that may write is confirmed naming its database; declined, nothing runs; a bad form is refused with the field', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      const c = await connectedController(sim, ports, tmpDir('state'));
      try {
        ports.confirmAnswer = false;
        const text = 'UPDATE dbo.Orders SET qty = qty + 1 WHERE id = 1';
        await c.receive({ type: 'runCustom', payload: { form: form({ sql: text, database: 'Shop' }) } });
        assert.equal(ports.confirms.length, 1);
        assert.equal(ports.confirms[0].title, WRITE_CONFIRM_TITLE);
        assert.match(ports.confirms[0].detail, /\[Shop\].*may write/);
        assert.equal(observedCalls(sim.model).filter((x) => x.text === text).length, 0);
        assert.equal(ports.ofType('runStart').length, 0);

        await c.receive({ type: 'runCustom', payload: { form: form({ sql: 'SELECT 1', iterations: 'many' }) } });
        assert.match(ports.lastState().lastError!.message, /Iterations "many": write a whole number/);

        // Knobs asked for in the panel are not silently left out: the run is refused, saying how to run it with them.
        const sel = ports.lastState().selection;
        await c.receive({ type: 'select', payload: { ...sel, knobs: { delayedDurability: 'FORCED', affinity: '' } } });
        await c.receive({ type: 'runCustom', payload: { form: form({ sql: 'SELECT 2' }) } });
        assert.match(ports.lastState().lastError!.message, /knobs unchanged; this form asks to change delayed durability to FORCED/);
        assert.match(ports.lastState().lastError!.fix ?? '', /spinlab run --sql/);
        assert.equal(observedCalls(sim.model).filter((x) => x.text === 'SELECT 2').length, 0, 'nothing ran');
      } finally {
        await c.dispose();
      }
    }));
});
