// The NUMA post: the insert workload (2 rows per transaction, 10 sessions, delayed durability FORCED) on the log writer's
// NUMA node against the other node, each without its first core so both get the same number of CPUs; then the same on
// a memory-optimized table through a natively compiled procedure. Compared: elapsed time for the same rows, throughput
// and LOGCACHE_ACCESS spins.
import type { PlanArm } from '../experiment';
import { batchOption, boolOption, ddOption, scenarioParams, seedRowsOption, type DD, PRESET_REPEAT } from './common';
import { capThreads, cpusOf, logWriterNode, nodesWithCpus } from './topology';
import type { Preset, PresetComparison } from './types';
import { plural } from '../../shared/plural';

const SESSIONS = 10;

export const numaLogwriter: Preset = {
  id: 'numa-logwriter',
  name: "Workers on the log writer's NUMA node or the other one",
  post: 'numa-logcache-access',
  question:
    "Do inserts finish sooner, with fewer LOGCACHE_ACCESS spins, when the sessions run on the log writer's NUMA node rather than the other one?",
  needs: ['two NUMA nodes', 'In-Memory OLTP'],
  options: [
    batchOption('batch_size', 'Rows per transaction', 2, 'Rows inserted per transaction (the post inserts 2).'),
    ddOption('FORCED', 'Delayed durability on the lab database for every arm (the post forces it, so commits do not wait for the log).'),
    seedRowsOption,
    boolOption(
      'in_memory',
      'In-memory variant',
      true,
      'Also run both placements on a memory-optimized table through a natively compiled procedure (needs In-Memory OLTP).',
    ),
  ],
  load: { rows: '20M', warmup: '5s', interval: '1s' },
  repeat: PRESET_REPEAT,
  threads: `${plural(SESSIONS, 'session')}, or fewer when a node has fewer CPUs without its first core; the same for every arm`,
  views: ['ab', 'math'],
  watch: ['LOGCACHE_ACCESS'],
  plan({ topology, identity }, v, threads) {
    const notes: string[] = [];
    const lw = logWriterNode(topology, notes);
    const nodes = nodesWithCpus(topology);
    const other = nodes.find((n) => n !== lw);
    // Two placements: the log writer's node against another node; on one node, with its first core against without.
    const placements: { id: string; label: string; affinity: string }[] =
      other !== undefined
        ? [
            { id: 'lw-node', label: `log writer's node ${lw}, without its first core`, affinity: `numa:${lw}-first-core` },
            { id: 'other-node', label: `other node ${other}, without its first core`, affinity: `numa:${other}-first-core` },
          ]
        : [
            { id: 'with-core0', label: `node ${lw} with core 0 (the log writer's core)`, affinity: `numa:${lw}` },
            { id: 'without-core0', label: `node ${lw} without core 0`, affinity: `numa:${lw}-first-core` },
          ];
    if (other === undefined) {
      notes.push(
        `This server has one NUMA node: the node comparison is not possible; running the core-0 comparison (with and without the log writer's core, the large-pages post's question) on node ${lw} instead.`,
      );
    } else if (nodes.length > 2) {
      notes.push(`This server has ${nodes.length} NUMA nodes; comparing the log writer's node ${lw} with node ${other}.`);
    }
    const cap = Math.min(...placements.map((p) => cpusOf(p.affinity, topology)));
    const sessions = threads ?? [Math.min(SESSIONS, cap)];
    const counts = capThreads(sessions, cap, 'The smaller placement', notes);
    if (!threads && cap < SESSIONS)
      notes.push(
        `${plural(cap, 'session')} instead of the post's ${SESSIONS}: that is how many CPUs a node has without its first core here.`,
      );

    const dd = v.delayed_durability as DD;
    const workloads = [
      {
        id: '',
        label: 'disk',
        scenarioId: 'disk-insert',
        parameters: scenarioParams('disk-insert', { batch_size: v.batch_size, seed_rows: v.seed_rows }),
      },
    ];
    if (v.in_memory) {
      if (identity.xtpSupported) {
        workloads.push({
          id: 'inmem-',
          label: 'in-memory, native',
          scenarioId: 'inmem-insert',
          parameters: scenarioParams('inmem-insert', { procs: 'native', batch_size: 1 }),
        });
      } else {
        notes.push('This server has no In-Memory OLTP: the in-memory variant is left out.');
      }
    }
    const arms: PlanArm[] = [];
    const comparisons: PresetComparison[] = [];
    for (const w of workloads) {
      for (const p of placements) {
        arms.push({
          id: `${w.id}${p.id}`,
          label: `${w.label}: ${p.label}`,
          scenarioId: w.scenarioId,
          parameters: w.parameters,
          knobs: { delayedDurability: dd, affinity: p.affinity },
          mode: 'server-loop',
          threads: counts,
        });
      }
      comparisons.push({
        a: `${w.id}${placements[0].id}`,
        b: `${w.id}${placements[1].id}`,
        label: `${w.label}: ${placements[0].label} (A) against ${placements[1].label} (B)`,
      });
    }
    return { arms, comparisons, notes };
  },
};
