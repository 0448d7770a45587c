// A crash: `spinlab run` as a child process, killed with SIGKILL once its knobs are applied and ticks are
// flowing, against a simulator in this process. Afterwards the journal is on disk, the server is still changed, and
// (a) `spinlab restore` as a child process, (b) the panel's Restore (LabController, fake ports) put affinity and
// delayed durability back exactly as they were before the run (a non-default start: CPUs 0-19 and ALLOWED).
// samples.jsonl keeps every tick written before the kill.
import { validateExperiment } from '../../src/engine/migrate';
import type { Experiment } from '../../src/shared/experiment';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim, SIM_PASSWORD } from '../helpers/simClient';
import { spinlabChild } from '../helpers/cliChild';
import type { Simulator } from '../../tools/sim/simulator';
import { readJournal, serverKey } from '../../src/engine/journal';
import { LabController } from '../../src/host/labController';
import { defaultProfile } from '../../src/host/profiles';
import type { KnobState, Tick } from '../../src/shared/experiment';
import { fakePorts } from '../unit/host/fakePorts';
import { tmp, sleep } from '../helpers/common';
import { knobsNow, startFromNode0Allowed } from '../helpers/simTarget';

const LAB = 'SpinlockLab';
// The original affinity is NUMANODE = 0 (CPUs 0-19): restored as NUMANODE, not as a CPU list (knobs.ts).
const ORIGINAL: KnobState = {
  delayedDurability: 'ALLOWED',
  affinity: { type: 'MANUAL', cpus: Array.from({ length: 20 }, (_, i) => i), numaNodes: [0] },
};

async function prepare(sim: Simulator): Promise<void> {
  assert.deepEqual(await startFromNode0Allowed(sim, LAB), ORIGINAL);
}

const spinlab = spinlabChild;

function readSamples(outDir: string): { run: number; tick: Tick }[] {
  const file = path.join(outDir, 'samples.jsonl');
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, 'utf8');
  // Only whole lines: a line cut by the kill would not end in '\n' (appendFileSync writes each line in one call).
  return text
    .split('\n')
    .slice(0, -1)
    .map((l) => JSON.parse(l) as { run: number; tick: Tick });
}

/** Starts `spinlab run` with knobs, waits for them on the server and for ticks in samples.jsonl, then SIGKILLs it. */
async function runAndKill(sim: Simulator, stateDir: string): Promise<{ outDir: string; ticksAtKill: number }> {
  const outDir = tmp('crash-out');
  const child = spinlab(sim, stateDir, [
    'run',
    '--scenario',
    'disk-insert',
    '--threads',
    '4',
    '--duration',
    '120s',
    '--warmup',
    '0s',
    '--interval',
    '250ms',
    '--delayed-durability',
    'forced',
    '--affinity',
    'exclude-core0',
    '--no-deploy',
    '--set',
    'seed_rows=0',
    '--out',
    outDir,
  ]);
  try {
    const end = Date.now() + 60_000;
    for (;;) {
      const lab = sim.model.databases.get(LAB.toLowerCase());
      const changed = lab?.delayedDurability === 'FORCED' && !sim.model.affinity.cpus.includes(0) && sim.model.affinity.cpus.includes(39);
      if (changed && readSamples(outDir).length >= 3) break;
      if (child.proc.exitCode !== null) assert.fail(`spinlab run ended before the kill (exit ${child.proc.exitCode}):\n${child.out()}`);
      if (Date.now() > end) assert.fail(`no knobs and ticks within 60 s:\n${child.out()}`);
      await sleep(50);
    }
    child.proc.kill('SIGKILL');
    const { signal } = await child.exited;
    assert.equal(signal, 'SIGKILL');
  } finally {
    if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
  }
  const ticksAtKill = readSamples(outDir).length;
  return { outDir, ticksAtKill };
}

/** What a SIGKILL leaves: the journal of the originals, the server still changed, the ticks written so far. */
async function assertLeftChanged(sim: Simulator, stateDir: string, outDir: string, ticksAtKill: number): Promise<string> {
  const key = serverKey(`127.0.0.1,${sim.port}`, sim.model.serverName);
  const j = readJournal(stateDir, key);
  assert.ok(j, 'the journal file exists after the kill');
  assert.deepEqual(j!.original, ORIGINAL, 'the journal holds the state from before the run');
  assert.deepEqual([...j!.changes].sort(), ['affinity', 'delayedDurability']);
  const now = await knobsNow(sim);
  assert.equal(now.delayedDurability, 'FORCED', 'delayed durability is still changed');
  assert.equal(now.affinity.type, 'MANUAL');
  assert.notDeepEqual(now.affinity.cpus, ORIGINAL.affinity.cpus, 'affinity is still changed');
  const samples = readSamples(outDir);
  assert.ok(ticksAtKill >= 3, `ticks written before the kill: ${ticksAtKill}`);
  assert.equal(samples.length, ticksAtKill, 'samples.jsonl keeps every tick written before the kill');
  assert.ok(
    samples.every((s) => s.run === 0 && typeof s.tick.t === 'number' && s.tick.intervalMs > 0),
    'each line is a whole tick',
  );
  const experiment = JSON.parse(fs.readFileSync(path.join(outDir, 'experiment.json'), 'utf8')) as {
    status: string;
    knobs: { applied: unknown };
  };
  assert.equal(experiment.status, 'running', 'experiment.json is the record written at the start (the kill left no chance to finish it)');
  return key;
}

