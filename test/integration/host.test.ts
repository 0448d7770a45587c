// LabController driven the way the panel drives it (messages through receive), with fake host ports, against the
// simulator through the real driver: connect, deploy, a sweep with live messages and a saved experiment, server-wide
// changes confirmed (or declined) and put back after Stop and after the panel closes, a missing permission with its
// GRANT, a leftover journal restored from the panel, and a typed password that goes nowhere it should not.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim, SIM_PASSWORD } from '../helpers/simClient';
import { LabController, CONFIRM_ACTION } from '../../src/host/labController';
import { ask, connectedController, knobsNow, resultOf, simProfile, waitFor } from '../helpers/host';
import { DbSession } from '../../src/db/client';
import { readJournal, serverKey, writeJournal } from '../../src/engine/journal';
import type { KnobSettings, RunSettings } from '../../src/shared/protocol';
import { checkStateTicks } from '../../src/shared/stateSnapshot';
import { fakePorts, tmpDir } from '../unit/host/fakePorts';

const profileFor = simProfile;

const RUN: RunSettings = { mode: 'server-loop', threads: '1,2', duration: '2s', rows: '', warmup: '0s', interval: '250ms' };
const NO_KNOBS: KnobSettings = { delayedDurability: 'unchanged', affinity: '' };
const PARAMS = { seed_rows: 0, batch_size: 1 };

const connected = connectedController;

it('connect, deploy, a two-point sweep with live messages, saved to history and opened again; the password goes nowhere', () =>
  withSim({}, async (sim) => {
    const ports = fakePorts();
    const c = await connected(sim, ports, tmpDir('state'));
    try {
      let s = ports.lastState();
      assert.equal(s.connection.status, 'connected', JSON.stringify(s.connection.error));
      assert.equal(s.server?.identity.simulated, true);
      assert.equal(s.server?.topology.cpuCount, 40);
      assert.equal(s.server?.topology.nodes.length, 2);
      assert.equal(s.journal, null);
      assert.deepEqual(
        s.profiles.map((p) => p.id),
        ['sim-sa'],
        'the profile is remembered',
      );

      await c.receive({ type: 'scenarioDeploy', payload: { scenarioId: 'disk-insert', parameters: PARAMS } });
      s = ports.lastState();
      assert.equal(s.lastError, null, JSON.stringify(s.lastError));
      assert.deepEqual(s.server?.deployed, ['disk-insert']);
      assert.equal(s.server?.labExists, true);

      await c.receive({
        type: 'experimentRun',
        payload: { scenarioId: 'disk-insert', parameters: PARAMS, run: RUN, knobs: NO_KNOBS, title: 'sweep' },
      });
      s = ports.lastState();
      assert.equal(s.lastError, null, JSON.stringify(s.lastError));
      assert.equal(ports.confirms.length, 0, 'nothing server-wide changes, so nothing to confirm');
      assert.equal(s.active?.status, 'completed', s.active?.message);
      const id = s.active!.experimentId!;
      assert.deepEqual(
        ports.ofType('runStart').map((m) => [m.payload.experimentId, m.payload.threads]),
        [
          [id, 1],
          [id, 2],
        ],
      );
      assert.deepEqual(
        ports.ofType('runEnd').map((m) => m.payload.record.status),
        ['completed', 'completed'],
      );
      const ticks = ports.ofType('runTick');
      assert.ok(ticks.length >= 4, `ticks: ${ticks.length}`);
      assert.ok(ticks.every((t) => t.payload.experimentId === id));
      assert.ok(
        s.active!.runs.every((r) => r.ticks.length === 0),
        'an ordinary snapshot leaves the ticks out (the webview has them)',
      );
      await c.receive({ type: 'ready', payload: {} });
      // A full snapshot carries them as columns beside the state (shared/stateSnapshot.ts), one entry per run.
      const full = ports.ofType('state').at(-1)!.payload;
      const runs = full.state.active!.runs;
      assert.ok(
        runs.every((r) => (checkStateTicks(full.ticks).find((t) => t.index === r.index)?.columns.length ?? 0) >= 2),
        'a reloaded webview gets every tick of every run',
      );
      assert.deepEqual(ports.progressTitles, ['Spinlock Lab: sweep']);

      assert.equal(s.history[0]?.id, id, 'the new experiment heads the history');
      assert.deepEqual(s.history[0].threads, [1, 2]);
      assert.ok(s.history[0].runs.every((r) => r.rowsPerSec > 0));
      const dir = path.join(ports.settingsValue.resultsFolder, id);
      assert.ok(fs.existsSync(path.join(dir, 'experiment.json')) && fs.existsSync(path.join(dir, 'samples.jsonl')));

      const opened = resultOf(await ask(c, ports, 'experimentOpen', { id })).experiment;
      assert.equal(opened.id, id);
      assert.equal(opened.runs.length, 2);
      await c.receive({ type: 'experimentReveal', payload: { id } });
      assert.deepEqual(ports.revealed, [path.join(dir, 'experiment.json')]);
      // A bad id is answered to the asker (the panel's error stays clear).
      const bad = await ask(c, ports, 'experimentOpen', { id: '..' });
      assert.ok(!bad.ok && /experimentOpen: id: not an experiment id/.test(bad.error.message), JSON.stringify(bad));
      const gone = await ask(c, ports, 'experimentOpen', { id: 'no-such-experiment' });
      assert.ok(!gone.ok && /no-such-experiment/.test(gone.error.message), JSON.stringify(gone));
      assert.equal(!gone.ok && gone.error.category, 'files', 'the answer names its error category');
      assert.equal(ports.lastState().lastError, null);

      // The password was typed with savePassword=false: never stored, never posted, logged or saved.
      assert.deepEqual(
        ports.secretCalls.filter((x) => x.op === 'store'),
        [],
      );
      assert.ok(!JSON.stringify(ports.posted).includes(SIM_PASSWORD), 'no posted message carries the password');
      assert.ok(!ports.lines.join('\n').includes(SIM_PASSWORD), 'no log line carries the password');
      for (const f of fs.readdirSync(dir))
        assert.ok(!fs.readFileSync(path.join(dir, f), 'utf8').includes(SIM_PASSWORD), `${f} has no password`);
      assert.ok(!JSON.stringify(ports.savedProfiles).includes(SIM_PASSWORD));
      assert.ok(!JSON.stringify([...ports.memento.values()]).includes(SIM_PASSWORD));
    } finally {
      await c.dispose();
    }
  }));

