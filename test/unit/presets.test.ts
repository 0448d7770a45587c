// Presets plan their arms from the server's real shape: node and CPU numbers from the topology, the log writer's node,
// what a one-node server or one without In-Memory OLTP cannot do left out with a note, --threads capped to what an
// affinity leaves; settings and load checked with every problem listed.
import assert from 'node:assert/strict';
import { getPreset, listPresets, planPreset, presetValues } from '../../src/engine/presets';
import { presetRequest, presetRequestOf, planFor, planArmsOf } from '../../src/engine/presetRun';
import type { Experiment } from '../../src/shared/experiment';
import { completeRequest } from '../../src/engine/knobs';
import { ParamError } from '../../src/shared/params';
import { parseAffinity } from '../../src/shared/affinity';
import type { ServerIdentity, Topology } from '../../src/shared/types';

/** sockets x cores x threads, one node per socket, hyperthreads adjacent; the log writer on `lwNode` (null: not visible). */
function topology(sockets: number, cores: number, tpc: number, lwNode: number | null = 0): Topology {
  const perNode = cores * tpc;
  const schedulers = Array.from({ length: sockets * perNode }, (_, cpu) => ({
    schedulerId: cpu,
    cpuId: cpu,
    nodeId: Math.floor(cpu / perNode),
    status: 'VISIBLE ONLINE',
    isOnline: true,
  }));
  return {
    cpuCount: sockets * perNode,
    hyperthreadRatio: perNode,
    socketCount: sockets,
    coresPerSocket: cores,
    numaNodeCount: sockets,
    softNuma: 'OFF',
    memoryModel: 'LARGE_PAGES',
    largePageAllocationsKb: 2048,
    lockedPageAllocationsKb: 0,
    affinityType: 'AUTO',
    schedulers,
    nodes: Array.from({ length: sockets }, (_, n) => ({
      nodeId: n,
      state: 'ONLINE',
      onlineSchedulerCount: perNode,
      cpuCount: perNode,
      processorGroup: 0,
    })),
    logWriters: lwNode === null ? [] : [{ sessionId: 3, schedulerId: 1048578, cpuId: lwNode * perNode, nodeId: lwNode }],
    traceFlags: [],
  };
}

function identity(xtp = true): ServerIdentity {
  return {
    serverName: 'LAB',
    machineName: 'LAB',
    productVersion: '16.0.1000.6',
    majorVersion: 16,
    edition: 'Developer Edition (64-bit)',
    engineEdition: 3,
    versionBanner: 'Microsoft SQL Server 2022',
    simulated: false,
    xtpSupported: xtp,
    defaultDataPath: null,
    startTime: '2025-01-01T00:00:00.000Z',
    login: 'sa',
    permissions: { viewServerState: true, alterSettings: true, viewDatabaseState: true },
  };
}

const plan = (id: string, t: Topology, xtp = true, set: string[] = [], threads: number[] | null = null) =>
  planPreset(getPreset(id), { topology: t, identity: identity(xtp) }, presetValues(getPreset(id), { set }), threads);

it('five presets, one per seed, each naming its file, question, defaults and views; every arm resolves on a big server', () => {
  assert.deepEqual(
    listPresets().map((p) => p.post),
    ['numa-logcache-access', 'large-pages', 'xdesmgr-big-box', 'writelog-at-scale', 'ring-buffer'],
  );
  const t = topology(2, 10, 2);
  for (const p of listPresets()) {
    assert.ok(
      p.options.every((o) => o.default !== undefined && o.description.length > 10),
      p.id,
    );
    const pl = plan(p.id, t);
    assert.deepEqual(
      pl.notes.filter((n) => /not possible|comparison is left out|variant is left out|no In-Memory/.test(n)),
      [],
      `${p.id} needs nothing left out here`,
    );
    const ids = pl.arms.map((a) => a.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const a of pl.arms) if (a.knobs.affinity) parseAffinity(a.knobs.affinity, t);
    for (const c of pl.comparisons) assert.ok(ids.includes(c.a) && ids.includes(c.b), `${p.id}: ${c.label}`);
  }
});

