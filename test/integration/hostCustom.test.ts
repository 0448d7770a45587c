// The panel's Custom workload through LabController (messages through receive, fake host ports) against the
// simulator: "Load Test This Query" fills the form through the host, customRun makes the calls it says, live
// messages flow, the experiment is saved to history, and nothing is deployed; a batch that may write is confirmed
// naming its database, and declining runs nothing.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';
import { connectedController, waitFor } from '../helpers/host';
import type { Simulator } from '../../tools/sim/simulator';
import { DbSession } from '../../src/db/client';
import { readKnobState } from '../../src/engine/knobs';
import { readJournal, serverKey } from '../../src/engine/journal';
import { CONFIRM_ACTION } from '../../src/host/runRequest';
import type { Experiment } from '../../src/shared/experiment';
import { observedCalls } from '../../tools/sim/model/custom';
import { CUSTOM_FORM_DEFAULTS, type CustomForm } from '../../src/shared/customForm';
import { WRITE_CONFIRM_TITLE } from '../../src/host/features/custom/customFeature';
import { fakePorts, tmpDir } from '../unit/host/fakePorts';

const SPINS = 'SELECT TOP 5 name, spins FROM sys.dm_os_spinlock_stats ORDER BY spins DESC';
const form = (patch: Partial<CustomForm>): CustomForm => ({
  ...CUSTOM_FORM_DEFAULTS,
  database: 'master',
  threads: '1,2',
  iterations: '10',
  ...patch,
});

