// What presets need to know about a server's shape: where the log writer runs, which NUMA nodes have CPUs, how many
// CPUs an affinity leaves, and thread sweeps that fit.
import { cpusByNode, parseAffinity } from '../../shared/affinity';
import type { Topology } from '../../shared/types';
import { counts, plural } from '../../shared/plural';

/** The log writer's NUMA node, or node 0 (where SQL Server 2016+ puts it) with a note when it is not visible. */
export function logWriterNode(t: Topology, notes: string[]): number {
  const lw = t.logWriters.find((l) => l.nodeId !== null);
  if (lw && lw.nodeId !== null) return lw.nodeId;
  const first = [...cpusByNode(t).keys()][0] ?? 0;
  notes.push(
    `The log writer is not visible (sys.dm_exec_requests needs VIEW SERVER STATE); assuming NUMA node ${first}, where SQL Server 2016 and later run it.`,
  );
  return first;
}

/** NUMA nodes that have schedulers, in order. */
export function nodesWithCpus(t: Topology): number[] {
  return [...cpusByNode(t).entries()].filter(([, cpus]) => cpus.length > 0).map(([n]) => n);
}

/** How many CPUs an affinity spec leaves online ('auto': all of them). */
export function cpusOf(spec: string, t: Topology): number {
  const a = parseAffinity(spec, t);
  return a.cpus === 'AUTO' ? [...cpusByNode(t).values()].flat().length || t.cpuCount : a.cpus.length;
}

/** The steps of `steps` up to `cap`, plus `cap` itself when it falls between steps (so the sweep ends at the cap). */
export function sweepUpTo(cap: number, steps: number[]): number[] {
  const out = steps.filter((n) => n <= cap);
  if (cap >= 1 && !out.includes(cap) && cap < Math.max(...steps)) out.push(cap);
  return out.length ? out : [1];
}

/** `threads` without the counts above `cap`; notes what was dropped. */
export function capThreads(threads: number[], cap: number, what: string, notes: string[]): number[] {
  const kept = threads.filter((n) => n <= cap);
  const dropped = threads.filter((n) => n > cap);
  if (dropped.length) notes.push(`${what} has ${plural(cap, 'CPU')}: ${counts(dropped, 'thread')} left out there.`);
  return kept.length ? kept : [Math.max(1, cap)];
}