const CHANGE_KNOBS: KnobSettings = { delayedDurability: 'FORCED', affinity: 'exclude-core0' };

it('server-wide changes: declined means nothing runs; confirmed, then stopped midway, puts affinity and delayed durability back', () =>
  withSim({}, async (sim) => {
    const ports = fakePorts();
    const stateDir = tmpDir('state');
    const c = await connected(sim, ports, stateDir);
    try {
      await c.receive({ type: 'scenarioDeploy', payload: { scenarioId: 'disk-insert', parameters: PARAMS } });
      const before = await knobsNow(sim);
      assert.deepEqual([before.affinity.type, before.delayedDurability], ['AUTO', 'DISABLED']);

      ports.confirmAnswer = false;
      await c.receive({ type: 'experimentRun', payload: { scenarioId: 'disk-insert', parameters: PARAMS, run: RUN, knobs: CHANGE_KNOBS } });
      assert.equal(ports.confirms.length, 1);
      const q = ports.confirms[0];
      assert.equal(q.actionLabel, CONFIRM_ACTION);
      assert.equal(q.actionLabel, 'Apply and Run');
      assert.match(q.detail, /CPU affinity \(server-wide\): AUTO \(every CPU: 0-39\) -> CPUs 2-39/);
      assert.match(q.detail, /Delayed durability on \[SpinlockLab\]: DISABLED -> FORCED/);
      assert.match(q.detail, /put back when the experiment ends, fails or is cancelled/);
      assert.equal(ports.ofType('runStart').length, 0, 'declined: no run started');
      assert.equal(ports.progressTitles.length, 0);
      assert.equal(c.isRunning, false);
      assert.deepEqual(await knobsNow(sim), before, 'declined: nothing changed');

      ports.confirmAnswer = true;
      const long: RunSettings = { ...RUN, threads: '2,4', duration: '20s' };
      const started = Date.now();
      const running = c.receive({
        type: 'experimentRun',
        payload: { scenarioId: 'disk-insert', parameters: PARAMS, run: long, knobs: CHANGE_KNOBS },
      });
      await waitFor('two ticks', () => ports.ofType('runTick').length >= 2);
      const during = await knobsNow(sim);
      // The server view shows what the run holds (re-read once its knobs are applied), not the settings before it.
      await waitFor("the run's affinity in the server view", () => ports.lastState().server?.knobs.affinity.type === 'MANUAL');
      const shown = ports.lastState();
      assert.deepEqual(shown.server?.knobs.affinity.cpus, during.affinity.cpus);
      assert.equal(shown.server?.knobs.delayedDurability, 'FORCED');
      assert.ok(
        shown.server?.topology.schedulers.some((x) => x.cpuId === 0 && !x.isOnline),
        "CPU 0, outside the run's affinity, is shown offline",
      );
      assert.equal(shown.journal, null);
      assert.deepEqual(shown.runJournal?.changes, ['affinity', 'delayedDurability'], 'the run journal, in use by this run');
      // The run's own journal, read again mid-run (a Refresh): in use by this run, never a leftover to restore.
      await c.receive({ type: 'serverRefresh', payload: {} });
      const mid = ports.lastState();
      assert.equal(mid.journal, null, "the running experiment's journal is not a leftover");
      assert.deepEqual(mid.runJournal?.changes, ['affinity', 'delayedDurability']);
      assert.equal(mid.runJournal?.pid, process.pid);
      assert.equal(during.delayedDurability, 'FORCED');
      assert.equal(during.affinity.type, 'MANUAL');
      assert.ok(!during.affinity.cpus.includes(0) && !during.affinity.cpus.includes(1));
      await c.receive({ type: 'experimentStop', payload: {} });
      await running;
      assert.ok(Date.now() - started < 15_000, 'stop is prompt');
      const s = ports.lastState();
      assert.equal(s.active?.status, 'cancelled');
      assert.equal(ports.ofType('runStart').length, 1, 'the second run never started');
      assert.deepEqual(await knobsNow(sim), before, 'stopped: affinity and delayed durability are as before');
      assert.deepEqual(
        [s.server?.knobs.affinity.type, s.server?.knobs.delayedDurability],
        ['AUTO', 'DISABLED'],
        'the panel re-read the knobs',
      );
      assert.equal(s.journal, null);
      assert.equal(s.history[0]?.status, 'cancelled');

      // The progress notification's Cancel aborts the same way.
      const viaCancel = c.receive({
        type: 'experimentRun',
        payload: { scenarioId: 'disk-insert', parameters: PARAMS, run: long, knobs: CHANGE_KNOBS },
      });
      await waitFor('a tick of the third run', () => {
        const third = ports.ofType('runStart')[1]?.payload.experimentId;
        return !!third && ports.ofType('runTick').some((t) => t.payload.experimentId === third);
      });
      ports.cancelProgress();
      await viaCancel;
      assert.equal(ports.lastState().active?.status, 'cancelled');
      assert.deepEqual(await knobsNow(sim), before);
    } finally {
      await c.dispose();
    }
  }));

