import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  AffinityError,
  coreSiblings,
  currentAffinity,
  formatCpuRanges,
  formatSpec,
  parseAffinity,
  threadsPerCore,
} from '../../src/shared/affinity';
import type { Topology } from '../../src/shared/types';

/** The seeds' box: 2 sockets x 6 cores, hyperthreading on: 24 logical CPUs, node 0 = 0-11, node 1 = 12-23. */
function topology(opts: { sockets?: number; cores?: number; ht?: number; offline?: number[] } = {}): Topology {
  const sockets = opts.sockets ?? 2;
  const cores = opts.cores ?? 6;
  const ht = opts.ht ?? 2;
  const perNode = cores * ht;
  const schedulers = Array.from({ length: sockets * perNode }, (_, cpu) => {
    const online = !(opts.offline ?? []).includes(cpu);
    return {
      schedulerId: cpu,
      cpuId: cpu,
      nodeId: Math.floor(cpu / perNode),
      status: online ? 'VISIBLE ONLINE' : 'VISIBLE OFFLINE',
      isOnline: online,
    };
  });
  return {
    cpuCount: sockets * perNode,
    hyperthreadRatio: perNode,
    socketCount: sockets,
    coresPerSocket: cores,
    numaNodeCount: sockets,
    softNuma: 'OFF',
    memoryModel: 'CONVENTIONAL',
    largePageAllocationsKb: 0,
    lockedPageAllocationsKb: 0,
    affinityType: opts.offline?.length ? 'MANUAL' : 'AUTO',
    schedulers,
    nodes: Array.from({ length: sockets }, (_, n) => ({
      nodeId: n,
      state: 'ONLINE',
      onlineSchedulerCount: perNode,
      cpuCount: perNode,
      processorGroup: 0,
    })),
    logWriters: [],
    traceFlags: null,
  };
}
const box = topology();

it('auto', () => {
  assert.deepEqual(parseAffinity(' AUTO ', box).cpus, 'AUTO');
});

it('cpu lists and ranges, sorted and distinct', () => {
  assert.deepEqual(parseAffinity('cpu:2-11', box).cpus, [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  assert.deepEqual(parseAffinity('cpu:7,0,2,4-6,5', box).cpus, [0, 2, 4, 5, 6, 7]);
  assert.deepEqual(parseAffinity('CPU: 1 - 2 , 3', box).cpus, [1, 2, 3]);
  assert.equal(parseAffinity('cpu:2-11,14', box).description, 'CPUs: 11 CPUs (2-11,14)');
});

it('whole NUMA nodes', () => {
  assert.deepEqual(
    parseAffinity('numa:1', box).cpus,
    Array.from({ length: 12 }, (_, i) => 12 + i),
  );
  assert.equal((parseAffinity('numa:0-1', box).cpus as number[]).length, 24);
  assert.match(parseAffinity('numa:0', box).description, /^NUMA node 0: 12 CPUs \(0-11\)$/);
});

it("numa:N-first-core drops both hyperthreads of the node's first core, as the seeds do", () => {
  const r = parseAffinity('numa:1-first-core', box);
  assert.deepEqual(
    r.cpus,
    Array.from({ length: 10 }, (_, i) => 14 + i),
  );
  assert.match(r.description, /NUMA node 1 without its first core \(CPUs 12-13\): 10 CPUs \(14-23\)/);
  // Without hyperthreading the first core is one CPU.
  assert.deepEqual(parseAffinity('numa:0-first-core', topology({ ht: 1 })).cpus, [1, 2, 3, 4, 5]);
});

it('exclude-core0 uses the real threads per core', () => {
  assert.deepEqual(
    parseAffinity('exclude-core0', box).cpus,
    Array.from({ length: 22 }, (_, i) => 2 + i),
  );
  assert.deepEqual(parseAffinity('exclude-core0', topology({ sockets: 1, cores: 4, ht: 1 })).cpus, [1, 2, 3]);
  assert.equal(threadsPerCore(topology({ ht: 4 })), 4);
  assert.deepEqual(coreSiblings(6, topology({ ht: 4 })), [4, 5, 6, 7]);
  // Figures that do not divide: every CPU is its own core rather than a guess.
  assert.equal(threadsPerCore({ ...box, hyperthreadRatio: 5, coresPerSocket: 2 }), 1);
});

it('clear errors: syntax, what exists, empty result', () => {
  const err = (spec: string, t = box) => {
    try {
      parseAffinity(spec, t);
    } catch (e) {
      assert.ok(e instanceof AffinityError);
      return (e as Error).message;
    }
    assert.fail(`"${spec}" should have been rejected`);
  };
  assert.match(err('cores:1'), /Unknown affinity "cores:1". Use one of: auto, cpu:2-11/);
  assert.match(err('cpu:2-'), /"2-" is not a number or range; write e.g. cpu:2-11/);
  assert.match(err('cpu:'), /is not a number or range/);
  assert.match(err('cpu:11-2'), /runs backwards; write 2-11/);
  assert.match(err('cpu:20-30'), /CPUs 24-30 do not exist; this server has CPUs 0-23 \(node 0: 0-11, node 1: 12-23\)/);
  assert.match(err('numa:2'), /NUMA node 2 does not exist; this server has nodes 0-1/);
  assert.match(err('numa:0-first-core', topology({ sockets: 1, cores: 1, ht: 2 })), /leaves no CPUs for SQL Server/);
  assert.match(err('exclude-core0', topology({ sockets: 1, cores: 1, ht: 2 })), /leaves no CPUs/);
});

it('range formats', () => {
  assert.equal(formatCpuRanges([14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]), '2 TO 11, 14');
  assert.equal(formatCpuRanges([0]), '0');
  assert.equal(formatSpec([14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 3]), '2-11,14');
  assert.throws(() => formatCpuRanges([]), /at least one CPU/);
  assert.throws(() => formatCpuRanges([-1]), /not a non-negative integer/);
});

it('currentAffinity reads the online visible schedulers', () => {
  const t = topology({ offline: [0, 1, 12, 13] });
  const now = currentAffinity(t);
  assert.equal(now.type, 'MANUAL');
  assert.equal(now.cpus.length, 20);
  assert.ok(!now.cpus.includes(0) && !now.cpus.includes(13) && now.cpus.includes(2));
  // Offline CPUs still exist: an affinity may name them.
  assert.deepEqual(parseAffinity('cpu:0-1', t).cpus, [0, 1]);
});

it('property: formatSpec round-trips through cpu: and formatCpuRanges says the same', () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 23 }), { minLength: 1 }), (cpus) => {
      const sorted = [...cpus].sort((a, b) => a - b);
      assert.deepEqual(parseAffinity(`cpu:${formatSpec(cpus)}`, box).cpus, sorted);
      assert.equal(formatCpuRanges(cpus).replace(/ TO /g, '-').replace(/, /g, ','), formatSpec(cpus));
    }),
  );
});

it('property: arbitrary text either resolves to existing CPUs or throws an AffinityError', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc.string().map((s) => `cpu:${s}`),
        fc.string().map((s) => `numa:${s}`),
      ),
      (s) => {
        try {
          const r = parseAffinity(s, box);
          if (r.cpus !== 'AUTO') assert.ok(r.cpus.length > 0 && r.cpus.every((c) => c >= 0 && c < 24));
        } catch (e) {
          assert.ok(e instanceof AffinityError, String(e));
        }
      },
    ),
  );
});
