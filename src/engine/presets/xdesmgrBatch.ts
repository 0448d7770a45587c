// The XDESMGR post: XDESMGR (transaction ids handed out and destroyed) relieved by batching: 1 row per transaction against 2
// across a thread sweep, with core 0 left to the log writer; one socket against both; and a memory-optimized table
// reached through interpreted T-SQL against a natively compiled procedure (BLOCKER_ENUM only on the interpreted path).
import type { PlanArm } from '../experiment';
import { affinityOption, batchOption, boolOption, ddOption, scenarioParams, seedRowsOption, type DD, PRESET_REPEAT } from './common';
import { capThreads, cpusOf, logWriterNode, nodesWithCpus, sweepUpTo } from './topology';
import type { Preset, PresetComparison } from './types';

const STEPS = [1, 2, 4, 8, 16, 32];

export const xdesmgrBatch: Preset = {
  id: 'xdesmgr-batch',
  name: 'XDESMGR relieved by batching',
  post: 'xdesmgr-big-box',
  question:
    'Does a second row per transaction cut XDESMGR spins per row and raise throughput as threads are added; does one socket keep up with two; does a natively compiled procedure avoid BLOCKER_ENUM?',
  needs: ['two NUMA nodes', 'In-Memory OLTP'],
  options: [
    batchOption('batch_a', 'Rows per transaction, arm A', 1, 'The unbatched arm (the post: 1).'),
    batchOption('batch_b', 'Rows per transaction, arm B', 2, 'The batched arm (the post: 2); also used for the socket comparison.'),
    affinityOption("exclude-core0 gives the log writer a core of its own, as the post does; unchanged keeps the server's affinity."),
    ddOption('FORCED', 'Delayed durability on the lab database for every arm (so WRITELOG does not hide XDESMGR).'),
    seedRowsOption,
    boolOption(
      'sockets',
      'One socket against both',
      true,
      "Also run the batched load on the log writer's socket alone (needs two NUMA nodes).",
    ),
    boolOption(
      'in_memory',
      'In-memory interpreted against native',
      true,
      'Also run a memory-optimized table through interpreted and natively compiled procedures (needs In-Memory OLTP).',
    ),
  ],
  load: { duration: '30s', warmup: '5s', interval: '1s' },
  repeat: PRESET_REPEAT,
  threads: `a sweep of ${STEPS.join(', ')} up to the CPUs the affinity leaves`,
  views: ['ab', 'scaling'],
  watch: ['XDESMGR', 'BLOCKER_ENUM', 'LOGCACHE_ACCESS'],
  plan({ topology, identity }, v, threads) {
    const notes: string[] = [];
    const both = v.affinity === 'exclude-core0' ? 'exclude-core0' : undefined;
    const cap = both ? cpusOf(both, topology) : cpusOf('auto', topology);
    const sweep = threads ? capThreads(threads, cap, 'The server with this affinity', notes) : sweepUpTo(cap, STEPS);
    const dd = v.delayed_durability as DD;
    const disk = (batch: unknown) => scenarioParams('disk-insert', { batch_size: batch as number, seed_rows: v.seed_rows });
    const arms: PlanArm[] = [
      {
        id: 'batch-a',
        label: `${v.batch_a} row${v.batch_a === 1 ? '' : 's'} per transaction`,
        scenarioId: 'disk-insert',
        parameters: disk(v.batch_a),
        knobs: { delayedDurability: dd, affinity: both },
        mode: 'server-loop',
        threads: sweep,
      },
      {
        id: 'batch-b',
        label: `${v.batch_b} rows per transaction`,
        scenarioId: 'disk-insert',
        parameters: disk(v.batch_b),
        knobs: { delayedDurability: dd, affinity: both },
        mode: 'server-loop',
        threads: sweep,
      },
    ];
    const comparisons: PresetComparison[] = [
      { a: 'batch-a', b: 'batch-b', label: `${v.batch_a} (A) against ${v.batch_b} (B) rows per transaction` },
    ];
    if (v.sockets) {
      const nodes = nodesWithCpus(topology);
      if (nodes.length < 2) {
        notes.push('This server has one NUMA node: the one-socket-against-both comparison is left out.');
      } else {
        const lw = logWriterNode(topology, notes);
        const spec = both ? `numa:${lw}-first-core` : `numa:${lw}`;
        const one = capThreads(sweep, cpusOf(spec, topology), `Node ${lw}${both ? ' without its first core' : ''}`, notes);
        arms.push({
          id: 'one-socket',
          label: `${v.batch_b} rows per transaction, the log writer's socket (node ${lw}) only`,
          scenarioId: 'disk-insert',
          parameters: disk(v.batch_b),
          knobs: { delayedDurability: dd, affinity: spec },
          mode: 'server-loop',
          threads: one,
        });
        comparisons.push({ a: 'batch-b', b: 'one-socket', label: `both sockets (A) against node ${lw} alone (B)` });
      }
    }
    if (v.in_memory) {
      if (!identity.xtpSupported) {
        notes.push('This server has no In-Memory OLTP: the interpreted-against-native comparison is left out.');
      } else {
        for (const procs of ['interpreted', 'native'] as const) {
          arms.push({
            id: `inmem-${procs}`,
            label: `memory-optimized table, ${procs === 'native' ? 'natively compiled' : 'interpreted'} procedure`,
            scenarioId: 'inmem-insert',
            parameters: scenarioParams('inmem-insert', { procs, batch_size: v.batch_a as number }),
            knobs: { delayedDurability: dd, affinity: both },
            mode: 'server-loop',
            threads: sweep,
          });
        }
        comparisons.push({ a: 'inmem-interpreted', b: 'inmem-native', label: 'in-memory: interpreted (A) against natively compiled (B)' });
      }
    }
    return { arms, comparisons, notes };
  },
};
