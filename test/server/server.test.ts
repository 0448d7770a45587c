// The real-server tier (npm run test:server): against the server in SPINLAB_TEST_SERVER (a connection
// string; the password from SPINLAB_TEST_PASSWORD), run spinlab check, deploy and clean up every scenario, a short run
// of each in both modes, each knob changed and restored exactly, a preset, and then check nothing is left: no lab
// database, no changed setting, no event session, no restore journal. It uses its own lab database
// (SpinlabTest_<time>) and drops it at the end. Without the variable it says so loudly and runs nothing.
// Against the simulator: SPINLAB_TEST_SERVER="Server=127.0.0.1,14330;User ID=sa;Encrypt=false" with spinlab sim.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DbSession } from '../../src/db/client';
import type { DbTarget } from '../../src/db/target';
import { num } from '../../src/db/rows';
import { targetFromArgs } from '../../src/cli/commands';
import { checkServer, checkText, type CheckReport } from '../../src/engine/check';
import { runExperiment } from '../../src/engine/experiment';
import { listJournals } from '../../src/engine/journal';
import { readKnobState } from '../../src/engine/knobs';
import { cleanupScenario, dropLab } from '../../src/engine/lab';
import { presetRequest, runPreset } from '../../src/engine/presetRun';
import { defaultParameters, getScenario, listScenarios, needsXtp } from '../../src/engine/scenarios';
import { readIdentity, readTopology } from '../../src/engine/server';
import type { KnobState, ParamValue } from '../../src/shared/experiment';
import type { ServerIdentity, Topology } from '../../src/shared/types';

const CONN = process.env.SPINLAB_TEST_SERVER;
if (!CONN) {
  process.stderr.write(
    [
      '',
      '*** test:server SKIPPED: SPINLAB_TEST_SERVER is not set. ***',
      '    This tier runs Spinlock Lab against a real SQL Server (or the simulator) and leaves it as it found it.',
      '    Run it with:  SPINLAB_TEST_SERVER="Server=HOST,1433;User ID=sa;TrustServerCertificate=true" SPINLAB_TEST_PASSWORD=... npm run test:server',
      '    (README: "Testing against a real SQL Server" shows the SQL Server container image.)',
      '',
      '',
    ].join('\n'),
  );
  it('test:server: SPINLAB_TEST_SERVER is not set, so nothing ran against a server (see the message above)');
}

const LAB = `SpinlabTest_${Date.now().toString(36)}`;
/** Skips a test saying why (mocha shows it as pending; the reason goes to stderr). */
function skip(ctx: Mocha.Context, why: string): void {
  process.stderr.write(`    skipped: ${why}\n`);
  ctx.skip();
}
const small: Record<string, Record<string, ParamValue>> = {
  'disk-insert': { seed_rows: 1000 },
  'inmem-insert': { bucket_count: 65536 },
  'ring-buffer': { slots: 4096 },
};
/** Every deploy path of every scenario: the defaults, and the variants that deploy other sql/ files. */
const VARIANTS: { scenario: string; set: Record<string, ParamValue> }[] = [
  ...listScenarios().map((s) => ({ scenario: s.id, set: {} })),
  { scenario: 'ring-buffer', set: { storage: 'memory' } },
  { scenario: 'ring-buffer', set: { storage: 'disk', slot_source: 'identity' } },
  { scenario: 'ring-buffer', set: { storage: 'memory', slot_source: 'identity' } },
];

