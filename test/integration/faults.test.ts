// Faults from the simulator in the middle of a run, with the server's knobs changed from a non-default start (affinity
// CPUs 0-19, delayed durability ALLOWED) so that "put back exactly" means something: one workload session dropped, one
// login of four refused (under each load driver), the monitor connection dropped, an instance restart, connections
// refused, slow responses, a statement failing, and a restore that cannot take. Each must end with the experiment's
// status and events saying what happened, every tick taken before the fault kept in samples.jsonl and experiment.json,
// and the knobs read back equal to the originals with no journal left (or, where restore was impossible, the journal
// kept and a message that says `spinlab restore`).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withSim } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import { runExperiment, type ExperimentOptions, type ExperimentProgress, type ExperimentResult } from '../../src/engine/experiment';
import { DbSession } from '../../src/db/client';
import { readKnobState } from '../../src/engine/knobs';
import { defaultParameters, getScenario } from '../../src/engine/scenarios';
import { deployCommand, restoreCommand } from '../../src/cli/commands';
import { readJournal, serverKey } from '../../src/engine/journal';
import { CUSTOM_SCENARIO_ID } from '../../src/engine/custom/manifest';
import type { CustomWorkload, Experiment, KnobState, Tick } from '../../src/shared/experiment';
import { tmp } from '../helpers/common';
import { targetFor as simTarget } from '../helpers/simTarget';
import { failFile } from '../helpers/simFaults';

const LAB = 'SpinlockLab';
/** The state the server starts in: not SQL Server's defaults, so a restore to AUTO/DISABLED would be caught. */
// A CPU list that is not a whole NUMA node (a whole node reads and restores as NUMANODE: crash.test.ts).
const ORIGINAL: KnobState = { delayedDurability: 'ALLOWED', affinity: { type: 'MANUAL', cpus: Array.from({ length: 19 }, (_, i) => i) } };
/** What the experiment asks for: both differ from ORIGINAL. */
const KNOBS = { delayedDurability: 'FORCED' as const, affinity: 'exclude-core0' };

// A short connect timeout: these tests stop the server and want the reconnect to give up soon.
const targetFor = (sim: Simulator) => simTarget(sim, { connectTimeoutS: 5 });

