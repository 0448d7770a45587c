// Where a workload call runs: SQL Server hands each connection a NUMA node round-robin and each task the least
// loaded online scheduler of that node. So "workers on node 1, log writer on node 0" follows from the affinity
// (which CPUs are online), never from a flag.
import type { Machine } from './topology';

export interface Placement {
  cpu: number;
  node: number;
}

/**
 * @param online   CPU ids whose schedulers are online
 * @param busy     CPUs of the workload calls already running (one entry per call)
 * @param nodeSlot the session's round-robin slot, taken at login
 */
export function placeTask(machine: Machine, online: number[], busy: number[], nodeSlot: number): Placement {
  if (online.length === 0) throw new Error('no scheduler is online');
  const nodes = [...new Set(online.map((c) => machine.cpus[c].node))].sort((a, b) => a - b);
  const node = nodes[nodeSlot % nodes.length];
  const load = new Map<number, number>();
  for (const c of busy) load.set(c, (load.get(c) ?? 0) + 1);
  const candidates = online.filter((c) => machine.cpus[c].node === node);
  // Least loaded first; then a CPU whose hyperthread sibling is idle (spread over cores); then the lowest id.
  const score = (c: number) => {
    const sib = machine.sibling(c);
    const sibLoad = sib === undefined ? 0 : (load.get(sib) ?? 0);
    return (load.get(c) ?? 0) * 1000 + Math.min(sibLoad, 1) * 500 + c / 1000;
  };
  const cpu = candidates.reduce((best, c) => (score(c) < score(best) ? c : best), candidates[0]);
  return { cpu, node };
}
