// The five presets run from the command line (in process) against the simulator, each as one experiment, and the
// simulator reproduces the direction of each seed post's finding through them, as its contention model promises
// (tools/sim/model/contention.ts, R2-R8). After each preset the server's knobs are back and no journal is left. A
// one-node server gets the preset's adaptation instead of a failure.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { withSim } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import { buildProgram } from '../../src/cli/main';
import { DbSession } from '../../src/db/client';
import { targetFromArgs } from '../../src/cli/commands';
import { readKnobState } from '../../src/engine/knobs';
import { listJournals } from '../../src/engine/journal';
import { validateExperiment } from '../../src/engine/migrate';
import { getPreset } from '../../src/engine/presets';
import { runFigures } from '../../src/shared/analysis';
import { getPost } from '../../src/shared/posts';
import type { Experiment, RunRecord } from '../../src/shared/experiment';
import { runPlan, type PlanArm } from '../../src/engine/experiment';
import { defaultParameters, getScenario } from '../../src/engine/scenarios';
import { connString } from '../helpers/simTarget';

/** Runs `spinlab <args>` in process; returns the exit code and what it printed. */
async function spinlab(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  let code = 0;
  const program = buildProgram(
    (s) => {
      out += s;
    },
    (s) => {
      out += s;
    },
    (c) => {
      code = c;
    },
  );
  await program.parseAsync(args, { from: 'user' });
  return { code, out };
}

const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-presets-state-'));
process.env.SPINLAB_STATE_DIR = stateDir;

/** Runs a preset with short settings; checks the record, the knobs put back and the journal gone; returns the record. */
async function runPreset(sim: Simulator, id: string, extra: string[]): Promise<{ e: Experiment; out: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `spinlab-preset-${id}-`));
  const before = await knobs(sim).catch(() => null);
  // One run per cell: the seeds' directions need no interval, and repetitions would triple the tier's time.
  const r = await spinlab([
    'run',
    '--preset',
    id,
    '-c',
    connString(sim),
    '--warmup',
    '0s',
    '--interval',
    '250ms',
    '--repeat',
    '1',
    '--out',
    dir,
    ...extra,
  ]);
  const e = JSON.parse(fs.readFileSync(path.join(dir, 'experiment.json'), 'utf8')) as Experiment;
  assert.equal(r.code, 0, r.out + JSON.stringify(e.events));
  assert.equal(e.status, 'completed');
  assert.equal(validateExperiment(e), null, 'the record matches the schema');
  assert.deepEqual(e.preset && { id: e.preset.id, post: e.preset.post }, { id, post: getPreset(id).post });
  assert.match(r.out, /SIMULATED/);
  assert.ok(r.out.includes(`preset ${id}, reproducing Chris Adkin, “${getPost(getPreset(id).post).title}”`), r.out.slice(0, 400));
  // Knobs back where they were, verified, and no journal left behind.
  const after = await knobs(sim);
  assert.deepEqual(after, { delayedDurability: 'DISABLED', affinity: { type: 'AUTO', cpus: after.affinity.cpus } });
  assert.equal(after.affinity.cpus.length, sim.model.machine.cpuCount);
  if (before) assert.deepEqual(after.affinity, before.affinity);
  if (before?.delayedDurability) assert.equal(after.delayedDurability, before.delayedDurability);
  assert.deepEqual(listJournals(stateDir), []);
  return { e, out: r.out };
}

async function knobs(sim: Simulator) {
  const admin = await DbSession.open(targetFromArgs(connString(sim), {}), { database: 'master' });
  try {
    return await readKnobState(admin, 'SpinlockLab');
  } finally {
    await admin.close();
  }
}

function run(e: Experiment, arm: string, threads?: number): RunRecord {
  const r = e.runs.find((x) => x.arm.id === arm && (threads === undefined || x.threads === threads));
  assert.ok(
    r,
    `a run of arm ${arm}${threads ? ` at ${threads} threads` : ''} (arms: ${[...new Set(e.runs.map((x) => x.arm.id))].join(', ')})`,
  );
  return r;
}
const spinsPerRow = (r: RunRecord, name: string) => runFigures(r).spinsPerRow[name] ?? 0;