it('closing the panel mid-run restores the server settings; the controller then refuses work', () =>
  withSim({}, async (sim) => {
    const ports = fakePorts({ confirmServerChanges: false });
    const c = await connected(sim, ports, tmpDir('state'));
    const before = await knobsNow(sim).catch(() => null);
    const running = c.receive({
      type: 'experimentRun',
      payload: { scenarioId: 'disk-insert', parameters: PARAMS, run: { ...RUN, duration: '20s' }, knobs: CHANGE_KNOBS },
    });
    await waitFor('a tick', () => ports.ofType('runTick').length >= 1);
    assert.equal(ports.confirms.length, 0, 'spinlab.confirmServerChanges off: no question');
    assert.equal((await knobsNow(sim)).delayedDurability, 'FORCED');
    await Promise.all([c.dispose(), c.dispose()]);
    await running;
    const after = await knobsNow(sim);
    assert.deepEqual([after.affinity.type, after.delayedDurability], ['AUTO', 'DISABLED']);
    if (before) assert.deepEqual(after.affinity, before.affinity);
    const posted = ports.posted.length;
    await c.receive({ type: 'ready', payload: {} });
    assert.equal(ports.posted.length, posted, 'nothing is posted after dispose');
    assert.ok(ports.lines.some((l) => /after the panel closed/.test(l)));
  }));