it('SIGKILL mid-run, then `spinlab restore` (a child process) puts affinity and delayed durability back exactly', () =>
  withSim({}, async (sim) => {
    await prepare(sim);
    const stateDir = tmp('crash-state');
    const { outDir, ticksAtKill } = await runAndKill(sim, stateDir);
    const key = await assertLeftChanged(sim, stateDir, outDir, ticksAtKill);

    const restore = spinlab(sim, stateDir, ['restore']);
    const { code } = await restore.exited;
    assert.equal(code, 0, restore.out());
    assert.match(restore.out(), /delayed durability on \[SpinlockLab\] set back to ALLOWED/);
    assert.match(restore.out(), /process affinity set back to NUMANODE = 0/);
    assert.match(restore.out(), /Restored; the journal is removed/);
    assert.deepEqual(await knobsNow(sim), ORIGINAL, 'back exactly as before the run');
    assert.equal(readJournal(stateDir, key), null);
    assert.equal(readSamples(outDir).length, ticksAtKill, 'restore leaves the samples alone');
    assertRecovered(outDir, ticksAtKill);
    assert.match(restore.out(), /record .* was completed from samples\.jsonl: \d+ ticks in 1 unfinished run/);
    const again = spinlab(sim, stateDir, ['restore']);
    assert.equal((await again.exited).code, 0);
    assert.match(again.out(), /Nothing to restore/);
  })).timeout(180_000);

it("SIGKILL mid-run, then the panel's Restore (LabController) puts affinity and delayed durability back exactly", () =>
  withSim({}, async (sim) => {
    await prepare(sim);
    const stateDir = tmp('crash-state');
    const { outDir, ticksAtKill } = await runAndKill(sim, stateDir);
    const key = await assertLeftChanged(sim, stateDir, outDir, ticksAtKill);

    const ports = fakePorts();
    const c = new LabController(ports, { editor: 'vscode', stateDir });
    try {
      await c.start();
      const profile = defaultProfile({
        id: 'sim',
        label: 'simulator',
        server: '127.0.0.1',
        port: sim.port,
        user: 'sa',
        encrypt: 'optional',
        trustServerCertificate: true,
      });
      await c.receive({ type: 'connectionOpen', payload: { profile, password: SIM_PASSWORD, savePassword: false } });
      let s = ports.lastState();
      assert.equal(s.connection.status, 'connected', JSON.stringify(s.connection.error));
      assert.ok(s.journal, 'the panel shows the journal the killed run left');
      assert.deepEqual([...s.journal!.changes].sort(), ['affinity', 'delayedDurability']);
      await c.receive({ type: 'serverRestore', payload: {} });
      s = ports.lastState();
      assert.equal(s.lastError, null, JSON.stringify(s.lastError));
      assert.equal(s.journal, null);
      assert.ok(
        ports
          .ofType('toast')
          .some(
            (t) =>
              /process affinity set back to NUMANODE = 0/.test(t.payload.message) &&
              /delayed durability on \[SpinlockLab\] set back to ALLOWED/.test(t.payload.message),
          ),
        JSON.stringify(ports.ofType('toast')),
      );
      assert.deepEqual(s.server?.knobs, ORIGINAL, 'the panel reads back the original state');
    } finally {
      await c.dispose();
    }
    assert.deepEqual(await knobsNow(sim), ORIGINAL, 'back exactly as before the run');
    assert.equal(readJournal(stateDir, key), null);
    assert.equal(readSamples(outDir).length, ticksAtKill);
    assertRecovered(outDir, ticksAtKill);
  })).timeout(180_000);

/** After the restore, experiment.json says what happened and holds the killed run, its ticks from samples.jsonl. */
function assertRecovered(outDir: string, ticksAtKill: number): void {
  const e = JSON.parse(fs.readFileSync(path.join(outDir, 'experiment.json'), 'utf8')) as Experiment;
  assert.equal(e.status, 'failed');
  assert.equal(validateExperiment(e), null, 'the completed record matches the schema');
  assert.equal(e.runs.length, 1);
  assert.equal(e.runs[0].status, 'failed');
  assert.equal(e.runs[0].timeline.length, ticksAtKill, 'every tick written before the kill is in the record');
  assert.ok(e.runs[0].rows > 0);
  assert.ok(
    e.events.some((x) => /stopped without finishing \(killed or crashed\)/.test(x.message)),
    JSON.stringify(e.events),
  );
}