(CONN ? describe : describe.skip)('test:server: Spinlock Lab against the server in SPINLAB_TEST_SERVER', function () {
  this.timeout(600_000);
  let target: DbTarget;
  let admin: DbSession;
  let identity: ServerIdentity;
  let topology: Topology;
  let report: CheckReport;
  let original: KnobState;
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-server-state-'));
  const outRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-server-out-'));

  before(async function () {
    target = targetFromArgs(CONN, { ...process.env, SPINLAB_PASSWORD: process.env.SPINLAB_TEST_PASSWORD ?? process.env.SPINLAB_PASSWORD });
    admin = await DbSession.open(target, { database: 'master', appName: 'Spinlock Lab test:server' });
    identity = await readIdentity(admin);
    topology = (await readTopology(admin, identity)).topology;
    original = await readKnobState(admin, LAB);
  });

  after(async () => {
    if (!admin) return;
    try {
      await dropLab(admin, LAB, identity).catch(() => undefined);
    } finally {
      await admin.close();
    }
  });

  const can = (id: string) => report.features.find((f) => f.id === id)?.canRun === true;
  const run = async (scenario: string, set: Record<string, ParamValue>, mode: 'server-loop' | 'client-loop', knobs = {}) => {
    const m = getScenario(scenario);
    const parameters = { ...defaultParameters(m), ...(small[scenario] ?? {}), ...set };
    const r = await runExperiment(
      {
        target,
        scenarioId: scenario,
        parameters,
        labDatabase: LAB,
        knobs,
        stateDir,
        load: { mode, threads: [1, 2], durationMs: 1500, rows: null, warmupMs: 0, intervalMs: 500 },
        outDir: fs.mkdtempSync(path.join(outRoot, `${scenario}-`)),
      },
      new AbortController().signal,
    );
    return { e: r.experiment, m, parameters };
  };

  it('spinlab check: a supported server, and what this login can do', async () => {
    report = await checkServer(admin, LAB);
    process.stderr.write(`\n${checkText(report)}\n`);
    assert.equal(report.supported, true, report.notes.join(' '));
    assert.ok(can('deploy') && can('sample'), 'this tier needs a login that can deploy and sample (see the check above)');
  });

  for (const v of VARIANTS) {
    for (const mode of ['server-loop', 'client-loop'] as const) {
      it(`${v.scenario} ${JSON.stringify(v.set)} (${mode}): deploy, a short run at 1 and 2 sessions, cleanup`, async function () {
        const m = getScenario(v.scenario);
        const parameters = { ...defaultParameters(m), ...(small[v.scenario] ?? {}), ...v.set };
        if (needsXtp(m, parameters) && !can('in-memory')) return skip(this, 'In-Memory OLTP is not available here (see the check)');
        const { e } = await run(v.scenario, v.set, mode);
        assert.equal(e.status, 'completed', JSON.stringify(e.events ?? []));
        assert.equal(e.runs.length, 2);
        for (const r of e.runs) {
          assert.equal(r.status, 'completed');
          assert.ok(r.timeline.length >= 1, 'every run sampled');
          assert.ok(r.rows > 0, 'every run did work');
        }
        await cleanupScenario(target, admin, identity, LAB, m, parameters, () => undefined);
      });
    }
  }

  it('each knob changed for a run and restored exactly (affinity, delayed durability FORCED and ALLOWED)', async function () {
    if (!can('affinity') || !can('delayed-durability')) return skip(this, 'this login cannot change the knobs (see the check)');
    const before = await readKnobState(admin, LAB);
    const half = topology.schedulers
      .filter((s) => s.isOnline)
      .map((s) => s.cpuId)
      .sort((a, b) => a - b);
    const cpus = half.slice(0, Math.max(1, Math.floor(half.length / 2)));
    for (const knobs of [
      { affinity: `cpu:${cpus[0]}-${cpus[cpus.length - 1]}`, delayedDurability: 'FORCED' as const },
      { delayedDurability: 'ALLOWED' as const },
    ]) {
      const { e } = await run('disk-insert', {}, 'server-loop', knobs);
      assert.equal(e.status, 'completed');
      assert.deepEqual(await readKnobState(admin, LAB), before, `settings back exactly after ${JSON.stringify(knobs)}`);
    }
    assert.deepEqual(listJournals(stateDir), [], 'no restore journal left');
  });

  it('a preset (writelog) runs and restores', async function () {
    if (!can('delayed-durability')) return skip(this, 'this login cannot change delayed durability (see the check)');
    const before = await readKnobState(admin, LAB);
    const req = presetRequest({
      presetId: 'writelog',
      threads: '2',
      duration: '1s',
      warmup: '0s',
      interval: '500ms',
      set: ['seed_rows=1000'],
      repeat: '1',
    });
    const r = await runPreset(
      req,
      { target, labDatabase: LAB, outDir: fs.mkdtempSync(path.join(outRoot, 'preset-')), stateDir },
      new AbortController().signal,
    );
    assert.equal(r.experiment.status, 'completed');
    assert.deepEqual(await readKnobState(admin, LAB), before);
  });

  it('nothing left behind: lab database dropped, settings as found, no event session, no journal', async () => {
    await dropLab(admin, LAB, identity);
    const [[left] = []] = await admin.runFile('server/leftovers', { db: LAB });
    assert.deepEqual([num(left.lab_db_exists), num(left.event_sessions_defined), num(left.event_sessions_running)], [0, 0, 0]);
    const now = await readKnobState(admin, LAB);
    assert.deepEqual(now.affinity, original.affinity, 'process affinity as it was before the tier');
    assert.deepEqual(listJournals(stateDir), []);
  });
});