it('a login without VIEW SERVER STATE is told the GRANT that fixes it', () =>
  withSim({ logins: [{ name: 'reader', password: 'Reader-Pw1!', permissions: [] }] }, async (sim) => {
    const ports = fakePorts();
    const c = await connected(sim, ports, tmpDir('state'), 'reader', 'Reader-Pw1!');
    try {
      const s = ports.lastState();
      assert.equal(s.connection.status, 'disconnected');
      assert.match(s.lastError!.message, /reader lacks VIEW SERVER STATE/);
      assert.match(s.lastError!.fix!, /GRANT VIEW SERVER PERFORMANCE STATE TO \[reader\]/);
      assert.deepEqual(s.connection.error, s.lastError);
    } finally {
      await c.dispose();
    }
  }));

it("a wrong password is said in the panel's words, with the server's error number, beside the Password field", () =>
  withSim({}, async (sim) => {
    const ports = fakePorts();
    const c = await connected(sim, ports, tmpDir('state'), 'sa', 'not-the-password');
    try {
      const e = ports.lastState().connection.error!;
      assert.match(e.message, /^Login failed for user 'sa' \(Msg 18456\)\./);
      assert.match(e.message, /SQL Server authentication as the login 'sa' was tried/);
      assert.match(e.fix!, /Check the Login and Password fields/);
      assert.doesNotMatch(`${e.message} ${e.fix}`, /SPINLAB_PASSWORD|connection string/, 'no CLI words in the panel');
      assert.equal(e.control, 'password');
      assert.equal(e.action, 'connect');
      assert.ok(!JSON.stringify(ports.posted).includes('not-the-password'));
    } finally {
      await c.dispose();
    }
  }));

it('an untrusted certificate says to tick "Trust server certificate", the checkbox the error sits beside', () =>
  withSim({}, async (sim) => {
    const ports = fakePorts();
    const c = new LabController(ports, { editor: 'vscode', stateDir: tmpDir('state') });
    await c.start();
    try {
      const profile = { ...profileFor(sim), encrypt: 'mandatory' as const, trustServerCertificate: false };
      await c.receive({ type: 'connectionOpen', payload: { profile, password: SIM_PASSWORD, savePassword: false } });
      const e = ports.lastState().connection.error!;
      assert.match(e.message, /does not trust its TLS certificate/);
      assert.match(e.fix!, /Tick "Trust server certificate"/);
      assert.doesNotMatch(`${e.message} ${e.fix}`, /TrustServerCertificate=true|connection string/);
      assert.equal(e.control, 'trustServerCertificate');
    } finally {
      await c.dispose();
    }
  }));