async function withAdmin<T>(sim: Simulator, fn: (db: DbSession) => Promise<T>): Promise<T> {
  const db = await DbSession.open(targetFor(sim), { database: 'master' });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

const knobsNow = (sim: Simulator) => withAdmin(sim, (db) => readKnobState(db, LAB));

/** Deploys disk-insert and moves the server to ORIGINAL (as its configured state, so a restart keeps it). */
async function prepare(sim: Simulator): Promise<void> {
  await deployCommand(targetFor(sim), 'disk-insert', ['seed_rows=0'], LAB);
  await withAdmin(sim, async (db) => {
    await db.runFile('knobs/affinity-cpu', { cpu_ranges: '0 TO 18' });
    await db.runFile('knobs/delayed-durability', { db: LAB, mode: 'ALLOWED' });
  });
  sim.model.startupAffinity = sim.model.affinity;
  assert.deepEqual(await knobsNow(sim), ORIGINAL);
}

interface FaultRun {
  result: ExperimentResult | null;
  error: Error | null;
  experiment: Experiment;
  outDir: string;
  stateDir: string;
  /** Ticks the progress callback saw, by run index, and how many of them came before the fault. */
  seen: Map<number, Tick[]>;
  beforeFault: { run: number; count: number } | null;
  samples: { run: number; tick: Tick }[];
  said: string;
  journalKey: string;
}

interface FaultSpec {
  load?: Partial<ExperimentOptions['load']>;
  /** Inject when this progress event arrives (default: the 3rd tick of the first run). */
  when?: (p: ExperimentProgress, ticksInRun: number) => boolean;
  inject: (sim: Simulator) => void | Promise<void>;
  /** Anything else of the experiment's options (a custom workload). */
  opts?: Partial<ExperimentOptions>;
}

async function runWithFault(sim: Simulator, spec: FaultSpec): Promise<FaultRun> {
  await prepare(sim);
  const outDir = tmp('out');
  const stateDir = tmp('state');
  const scenario = getScenario('disk-insert');
  const opts: ExperimentOptions = {
    target: targetFor(sim),
    scenarioId: 'disk-insert',
    parameters: { ...defaultParameters(scenario), seed_rows: 0 },
    labDatabase: LAB,
    load: { mode: 'server-loop', threads: [4], durationMs: 3000, rows: null, warmupMs: 0, intervalMs: 250, ...spec.load },
    knobs: KNOBS,
    outDir,
    stateDir,
    deploy: false,
    ...spec.opts,
  };
  const seen = new Map<number, Tick[]>();
  let beforeFault: FaultRun['beforeFault'] = null;
  let injected: Promise<void> | null = null;
  const when = spec.when ?? ((p, n) => p.kind === 'tick' && p.run === 0 && n === 3);
  let result: ExperimentResult | null = null;
  let error: Error | null = null;
  try {
    result = await runExperiment(opts, new AbortController().signal, (p) => {
      let n = 0;
      if (p.kind === 'tick') {
        const list = seen.get(p.run) ?? [];
        list.push(p.tick);
        seen.set(p.run, list);
        n = list.length;
      }
      if (!injected && when(p, n)) {
        const run = p.kind === 'tick' || p.kind === 'run-start' ? p.run : 0;
        beforeFault = { run, count: seen.get(run)?.length ?? 0 };
        injected = Promise.resolve(spec.inject(sim));
      }
    });
  } catch (e) {
    error = e as Error;
  }
  await injected;
  assert.ok(injected, 'the fault was injected');
  const experiment = JSON.parse(fs.readFileSync(path.join(outDir, 'experiment.json'), 'utf8')) as Experiment;
  const samplesFile = path.join(outDir, 'samples.jsonl');
  const samples = fs.existsSync(samplesFile)
    ? fs
        .readFileSync(samplesFile, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { run: number; tick: Tick })
    : [];
  const said = [...experiment.events, ...experiment.runs.flatMap((r) => r.events)].map((e) => `${e.level}: ${e.message}`).join('\n');
  return {
    result,
    error,
    experiment,
    outDir,
    stateDir,
    seen,
    beforeFault,
    samples,
    said,
    journalKey: serverKey(`127.0.0.1,${sim.port}`, experiment.server.serverName),
  };
}

/** Every tick the callback saw is in samples.jsonl, in order; every tick before the fault is in experiment.json. */
function assertTicksKept(r: FaultRun): void {
  assert.ok((r.beforeFault && r.beforeFault.count >= 1) || r.beforeFault?.count === 0, 'fault position recorded');
  for (const [run, ticks] of r.seen) {
    const written = r.samples.filter((s) => s.run === run).map((s) => s.tick);
    assert.deepEqual(written, ticks, `samples.jsonl holds every tick of run ${run} the progress callback saw, in order`);
  }
  const { run, count } = r.beforeFault!;
  const before = (r.seen.get(run) ?? []).slice(0, count);
  const record = r.experiment.runs.find((x) => x.index === run);
  assert.ok(record, `experiment.json has run ${run}`);
  assert.deepEqual(
    record!.timeline.slice(0, count),
    before,
    `experiment.json keeps the ${count} ticks of run ${run} taken before the fault`,
  );
}

async function assertRestoredExactly(sim: Simulator, r: FaultRun): Promise<void> {
  assert.deepEqual(await knobsNow(sim), ORIGINAL, 'affinity and delayed durability are back exactly as they were');
  assert.equal(readJournal(r.stateDir, r.journalKey), null, 'no journal is left');
  assert.deepEqual(r.experiment.knobs.before, ORIGINAL, 'experiment.json records the state before');
  assert.deepEqual(r.experiment.knobs.restored, ORIGINAL, 'experiment.json records the state restored');
}

function workloadSpids(sim: Simulator): number[] {
  return sim.server
    .sessions()
    .filter((s) => s.appName === 'Spinlock Lab' && s.database.toLowerCase() === LAB.toLowerCase())
    .map((s) => s.spid);
}

it('one workload session dropped mid-run: the others finish, the failure is named, knobs put back', () =>
  withSim({}, async (sim) => {
    let victim = 0;
    const r = await runWithFault(sim, {
      inject: (s) => {
        const spids = workloadSpids(s);
        assert.equal(spids.length, 4, `four workload sessions: ${JSON.stringify(s.server.sessions())}`);
        victim = spids[1];
        assert.ok(s.faults.dropSession(victim));
      },
    });
    assert.equal(r.error, null, r.error?.message);
    assert.equal(r.experiment.status, 'completed', r.said);
    const run = r.experiment.runs[0];
    assert.equal(run.sessionFailures.length, 1, JSON.stringify(run.sessionFailures));
    assert.equal(run.sessionsOk, 3);
    assert.match(r.said, /run 1 \(4 threads\): session \d failed: the connection to the server was lost \(/);
    assert.ok((r.seen.get(0)?.length ?? 0) > r.beforeFault!.count, 'ticks keep coming after the drop');
    assertTicksKept(r);
    await assertRestoredExactly(sim, r);
    assert.match(r.said, /restored: delayed durability on \[SpinlockLab\] set back to ALLOWED/);
    assert.match(r.said, /restored: process affinity set back to CPUs 0 TO 18/);
  }));

describe('one login of four refused as the run opens its sessions: the run completes on three, and says three sessions were ok', () => {
  const refuseOne = (database: string): FaultSpec => ({
    when: (p) => p.kind === 'status' && /opening 4 sessions/.test(p.message),
    inject: (s) =>
      s.faults.failLogins({
        database,
        times: 1,
        number: 17809,
        class: 20,
        message: "Could not connect because the maximum number of '3' user connections has already been reached (injected).",
      }),
  });
  const workload: CustomWorkload = {
    statements: [{ source: '--sql', text: 'SELECT 1' }],
    database: LAB,
    params: null,
    iterations: null,
    thinkTimeMs: 0,
    queryTimeoutMs: null,
    stopOnError: false,
    writes: null,
  };
  const drivers: [string, FaultSpec][] = [
    ["the server loop's sessions on one event loop", { load: { durationMs: 1500 }, ...refuseOne(LAB) }],
    ['the client loop on two worker threads', { load: { mode: 'client-loop', durationMs: 1500, clientWorkers: 2 }, ...refuseOne(LAB) }],
    [
      'a custom workload on one event loop',
      {
        load: { mode: 'client-loop', durationMs: 1500, clientWorkers: 0 },
        ...refuseOne(LAB),
        opts: { scenarioId: CUSTOM_SCENARIO_ID, parameters: {}, custom: { workload, table: null } },
      },
    ],
  ];
  for (const [name, spec] of drivers) {
    it(name, () =>
      withSim({}, async (sim) => {
        const r = await runWithFault(sim, spec);
        assert.equal(r.error, null, r.error?.message);
        assert.equal(r.experiment.status, 'completed', r.said);
        const run = r.experiment.runs[0];
        assert.equal(run.sessionFailures.length, 1, JSON.stringify(run.sessionFailures));
        assert.match(run.sessionFailures[0].message, /could not connect.*maximum number of '3' user connections/);
        assert.equal(run.sessionsOk, 3, 'four sessions, one never connected');
        await assertRestoredExactly(sim, r);
      }),
    );
  }
});

it("calls failing in the warm-up only (three sessions of four): recorded as the warm-up's, and the measured run stands", () =>
  withSim({}, async (sim) => {
    const r = await runWithFault(sim, {
      load: { mode: 'client-loop', clientWorkers: 0, warmupMs: 500, durationMs: 1500 },
      when: (p) => p.kind === 'status' && /warming up/.test(p.message),
      inject: (s) =>
        s.faults.failStatement('dbo.spinlab_disk_insert_batch', {
          number: 1205,
          message: 'Transaction was deadlocked (injected).',
          times: 3,
        }),
    });
    assert.equal(r.error, null, r.error?.message);
    const run = r.experiment.runs[0];
    assert.equal(run.status, 'completed', `three of four sessions failing in the warm-up do not fail the measurement: ${r.said}`);
    assert.equal(run.sessionFailures.length, 3, JSON.stringify(run.sessionFailures));
    assert.ok(
      run.sessionFailures.every((f) => f.message === 'warm-up: Transaction was deadlocked (injected).' && f.number === 1205),
      JSON.stringify(run.sessionFailures),
    );
    assert.ok(run.rows > 0);
    await assertRestoredExactly(sim, r);
  }));

it('the monitor connection dropped: it reconnects, the run goes on, and the first tick after the gap is marked', () =>
  withSim({}, async (sim) => {
    const r = await runWithFault(sim, {
      inject: (s) => {
        const monitor = s.server.sessions().filter((x) => x.appName === 'Spinlock Lab monitor');
        assert.equal(monitor.length, 1);
        assert.ok(s.faults.dropSession(monitor[0].spid));
      },
    });
    assert.equal(r.error, null, r.error?.message);
    assert.equal(r.experiment.status, 'completed', r.said);
    // Dropped between two ticks (as here, from the tick callback) or during one: either way it is said, and reconnected.
    assert.match(
      r.said,
      /warning: run 1 \(4 threads\): (the monitor connection was lost between two samples|monitor sample failed: .*); reconnecting/,
    );
    const ticks = r.seen.get(0)!;
    const after = ticks.slice(r.beforeFault!.count);
    assert.ok(after.length >= 1, 'ticks after the reconnect');
    assert.equal(after[0].gap, true, 'the first tick after the gap has gap: true');
    assert.ok(
      ticks.slice(0, r.beforeFault!.count).every((t) => !t.gap),
      'no tick before the gap is marked',
    );
    assert.ok(
      after.slice(1).every((t) => !t.gap),
      'only the first tick after the gap is marked',
    );
    assert.equal(r.experiment.runs[0].sessionFailures.length, 0, 'the workload never noticed');
    assertTicksKept(r);
    await assertRestoredExactly(sim, r);
  }));

it('an instance restart mid-run: reported as a restart, the ticks before it kept, both knobs put back', () =>
  withSim({}, async (sim) => {
    const r = await runWithFault(sim, {
      inject: (s) => {
        s.faults.restart();
      },
    });
    assert.equal(r.error, null, r.error?.message);
    assert.equal(r.experiment.status, 'failed', r.said);
    assert.equal(r.experiment.runs[0].status, 'failed');
    assert.match(r.said, /SQL Server restarted between two samples[\s\S]*The samples before it are kept/);
    assert.ok(r.experiment.runs[0].sessionFailures.length >= 3, 'the dropped sessions are reported');
    assertTicksKept(r);
    // The restart put affinity back to its configured value (ORIGINAL); delayed durability is a database setting and
    // survived it: the restore must still set it back.
    await assertRestoredExactly(sim, r);
    assert.match(r.said, /restored: delayed durability on \[SpinlockLab\] set back to ALLOWED/);
  }));

it('connections refused between two runs: the next run fails saying so, the first run is kept, knobs put back', () =>
  withSim({}, async (sim) => {
    const r = await runWithFault(sim, {
      load: { threads: [2, 4], durationMs: 1500 },
      inject: (s) => s.faults.refuseConnections(true),
    });
    await sim.faults.refuseConnections(false);
    assert.equal(r.error, null, `the experiment ends with a result, not an exception: ${r.error?.message}`);
    assert.equal(r.experiment.status, 'failed', r.said);
    assert.deepEqual(
      r.experiment.runs.map((x) => [x.threads, x.status]),
      [
        [2, 'completed'],
        [4, 'failed'],
      ],
    );
    assert.match(r.said, /run 2 \(4 threads\): .*Only 0 of 4 workload sessions could connect.*(ECONNREFUSED|refused|Failed to connect)/i);
    assertTicksKept(r);
    await assertRestoredExactly(sim, r);
  }));

it('slow responses (every reply held back longer than the interval): the run completes, late ticks are reported, knobs put back', () =>
  withSim({}, async (sim) => {
    const r = await runWithFault(sim, {
      load: { durationMs: 3000 },
      inject: (s) => s.faults.setResponseDelay(600),
    });
    sim.faults.setResponseDelay(0);
    assert.equal(r.error, null, r.error?.message);
    assert.equal(r.experiment.status, 'completed', r.said);
    assert.match(r.said, /warning: run 1 \(4 threads\): .*took \d+ ms, longer than the 250 ms interval/);
    assertTicksKept(r);
    const ticks = r.seen.get(0)!;
    assert.ok(
      ticks.slice(r.beforeFault!.count).some((t) => t.intervalMs > 400),
      'intervals after the fault stretch to the slower replies',
    );
    await assertRestoredExactly(sim, r);
  }));

it("a statement failing mid-run (one session's call in the client loop): the session is named with the error, knobs put back", () =>
  withSim({}, async (sim) => {
    const r = await runWithFault(sim, {
      load: { mode: 'client-loop' },
      inject: (s) =>
        s.faults.failStatement('dbo.spinlab_disk_insert_batch', {
          number: 1205,
          message: 'Transaction was deadlocked (injected).',
          times: 1,
        }),
    });
    assert.equal(r.error, null, r.error?.message);
    assert.equal(r.experiment.status, 'completed', r.said);
    const run = r.experiment.runs[0];
    assert.equal(run.sessionFailures.length, 1);
    assert.equal(run.sessionFailures[0].number, 1205);
    assert.match(r.said, /run 1 \(4 threads\): session \d failed: Transaction was deadlocked \(injected\)/);
    assertTicksKept(r);
    await assertRestoredExactly(sim, r);
  }));

it("the monitor's statement failing mid-run: a warning, a reconnect, a gap-marked tick, knobs put back", () =>
  withSim({}, async (sim) => {
    const r = await runWithFault(sim, {
      inject: (s) =>
        failFile(s, 'dmv/sample-delta', {
          number: 1222,
          message: 'Lock request time out period exceeded (injected).',
          times: 1,
        }),
    });
    assert.equal(r.error, null, r.error?.message);
    assert.equal(r.experiment.status, 'completed', r.said);
    assert.match(r.said, /monitor sample failed: Lock request time out period exceeded \(injected\)/);
    assert.ok(
      r.seen
        .get(0)!
        .slice(r.beforeFault!.count)
        .some((t) => t.gap),
      'a tick after the failure is gap-marked',
    );
    assertTicksKept(r);
    await assertRestoredExactly(sim, r);
  }));

it('the server goes away mid-run (every connection dropped, new ones refused): the run and its ticks stay in the record, the experiment fails and keeps the journal; spinlab restore puts both back once it returns', () =>
  withSim({}, async (sim) => {
    const r = await runWithFault(sim, {
      load: { threads: [2, 4], durationMs: 3000 },
      inject: async (s) => {
        await s.faults.refuseConnections(true);
        s.faults.restart();
      },
    });
    assert.equal(r.error, null, `the experiment ends with a result, not an exception: ${r.error?.message}`);
    assert.equal(r.experiment.status, 'failed', r.said);
    assert.equal(r.experiment.runs.length, 1, 'the run in progress is recorded, and the next one does not start');
    assert.notEqual(r.experiment.runs[0].status, 'completed');
    assertTicksKept(r);
    assert.match(r.said, /Could not restore the server's settings: .*Run `spinlab restore` to retry/);
    assert.ok(readJournal(r.stateDir, r.journalKey), 'the journal is kept');
    await sim.faults.refuseConnections(false);
    await restoreCommand(targetFor(sim), r.stateDir);
    assert.deepEqual(await knobsNow(sim), ORIGINAL);
    assert.equal(readJournal(r.stateDir, r.journalKey), null);
  }));

it('a restore that cannot take (the affinity statement fails): the journal is kept and the message says spinlab restore, which then puts both back', () =>
  withSim({}, async (sim) => {
    const r = await runWithFault(sim, {
      // Armed after the knobs are applied: only the restore's ALTER SERVER CONFIGURATION fails.
      when: (p) => p.kind === 'run-start',
      inject: (s) =>
        failFile(s, 'knobs/affinity-cpu', {
          number: 5834,
          message: 'The affinity mask specified conflicts with the IO affinity mask (injected).',
        }),
    });
    assert.equal(r.error, null, r.error?.message);
    assert.equal(r.experiment.status, 'completed', r.said);
    assert.match(
      r.said,
      /error: Could not restore the server's settings: Changing process affinity failed: .*\(injected\)[\s\S]*Run `spinlab restore`/,
    );
    assert.equal(r.experiment.knobs.restored, null, 'nothing claims to be restored');
    const j = readJournal(r.stateDir, r.journalKey);
    assert.ok(j, 'the journal is kept');
    assert.deepEqual(j!.original, ORIGINAL);
    assert.deepEqual([...j!.changes].sort(), ['affinity', 'delayedDurability']);
    assert.notDeepEqual((await knobsNow(sim)).affinity, ORIGINAL.affinity, 'the affinity is still changed');
    assertTicksKept(r);
    sim.faults.clearFailures();
    const msg = await restoreCommand(targetFor(sim), r.stateDir);
    assert.match(msg, /process affinity set back to CPUs 0 TO 18/);
    assert.deepEqual(await knobsNow(sim), ORIGINAL);
    assert.equal(readJournal(r.stateDir, r.journalKey), null);
  }));