describe('the panel runs a custom workload', function () {
  this.timeout(120_000);

  it('fill from Load Test This Query, then 1 and 2 sessions x 10 iterations make 30 calls, saved, nothing deployed; for a duration, live ticks', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      const c = await connectedController(sim, ports, tmpDir('state'));
      try {
        // The run settings' warm-up and sampling interval apply to a custom run too: no warm-up calls here.
        const sel = ports.lastState().selection;
        await c.receive({ type: 'selectionSave', payload: { ...sel, run: { ...sel.run, warmup: '0s', interval: '250ms' } } });
        c.fillCustom({ sql: SPINS, source: 'spins.sql' });
        let s = ports.lastState();
        assert.deepEqual(s.customFill, { sql: SPINS, source: 'spins.sql', seq: 1 });
        assert.equal(s.selection.scenarioId, 'custom', 'the panel opens on the Custom workload');

        await c.receive({ type: 'customRun', payload: { form: form({ sql: SPINS }), title: 'mine' } });
        s = ports.lastState();
        assert.equal(s.lastError, null, JSON.stringify(s.lastError));
        assert.equal(s.active?.status, 'completed', s.active?.message);
        assert.equal(ports.confirms.length, 0, 'a read-only batch changes nothing: no question');
        assert.equal(observedCalls(sim.model).filter((x) => x.text === SPINS).length, 30);
        const id = s.active!.experimentId!;
        assert.deepEqual(
          ports.ofType('runStart').map((m) => m.payload.threads),
          [1, 2],
        );
        assert.equal(s.history[0]?.id, id, 'the experiment heads the history');
        const saved = JSON.parse(fs.readFileSync(path.join(ports.settingsValue.resultsFolder, id, 'experiment.json'), 'utf8'));
        assert.equal(saved.scenario.id, 'custom');
        assert.deepEqual(
          saved.runs.map((r: { custom: { calls: number } }) => r.custom.calls),
          [10, 20],
        );
        assert.equal(s.server?.labExists, false, 'no lab database was created');
        assert.deepEqual(s.server?.deployed, [], 'nothing was deployed');

        // For a duration, the live charts get a tick per sampling interval, each counting calls; twice, as the
        // Repetitions field asks.
        await c.receive({
          type: 'customRun',
          payload: { form: form({ sql: SPINS, stopBy: 'duration', duration: '1s', threads: '2' }), repeat: 2 },
        });
        s = ports.lastState();
        assert.equal(s.active?.status, 'completed', s.active?.message);
        assert.deepEqual(
          s.active?.runs.map((r) => [r.threads, r.repetition]),
          [
            [2, 1],
            [2, 2],
          ],
        );
        const ticks = ports.ofType('runTick').filter((t) => t.payload.experimentId === s.active!.experimentId);
        assert.ok(
          ticks.length >= 2 && ticks.every((t) => t.payload.tick.rows > 0),
          `ticks: ${ticks.map((t) => t.payload.tick.rows).join(',')}`,
        );
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
        await c.receive({ type: 'customRun', payload: { form: form({ sql: text, database: 'Shop' }) } });
        assert.equal(ports.confirms.length, 1);
        assert.equal(ports.confirms[0].title, WRITE_CONFIRM_TITLE);
        assert.match(ports.confirms[0].detail, /\[Shop\].*may write/);
        assert.equal(observedCalls(sim.model).filter((x) => x.text === text).length, 0);
        assert.equal(ports.ofType('runStart').length, 0);

        await c.receive({ type: 'customRun', payload: { form: form({ sql: 'SELECT 1', iterations: 'many' }) } });
        assert.match(ports.lastState().lastError!.message, /Iterations "many": write a whole number/);
      } finally {
        await c.dispose();
      }
    }));

  it("knobs from the Knobs section: delayed durability on the workload's database journaled, confirmed with the write note, applied, and put back", () =>
    withSim({}, async (sim) => {
      sim.model.createDatabase('Shop');
      const stateDir = tmpDir('state');
      const ports = fakePorts();
      const c = await connectedController(sim, ports, stateDir);
      try {
        const s0 = ports.lastState();
        const key = serverKey(`127.0.0.1,${sim.port}`, s0.server!.identity.serverName);
        await c.receive({
          type: 'selectionSave',
          payload: {
            ...s0.selection,
            run: { ...s0.selection.run, warmup: '0s', interval: '250ms' },
            knobs: { delayedDurability: 'FORCED', affinity: '' },
          },
        });
        const text = 'UPDATE dbo.Orders SET qty = qty + 1 WHERE id = 1';
        ports.confirmAnswer = false;
        await c.receive({ type: 'customRun', payload: { form: form({ sql: text, database: 'Shop' }) } });
        assert.equal(ports.confirms.length, 1, 'one question for the knobs and the write');
        assert.equal(ports.confirms[0].actionLabel, CONFIRM_ACTION);
        assert.match(
          ports.confirms[0].detail,
          /Delayed durability on \[Shop\]: DISABLED -> FORCED/,
          'the database the user named, not the lab database',
        );
        assert.match(ports.confirms[0].detail, /put back when the experiment ends/);
        assert.match(ports.confirms[0].detail, /\[Shop\].*may write/);
        assert.equal(await ddOf(sim, 'Shop'), 'DISABLED', 'declined: nothing changed');
        assert.equal(readJournal(stateDir, key), null, 'declined: no journal');

        ports.confirmAnswer = true;
        const running = c.receive({
          type: 'customRun',
          payload: { form: form({ sql: SPINS, database: 'Shop', stopBy: 'duration', duration: '20s', threads: '1' }) },
        });
        await waitFor('a tick of the custom run', () => ports.ofType('runTick').length >= 1);
        assert.equal(await ddOf(sim, 'Shop'), 'FORCED', 'applied while the workload runs');
        const journal = readJournal(stateDir, key);
        assert.equal(journal?.labDatabase, 'Shop', "journaled against the workload's database");
        assert.equal(journal?.original.delayedDurability, 'DISABLED');
        assert.deepEqual(journal?.changes, ['delayedDurability']);
        await c.receive({ type: 'experimentStop', payload: {} });
        await running;
        const s = ports.lastState();
        assert.equal(s.active?.status, 'cancelled', s.active?.message);
        assert.equal(await ddOf(sim, 'Shop'), 'DISABLED', 'put back when stopped');
        assert.equal(readJournal(stateDir, key), null, 'the journal is gone once restored');
        assert.equal(s.journal, null);
        const saved = JSON.parse(
          fs.readFileSync(path.join(ports.settingsValue.resultsFolder, s.active!.experimentId!, 'experiment.json'), 'utf8'),
        );
        assert.equal(saved.knobs.applied.delayedDurability, 'FORCED');
        assert.equal(saved.knobs.restored.delayedDurability, 'DISABLED');

        // A database that does not exist cannot have its delayed durability set: said before anything runs.
        await c.receive({ type: 'customRun', payload: { form: form({ sql: 'SELECT 3', database: 'Nowhere' }) } });
        assert.match(ports.lastState().lastError!.message, /\[Nowhere\] was not found/);
        assert.equal(observedCalls(sim.model).filter((x) => x.text === 'SELECT 3').length, 0);
      } finally {
        await c.dispose();
      }
    }));

  it('row order, row scope and stop-on-error from the form reach the engine', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      const c = await connectedController(sim, ports, tmpDir('state'));
      try {
        const sel = ports.lastState().selection;
        await c.receive({ type: 'selectionSave', payload: { ...sel, run: { ...sel.run, warmup: '0s', interval: '250ms' } } });
        const csv = path.join(tmpDir('csv'), 'p.csv');
        fs.writeFileSync(csv, 'id\n11\n22\n33\n');
        const text = 'SELECT name FROM sys.dm_os_spinlock_stats WHERE spins > @id';
        const valuesOf = (sql: string) => {
          const n = new Map<unknown, number>();
          for (const x of observedCalls(sim.model).filter((o) => o.text === sql)) n.set(x.params['@id'], (n.get(x.params['@id']) ?? 0) + 1);
          return n;
        };
        const run = async (sql: string, patch: Partial<CustomForm>) => {
          await c.receive({ type: 'customRun', payload: { form: form({ sql, paramsSource: 'csv', paramsCsv: csv, ...patch }) } });
          const s = ports.lastState();
          assert.equal(s.lastError, null, JSON.stringify(s.lastError));
          return JSON.parse(
            fs.readFileSync(path.join(ports.settingsValue.resultsFolder, s.active!.experimentId!, 'experiment.json'), 'utf8'),
          ) as Experiment;
        };
        // 2 sessions x 2 calls over 3 rows: one shared cursor sends rows 1,2,3,1; a cursor per session (each starting
        // at its own row) sends 1,2 and 2,3.
        const shared = await run(text, { threads: '2', iterations: '2', paramsScope: 'shared' });
        assert.deepEqual(shared.custom?.params?.scope, 'shared');
        assert.deepEqual(
          new Map([...valuesOf(text)].sort()),
          new Map([
            [11, 2],
            [22, 1],
            [33, 1],
          ]),
        );
        const text2 = `${text} AND 1 = 1`;
        const own = await run(text2, { threads: '2', iterations: '2', paramsScope: 'session' });
        assert.equal(own.custom?.params?.scope, 'session');
        assert.deepEqual(
          new Map([...valuesOf(text2)].sort()),
          new Map([
            [11, 1],
            [22, 2],
            [33, 1],
          ]),
        );
        // Random order: 30 calls by one session are not the round robin's 11,22,33,11,... (chance 1 in 3^29).
        const text3 = `${text} AND 2 = 2`;
        const random = await run(text3, { threads: '1', iterations: '30', paramsOrder: 'random' });
        assert.equal(random.custom?.params?.order, 'random');
        const seq = observedCalls(sim.model)
          .filter((o) => o.text === text3)
          .map((o) => o.params['@id']);
        assert.equal(seq.length, 30);
        const after: Record<string, unknown> = { 11: 22, 22: 33, 33: 11 };
        assert.ok(!seq.every((v, i) => i === 0 || v === after[String(seq[i - 1])]), `not the round robin's cycle: ${seq.join(',')}`);

        // Stop on error: the first failing call ends the run (without it, the run goes on: the test above in custom.test.ts).
        sim.faults.failStatement('custom/SELECT 1', { number: 50123, message: 'injected failure', times: 1 });
        await c.receive({
          type: 'customRun',
          payload: { form: form({ sql: 'SELECT 1', threads: '1', iterations: '20', stopOnError: true }) },
        });
        const s = ports.lastState();
        const stopped = JSON.parse(
          fs.readFileSync(path.join(ports.settingsValue.resultsFolder, s.active!.experimentId!, 'experiment.json'), 'utf8'),
        ) as Experiment;
        assert.equal(stopped.custom?.stopOnError, true);
        assert.equal(stopped.runs[0].custom?.failedCalls, 1);
        assert.equal(stopped.runs[0].status, 'failed');
        assert.ok((stopped.runs[0].custom?.calls ?? 0) < 20, 'the run ended at the failure');
      } finally {
        await c.dispose();
      }
    }));
});

async function ddOf(sim: Simulator, db: string): Promise<string | null> {
  const admin = await DbSession.open(
    {
      server: '127.0.0.1',
      port: sim.port,
      user: 'sa',
      password: SIM_PASSWORD,
      authentication: 'sql',
      encrypt: false,
      trustServerCertificate: true,
      connectTimeoutMs: 5000,
    },
    { database: 'master' },
  );
  try {
    return (await readKnobState(admin, db)).delayedDurability;
  } finally {
    await admin.close();
  }
}