it('a leftover journal shows as state.journal, blocks a run with the Restore action, and restore clears it', () =>
  withSim({}, async (sim) => {
    const stateDir = tmpDir('state');
    const ports = fakePorts();
    const setup = await connected(sim, ports, stateDir);
    await setup.receive({ type: 'scenarioDeploy', payload: { scenarioId: 'disk-insert', parameters: PARAMS } });
    const serverName = ports.lastState().server!.identity.serverName;
    await setup.dispose();
    // What a killed process leaves: the settings changed and the journal of the originals.
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
    await admin.runFile('knobs/affinity-cpu', { cpu_ranges: '2 TO 9' });
    await admin.runFile('knobs/delayed-durability', { db: 'SpinlockLab', mode: 'FORCED' });
    await admin.close();
    const address = `127.0.0.1,${sim.port}`;
    writeJournal(stateDir, {
      version: 1,
      serverKey: serverKey(address, serverName),
      serverAddress: address,
      serverName,
      labDatabase: 'SpinlockLab',
      createdAt: new Date().toISOString(),
      pid: 4242,
      original: { delayedDurability: 'DISABLED', affinity: { type: 'AUTO', cpus: [] } },
      changes: ['affinity', 'delayedDurability'],
    });

    const ports2 = fakePorts();
    const c = await connected(sim, ports2, stateDir);
    try {
      let s = ports2.lastState();
      assert.equal(s.journal?.serverAddress, address);
      assert.deepEqual(s.journal?.changes, ['affinity', 'delayedDurability']);
      assert.equal(s.journal?.pid, 4242);
      assert.match(s.journal!.original, /AUTO/);

      await c.receive({ type: 'experimentRun', payload: { scenarioId: 'disk-insert', parameters: PARAMS, run: RUN, knobs: NO_KNOBS } });
      s = ports2.lastState();
      assert.equal(s.lastError?.action, 'restore');
      assert.match(s.lastError!.message, /did not put it back/);
      assert.equal(ports2.ofType('runStart').length, 0);

      await c.receive({ type: 'serverRestore', payload: {} });
      s = ports2.lastState();
      assert.equal(s.lastError, null, JSON.stringify(s.lastError));
      assert.equal(s.journal, null);
      assert.deepEqual([s.server?.knobs.affinity.type, s.server?.knobs.delayedDurability], ['AUTO', 'DISABLED']);
      assert.equal(readJournal(stateDir, serverKey(address, serverName)), null);
      assert.ok(ports2.ofType('toast').some((t) => /process affinity set back to AUTO/.test(t.payload.message)));
      const after = await knobsNow(sim);
      assert.deepEqual([after.affinity.type, after.affinity.cpus.length, after.delayedDurability], ['AUTO', 40, 'DISABLED']);
    } finally {
      await c.dispose();
    }
  }));

it('a saved password: stored only with savePassword, then used when none is typed', () =>
  withSim({}, async (sim) => {
    const ports = fakePorts();
    const c = new LabController(ports, { editor: 'azdata', stateDir: tmpDir('state') });
    try {
      await c.receive({ type: 'connectionOpen', payload: { profile: profileFor(sim), password: SIM_PASSWORD, savePassword: true } });
      assert.deepEqual(
        ports.secretCalls.filter((x) => x.op === 'store').map((x) => x.key),
        ['spinlab.password.sim-sa'],
      );
      assert.deepEqual(ports.lastState().savedPasswords, ['sim-sa']);
      assert.equal(ports.lastState().editor, 'azdata');
      assert.ok(!JSON.stringify(ports.posted).includes(SIM_PASSWORD));
      await c.receive({ type: 'connectionClose', payload: {} });
      assert.equal(ports.lastState().connection.status, 'disconnected');
      await c.receive({ type: 'connectionOpen', payload: { profile: profileFor(sim), savePassword: true } });
      assert.equal(ports.lastState().connection.status, 'connected', JSON.stringify(ports.lastState().connection.error));
      await c.receive({ type: 'profileDelete', payload: { id: 'sim-sa' } });
      assert.equal(ports.secretValues.size, 0, 'deleting the profile deletes its password');
      assert.deepEqual(ports.lastState().savedPasswords, []);
    } finally {
      await c.dispose();
    }
  }));