it('spinlab scenarios --json lists the five presets, each with the post it cites by title and author, question, needs and defaults', async () => {
  const { code, out } = await spinlab(['scenarios', '--json']);
  assert.equal(code, 0);
  type Cited = { id: string; title: string; author: string; blog: string };
  const j = JSON.parse(out) as {
    scenarios: { id: string; posts: Cited[] }[];
    presets: {
      id: string;
      posts: Cited[];
      question: string;
      needs: string[];
      defaults: { options: { name: string; default: unknown }[] };
    }[];
  };
  assert.deepEqual(
    j.scenarios.map((s) => s.id),
    ['disk-insert', 'inmem-insert', 'ring-buffer'],
  );
  assert.deepEqual(
    j.presets.map((p) => [p.id, p.posts.map((x) => x.title)]),
    [
      ['numa-logwriter', ['NUMA, The LOGCACHE_ACCESS Spinlock and The Best Machine for OLTP Workloads']],
      ['isolate-core0', ['Large Memory Pages, How They Work and The LOGCACHE_ACCESS Spinlock']],
      ['xdesmgr-batch', ['Tuning The XDESMGR Spinlock On A "Big box"']],
      ['writelog', ['WRITELOG At Scale: Going Beyond "You need faster disks"']],
      ['ring-buffer', ['Ring Buffer Shock Absorb-er Pattern and SQL Server']],
    ],
  );
  assert.deepEqual(
    j.scenarios.find((s) => s.id === 'ring-buffer')!.posts.map((x) => x.title),
    ['Ring Buffer Shock Absorb-er Pattern and SQL Server'],
  );
  assert.equal(j.scenarios.find((s) => s.id === 'disk-insert')!.posts.length, 4);
  for (const c of [...j.presets, ...j.scenarios].flatMap((x) => x.posts))
    assert.deepEqual([c.author, c.blog], ['Chris Adkin', 'chrisadkin.io']);
  for (const p of j.presets) {
    assert.ok(p.question.endsWith('?'));
    assert.ok(p.defaults.options.length > 0);
  }
  assert.doesNotMatch(out, /\d{3}_[0-9a-f]{16}|seed 00\d|"seeds?"/, 'never our file names');
  const text = await spinlab(['scenarios']);
  assert.match(text.out, /reproduces Chris Adkin, “WRITELOG At Scale: Going Beyond "You need faster disks"” \(chrisadkin\.io\)/);
  assert.doesNotMatch(text.out, /\d{3}_[0-9a-f]{16}|\(seed /);
});

it('bad preset settings get a clear error naming the allowed values, before any connection', async () => {
  const r = await spinlab([
    'run',
    '--preset',
    'writelog',
    '--set',
    'batch_size=0',
    '--set',
    'affinity=numa:7',
    '--threads',
    '0',
    '-c',
    'Server=127.0.0.1,1;User ID=sa;Password=x',
  ]).catch((e: Error) => ({ code: -1, out: e.message }));
  assert.match(r.out, /batch_size .*allowed: a whole number from 1 to 1000/);
  assert.match(r.out, /affinity .*allowed: one of exclude-core0, unchanged/);
  assert.match(r.out, /--threads: thread list "0"/);
  await assert.rejects(
    spinlab(['run', '--preset', 'no-such', '-c', 'Server=x']),
    /Unknown preset 'no-such'. Known presets: numa-logwriter, isolate-core0/,
  );
  await assert.rejects(spinlab(['run', '--preset', 'writelog', '--affinity', 'auto', '-c', 'Server=x']), /set by the preset's arms/);
});

it("every preset on a two-node server with In-Memory OLTP reproduces its seed's direction", () =>
  withSim({ topology: '2x10x2' }, async (sim) => {
    // 000: off the log writer's node, LOGCACHE_ACCESS spins more per row and the same rows take longer (R2).
    {
      const { e, out } = await runPreset(sim, 'numa-logwriter', ['--rows', '1M', '--set', 'seed_rows=1000']);
      assert.deepEqual([...new Set(e.runs.map((r) => r.arm.id))], ['lw-node', 'other-node', 'inmem-lw-node', 'inmem-other-node']);
      assert.deepEqual(
        e.runs.map((r) => r.threads),
        [10, 10, 10, 10],
        "the seed's 10 sessions",
      );
      assert.equal(run(e, 'lw-node').arm.knobs.affinity?.spec, 'numa:0-first-core');
      assert.equal(run(e, 'other-node').arm.knobs.affinity?.spec, 'numa:1-first-core');
      assert.equal(run(e, 'lw-node').arm.knobs.delayedDurability, 'FORCED');
      assert.equal(run(e, 'lw-node').arm.parameters.batch_size, 2);
      const [lw, other] = [run(e, 'lw-node'), run(e, 'other-node')];
      assert.ok(
        spinsPerRow(other, 'LOGCACHE_ACCESS') > 2 * spinsPerRow(lw, 'LOGCACHE_ACCESS'),
        'LOGCACHE_ACCESS spins per row higher off the node',
      );
      assert.ok(other.elapsedMs > lw.elapsedMs, `elapsed longer off the node: ${other.elapsedMs} vs ${lw.elapsedMs}`);
      assert.ok(other.derived.rowsPerSec < lw.derived.rowsPerSec, 'throughput lower off the node');
      assert.ok(
        spinsPerRow(run(e, 'inmem-other-node'), 'LOGCACHE_ACCESS') > 10 * spinsPerRow(run(e, 'inmem-lw-node'), 'LOGCACHE_ACCESS'),
        'in-memory: a far larger remote penalty',
      );
      // One run per arm says the change without an interval; repeated runs (a preset's default) say it with one.
      assert.match(
        out,
        /A\/B: disk: log writer's node 0.*\n[\s\S]*LOGCACHE_ACCESS spins per row (\d.*x higher in run B|is ([\d.]+x higher|higher by [\d.]+%) \([\d.]+% interval )/,
      );
      assert.match(out, /Doing the math[\s\S]*cycles per spin/);
    }
    // 001: with core 0 out of the mask, LOGCACHE_ACCESS spins an order of magnitude less (R3).
    {
      const { e, out } = await runPreset(sim, 'isolate-core0', ['--threads', '4', '--duration', '1s', '--set', 'seed_rows=1000']);
      const [withCore0, without] = [run(e, 'with-core0'), run(e, 'without-core0')];
      assert.ok(
        spinsPerRow(without, 'LOGCACHE_ACCESS') < spinsPerRow(withCore0, 'LOGCACHE_ACCESS') / 3,
        'LOGCACHE_ACCESS spins lower without core 0',
      );
      assert.match(out, /Memory model CONVENTIONAL; large page allocations/);
    }
    // 002: batching halves XDESMGR per row (R4); BLOCKER_ENUM only on interpreted access to the memory-optimized table (R7).
    {
      const { e } = await runPreset(sim, 'xdesmgr-batch', ['--threads', '4', '--duration', '1s', '--set', 'seed_rows=1000']);
      assert.deepEqual(
        [...new Set(e.runs.map((r) => r.arm.id))],
        ['batch-a', 'batch-b', 'one-socket', 'inmem-interpreted', 'inmem-native'],
      );
      assert.ok(
        spinsPerRow(run(e, 'batch-b'), 'XDESMGR') < 0.75 * spinsPerRow(run(e, 'batch-a'), 'XDESMGR'),
        'XDESMGR spins per row lower with 2 rows per transaction',
      );
      assert.ok(run(e, 'batch-b').derived.rowsPerSec > run(e, 'batch-a').derived.rowsPerSec, 'and throughput higher');
      assert.ok(spinsPerRow(run(e, 'inmem-interpreted'), 'BLOCKER_ENUM') > 0, 'BLOCKER_ENUM on the interpreted path');
      for (const arm of ['batch-a', 'batch-b', 'one-socket', 'inmem-native'])
        assert.equal(spinsPerRow(run(e, arm), 'BLOCKER_ENUM'), 0, `no BLOCKER_ENUM in ${arm}`);
      assert.equal(run(e, 'one-socket').arm.knobs.affinity?.spec, 'numa:0-first-core');
    }
    // 003: FORCED takes WRITELOG away and the log goes out in far fewer flushes (R6).
    {
      const { e, out } = await runPreset(sim, 'writelog', ['--threads', '4', '--duration', '1s', '--set', 'seed_rows=1000']);
      const [disabled, forced] = [run(e, 'dd-disabled'), run(e, 'dd-forced')];
      assert.equal(disabled.arm.knobs.delayedDurability, 'DISABLED');
      assert.equal(forced.arm.knobs.delayedDurability, 'FORCED');
      const wl = (r: RunRecord) => runFigures(r).waitMsPerRow.WRITELOG ?? 0;
      assert.ok(
        wl(disabled) > 0 && wl(forced) < wl(disabled) / 20,
        `WRITELOG per row far lower with FORCED: ${wl(forced)} vs ${wl(disabled)}`,
      );
      assert.ok(forced.totals.logFlushes / forced.rows < disabled.totals.logFlushes / disabled.rows, 'log flushes per row lower');
      assert.match(out, /WRITELOG diagnosis[\s\S]*Pending log I\/O vs the log writer's limit[\s\S]*of 112/);
    }
    // 004: the sequence's latch only with sequence slots; the identity-based slots scale further (R8).
    {
      const { e, out } = await runPreset(sim, 'ring-buffer', ['--threads', '1,4', '--duration', '1s', '--set', 'slots=4096']);
      const seqLatch = (r: RunRecord) => r.totals.latches.METADATA_SEQUENCE_GENERATOR?.waitMs ?? 0;
      for (const arm of ['disk-sequence', 'memory-sequence'])
        assert.ok(seqLatch(run(e, arm, 4)) > 0, `METADATA_SEQUENCE_GENERATOR in ${arm}`);
      for (const arm of ['memory-identity', 'memory-identity-schema-only']) {
        for (const t of [1, 4]) assert.equal(seqLatch(run(e, arm, t)), 0, `no METADATA_SEQUENCE_GENERATOR in ${arm}`);
      }
      assert.ok(run(e, 'memory-identity', 4).derived.rowsPerSec > run(e, 'memory-sequence', 4).derived.rowsPerSec, 'identity slots faster');
      assert.ok(spinsPerRow(run(e, 'memory-identity', 4), 'LOCK_RW_CMED_HASH_SET') > 0, 'LOCK_RW_CMED_HASH_SET shown');
      assert.match(out, /Scaling: throughput, spins per row[\s\S]*memory-identity rows\/s/);
    }
  }));

it('a one-node server: numa-logwriter says so and runs the core-0 comparison instead of failing', () =>
  withSim({ topology: '1x4x2' }, async (sim) => {
    const { e, out } = await runPreset(sim, 'numa-logwriter', ['--duration', '1s', '--set', 'seed_rows=1000', '--set', 'in_memory=false']);
    assert.match(e.preset!.notes.join('\n'), /one NUMA node: the node comparison is not possible; running the core-0 comparison/);
    assert.match(out, /How it adapted to this server\n {2}- This server has one NUMA node/);
    assert.deepEqual(
      e.runs.map((r) => [r.arm.id, r.arm.knobs.affinity?.spec, r.threads]),
      [
        ['with-core0', 'numa:0', 6],
        ['without-core0', 'numa:0-first-core', 6],
      ],
    );
    assert.ok(spinsPerRow(run(e, 'without-core0'), 'LOGCACHE_ACCESS') < spinsPerRow(run(e, 'with-core0'), 'LOGCACHE_ACCESS'));
  }));

it('between arms: deploy only when it changes, knobs move to the next arm (a knob it leaves out goes back), a failure in a later arm still restores all', () =>
  withSim({ topology: '2x10x2' }, async (sim) => {
    const target = targetFromArgs(connString(sim), {});
    const disk = { ...defaultParameters(getScenario('disk-insert')), seed_rows: 0 };
    const arms: PlanArm[] = [
      {
        id: 'forced',
        label: 'FORCED',
        scenarioId: 'disk-insert',
        parameters: disk,
        knobs: { delayedDurability: 'FORCED' },
        mode: 'server-loop',
        threads: [2],
      },
      {
        id: 'forced-2',
        label: 'FORCED, same deploy',
        scenarioId: 'disk-insert',
        parameters: { ...disk, batch_size: 2 },
        knobs: { delayedDurability: 'FORCED' },
        mode: 'server-loop',
        threads: [2],
      },
      {
        id: 'affinity',
        label: 'exclude-core0 only',
        scenarioId: 'inmem-insert',
        parameters: defaultParameters(getScenario('inmem-insert')),
        knobs: { affinity: 'exclude-core0' },
        mode: 'server-loop',
        threads: [2],
      },
    ];
    const seen: Record<string, Awaited<ReturnType<typeof knobs>>> = {};
    const statuses: string[] = [];
    sim.faults.failStatement('dbo.spinlab_inmem_insert_loop_native', { number: 1205, message: 'Transaction was deadlocked (injected).' });
    const pending: Promise<void>[] = [];
    const { experiment: e } = await runPlan(
      {
        target,
        labDatabase: 'SpinlockLab',
        arms,
        load: { durationMs: 500, rows: null, warmupMs: 0, intervalMs: 250 },
        outDir: fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-plan-')),
        stateDir,
      },
      new AbortController().signal,
      (p) => {
        if (p.kind === 'status') statuses.push(p.message);
        if (p.kind === 'run-start' && p.arm)
          pending.push(
            knobs(sim).then((s) => {
              seen[p.arm!.id] = s;
            }),
          );
      },
    );
    await Promise.all(pending);
    assert.equal(e.status, 'failed', 'the injected failure in the third arm fails the experiment');
    assert.deepEqual(
      e.runs.map((r) => [r.arm.id, r.status]),
      [
        ['forced', 'completed'],
        ['forced-2', 'completed'],
        ['affinity', 'failed'],
      ],
    );
    assert.deepEqual(
      statuses.filter((s) => s.startsWith('deploying')).length,
      2,
      'batch size is not a deploy parameter: two deploys for three arms',
    );
    assert.equal(seen.forced.delayedDurability, 'FORCED');
    assert.equal(seen.forced.affinity.type, 'AUTO');
    assert.equal(seen.affinity.delayedDurability, 'DISABLED', 'the third arm leaves delayed durability out: back to the original');
    assert.equal(seen.affinity.affinity.type, 'MANUAL');
    assert.deepEqual(e.knobs.before, {
      delayedDurability: 'DISABLED',
      affinity: { type: 'AUTO', cpus: Array.from({ length: 40 }, (_, i) => i) },
    });
    assert.deepEqual(await knobs(sim), e.knobs.before, 'both knobs restored, the one first changed in the third arm too');
    assert.deepEqual(listJournals(stateDir), []);
  }));