it("numa-logwriter: the log writer's node against the other, each without its first core, 10 sessions; follows the log writer", () => {
  const pl = plan('numa-logwriter', topology(2, 10, 2));
  assert.deepEqual(
    pl.arms.map((a) => [a.id, a.knobs.affinity, a.knobs.delayedDurability, a.threads]),
    [
      ['lw-node', 'numa:0-first-core', 'FORCED', [10]],
      ['other-node', 'numa:1-first-core', 'FORCED', [10]],
      ['inmem-lw-node', 'numa:0-first-core', 'FORCED', [10]],
      ['inmem-other-node', 'numa:1-first-core', 'FORCED', [10]],
    ],
  );
  assert.equal(pl.arms[0].parameters.batch_size, 2);
  assert.equal(pl.arms[2].parameters.procs, 'native');
  const moved = plan('numa-logwriter', topology(2, 10, 2, 1));
  assert.deepEqual(
    moved.arms.slice(0, 2).map((a) => a.knobs.affinity),
    ['numa:1-first-core', 'numa:0-first-core'],
    'the log writer on node 1',
  );
  const small = plan('numa-logwriter', topology(2, 4, 2));
  assert.deepEqual(small.arms[0].threads, [6], 'a node of 8 CPUs without its first core leaves 6');
  assert.match(small.notes.join('\n'), /6 sessions instead of the post's 10/);
  const hidden = plan('numa-logwriter', topology(2, 4, 2, null));
  assert.match(hidden.notes.join('\n'), /log writer is not visible.*assuming NUMA node 0/);
});

it('numa-logwriter on one node without In-Memory OLTP: the core-0 comparison, with notes, instead of a failure', () => {
  const pl = plan('numa-logwriter', topology(1, 8, 2), false);
  assert.deepEqual(
    pl.arms.map((a) => [a.id, a.knobs.affinity]),
    [
      ['with-core0', 'numa:0'],
      ['without-core0', 'numa:0-first-core'],
    ],
  );
  assert.match(pl.notes.join('\n'), /one NUMA node: the node comparison is not possible; running the core-0 comparison/);
  assert.match(pl.notes.join('\n'), /no In-Memory OLTP: the in-memory variant is left out/);
  assert.equal(pl.comparisons.length, 1);
});

it('isolate-core0: one session per online scheduler without core 0, same for both arms; memory model shown', () => {
  const pl = plan('isolate-core0', topology(2, 6, 2));
  assert.deepEqual(
    pl.arms.map((a) => [a.knobs.affinity, a.threads]),
    [
      ['auto', [22]],
      ['exclude-core0', [22]],
    ],
    "the seed's 22 sessions on 2 x 6 cores",
  );
  assert.match(pl.notes.join('\n'), /Memory model LARGE_PAGES; large page allocations 2,048 KB/);
  const capped = plan('isolate-core0', topology(1, 2, 2), true, [], [1, 2, 8]);
  assert.deepEqual(capped.arms[0].threads, [1, 2]);
  assert.match(capped.notes.join('\n'), /8 threads left out/);
  assert.throws(() => plan('isolate-core0', topology(1, 1, 2)), /only core 0/);
});

it('xdesmgr-batch: a sweep to the CPUs left; one socket and in-memory arms only where the server has them', () => {
  const full = plan('xdesmgr-batch', topology(2, 10, 2));
  assert.deepEqual(
    full.arms.map((a) => a.id),
    ['batch-a', 'batch-b', 'one-socket', 'inmem-interpreted', 'inmem-native'],
  );
  assert.deepEqual(full.arms[0].threads, [1, 2, 4, 8, 16, 32]);
  assert.deepEqual(full.arms[2].threads, [1, 2, 4, 8, 16], 'node 0 without its first core has 18 CPUs');
  assert.deepEqual([full.arms[0].parameters.batch_size, full.arms[1].parameters.batch_size], [1, 2]);
  const small = plan('xdesmgr-batch', topology(1, 4, 2), false, ['batch_b=4', 'affinity=unchanged']);
  assert.deepEqual(
    small.arms.map((a) => a.id),
    ['batch-a', 'batch-b'],
  );
  assert.deepEqual(small.arms[0].threads, [1, 2, 4, 8]);
  assert.equal(small.arms[1].parameters.batch_size, 4);
  assert.equal(small.arms[0].knobs.affinity, undefined, 'unchanged: the server keeps its affinity');
  assert.match(small.notes.join('\n'), /one NUMA node: the one-socket-against-both comparison is left out/);
  assert.match(small.notes.join('\n'), /no In-Memory OLTP: the interpreted-against-native comparison is left out/);
});

it('writelog: DISABLED against FORCED at the same sessions; ring-buffer without In-Memory OLTP runs the disk arm only', () => {
  const w = plan('writelog', topology(1, 4, 2));
  assert.deepEqual(
    w.arms.map((a) => [a.knobs.delayedDurability, a.threads]),
    [
      ['DISABLED', [6]],
      ['FORCED', [6]],
    ],
  );
  const r = plan('ring-buffer', topology(2, 10, 2));
  assert.deepEqual(r.arms[0].threads, [1, 2, 4, 8, 16, 24], "the seed's range");
  assert.deepEqual(
    r.arms.map((a) => `${a.parameters.storage}/${a.parameters.slot_source}/${a.parameters.durability}`),
    ['disk/sequence/SCHEMA_AND_DATA', 'memory/sequence/SCHEMA_AND_DATA', 'memory/identity/SCHEMA_AND_DATA', 'memory/identity/SCHEMA_ONLY'],
  );
  const noXtp = plan('ring-buffer', topology(1, 4, 2), false);
  assert.deepEqual(
    noXtp.arms.map((a) => a.id),
    ['disk-sequence'],
  );
  assert.deepEqual(noXtp.arms[0].threads, [1, 2, 4, 8]);
  assert.match(noXtp.notes.join('\n'), /no In-Memory OLTP: only the disk-based slots/);
  assert.match(noXtp.notes.join('\n'), /stops at 8 threads/);
});

it("presetRequest: the preset's load unless overridden; a user duration replaces its row count; problems listed together", () => {
  const d = presetRequest({ presetId: 'numa-logwriter' });
  assert.deepEqual([d.load.rows, d.load.durationMs, d.load.warmupMs, d.threads], [20_000_000, null, 5000, null]);
  const o = presetRequest({ presetId: 'numa-logwriter', duration: '10s', threads: '2,4', mode: 'client-loop' });
  assert.deepEqual([o.load.rows, o.load.durationMs, o.threads, o.mode], [null, 10_000, [2, 4], 'client-loop']);
  assert.ok(
    planFor(o, { topology: topology(2, 10, 2), identity: identity() }).arms.every(
      (a) => a.mode === 'client-loop' && a.threads.join() === '2,4',
    ),
  );
  assert.throws(
    () => presetRequest({ presetId: 'ring-buffer', set: ['mode=pop', 'slots=3', 'nope=1'], interval: '10ms' }),
    (e: Error) => {
      assert.ok(e instanceof ParamError);
      assert.match(e.message, /mode .*allowed: one of push, push-pop/);
      assert.match(e.message, /slots .*from 16 to 268435456/);
      assert.match(e.message, /Unknown parameter nope .*known parameters: mode, slots, sequence_cache, delayed_durability/);
      assert.match(e.message, /--interval 10ms is below the 250ms minimum/);
      return true;
    },
  );
  assert.throws(() => presetRequest({ presetId: 'xdesmgr' }), /--preset: Unknown preset 'xdesmgr'/);
});

it('presets repeat each cell 3 times unless told: --repeat replaces it, a bad one is listed with the rest; a re-run keeps the saved count', () => {
  for (const p of listPresets()) assert.equal(p.repeat, 3, p.id);
  assert.equal(presetRequest({ presetId: 'writelog' }).repeat, 3);
  assert.equal(presetRequest({ presetId: 'writelog', repeat: ' ' }).repeat, 3, "blank: the preset's own");
  assert.equal(presetRequest({ presetId: 'writelog', repeat: '5' }).repeat, 5);
  assert.throws(
    () => presetRequest({ presetId: 'writelog', repeat: '0', interval: '10ms' }),
    (e: Error) => {
      assert.match(e.message, /--repeat: '0' is not a whole number from 1 to 100/);
      assert.match(e.message, /--interval 10ms/);
      return true;
    },
  );
  const saved = {
    id: 'x',
    preset: { id: 'writelog', post: 'writelog-at-scale', question: 'q', notes: [], settings: {}, threads: [2] },
    load: { mode: 'server-loop', threads: [2], durationMs: 1000, rows: null, warmupMs: 0, intervalMs: 250 },
    runs: [],
  } as unknown as Experiment;
  assert.equal(presetRequestOf(saved).repeat, 1, 'a record from before repetitions ran each cell once');
  assert.equal(presetRequestOf({ ...saved, design: { repeat: 4, order: 'alternating', sequence: [] } }).repeat, 4);
});

it('completeRequest: a knob the next arm leaves out goes back to the state before the experiment', () => {
  const original = { delayedDurability: 'DISABLED', affinity: { type: 'AUTO', cpus: [0, 1, 2, 3] } };
  assert.deepEqual(completeRequest({}, original), { delayedDurability: 'DISABLED', affinity: { spec: 'auto', cpus: 'AUTO' } });
  assert.deepEqual(
    completeRequest({ delayedDurability: 'FORCED' }, { delayedDurability: 'ALLOWED', affinity: { type: 'MANUAL', cpus: [2, 3, 5] } }),
    { delayedDurability: 'FORCED', affinity: { spec: 'cpu:2-3,5', cpus: [2, 3, 5] } },
  );
  assert.deepEqual(
    completeRequest({}, { delayedDurability: null, affinity: { type: 'MANUAL', cpus: [] } }),
    {},
    'nothing known: nothing asked',
  );
});

it("planArmsOf: a saved experiment's arms in the order they ran, with their thread counts and knobs as written", () => {
  const arm = (id: string, dd?: 'FORCED') => ({
    id,
    label: id,
    scenarioId: 'disk-insert',
    parameters: { batch_size: 2 },
    mode: 'server-loop' as const,
    knobs: dd ? { delayedDurability: dd } : { affinity: { spec: 'exclude-core0', cpus: [2, 3] } },
  });
  const runs = [arm('a', 'FORCED'), arm('a', 'FORCED'), arm('b')].map((a, i) => ({
    arm: a,
    threads: [1, 4, 1][i],
  })) as unknown as Experiment['runs'];
  assert.deepEqual(planArmsOf({ runs }), [
    {
      id: 'a',
      label: 'a',
      scenarioId: 'disk-insert',
      parameters: { batch_size: 2 },
      mode: 'server-loop',
      threads: [1, 4],
      knobs: { delayedDurability: 'FORCED', affinity: undefined },
    },
    {
      id: 'b',
      label: 'b',
      scenarioId: 'disk-insert',
      parameters: { batch_size: 2 },
      mode: 'server-loop',
      threads: [1],
      knobs: { delayedDurability: undefined, affinity: 'exclude-core0' },
    },
  ]);
});
