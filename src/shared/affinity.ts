// CPU affinity specs, as the user writes them, resolved against the server's real topology into the CPU list that
// ALTER SERVER CONFIGURATION SET PROCESS AFFINITY CPU = ... takes. Forms:
//   auto                 SQL Server's default: every CPU
//   cpu:2-11  cpu:0,2,4-7  CPU ids and inclusive ranges
//   numa:0    numa:0-1   whole NUMA nodes (ids and ranges, like cpu:)
//   numa:1-first-core    a node without its first core (both hyperthreads of it), as the NUMA and large-pages posts do
//   exclude-core0        every CPU except both hyperthreads of core 0 (the large-pages post: keep workers off the log writer's core)
import type { Topology } from './types';
import { SpinlabError } from './spinlabError';

export interface AffinityResolution {
  /** As the user wrote it, trimmed. */
  spec: string;
  /** Sorted, distinct CPU ids, or 'AUTO'. */
  cpus: number[] | 'AUTO';
  description: string;
}

export class AffinityError extends SpinlabError {
  constructor(message: string) {
    super('user-input', message);
  }
}

const FORMS = 'auto, cpu:2-11, cpu:0,2,4-7, numa:0, numa:0-1, numa:1-first-core, exclude-core0';

/** Collapses sorted distinct ids into runs: [2,3,4,9] -> [[2,4],[9,9]]. */
function runs(ids: readonly number[]): [number, number][] {
  for (const id of ids) {
    if (!Number.isInteger(id) || id < 0) throw new AffinityError(`CPU id ${id} is not a non-negative integer`);
  }
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const out: [number, number][] = [];
  for (const id of sorted) {
    const last = out[out.length - 1];
    if (last && id === last[1] + 1) last[1] = id;
    else out.push([id, id]);
  }
  return out;
}

/** The ALTER SERVER CONFIGURATION range syntax: [2..11, 14] -> '2 TO 11, 14'. Throws on an empty list. */
export function formatCpuRanges(cpus: readonly number[]): string {
  if (cpus.length === 0) throw new AffinityError('an affinity needs at least one CPU');
  return runs(cpus)
    .map(([a, b]) => (a === b ? `${a}` : `${a} TO ${b}`))
    .join(', ');
}

/** For display and for the cpu: spec: [2..11, 14] -> '2-11,14'. */
export function formatSpec(cpus: readonly number[]): string {
  return runs(cpus)
    .map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`))
    .join(',');
}

/** CPUs SQL Server can schedule on (VISIBLE schedulers, online or not), by NUMA node. */
export function cpusByNode(topology: Topology): Map<number, number[]> {
  // By hardware node: under soft-NUMA (2016+ splits sockets of more than 8 cores) parent_node_id numbers soft nodes,
  // so numa:1 would be half of socket 0; memory_node_id is the socket's memory node.
  const hardware = new Map(topology.nodes.map((n) => [n.nodeId, n.memoryNodeId ?? n.nodeId]));
  const m = new Map<number, number[]>();
  for (const s of topology.schedulers) {
    if (!s.status.toUpperCase().startsWith('VISIBLE')) continue;
    const node = hardware.get(s.nodeId) ?? s.nodeId;
    const list = m.get(node) ?? [];
    if (!list.includes(s.cpuId)) list.push(s.cpuId);
    m.set(node, list);
  }
  for (const list of m.values()) list.sort((a, b) => a - b);
  return new Map([...m.entries()].sort((a, b) => a[0] - b[0]));
}

function allCpus(topology: Topology): number[] {
  const byNode = cpusByNode(topology);
  if (byNode.size === 0) return Array.from({ length: topology.cpuCount }, (_, i) => i);
  return [...byNode.values()].flat().sort((a, b) => a - b);
}

/**
 * Logical CPUs per physical core: hyperthread_ratio (logical CPUs per socket) / cores per socket; 1 when the figures
 * are missing or do not divide (some VMs report odd values: better to treat every CPU as a core than to guess).
 */
export function threadsPerCore(topology: Topology): number {
  const t = topology.hyperthreadRatio / topology.coresPerSocket;
  return Number.isInteger(t) && t >= 1 ? t : 1;
}

/**
 * The CPUs sharing a core with `cpu`. ASSUMPTION: hyperthread siblings are numbered adjacently (core k = CPUs
 * k*t .. k*t+t-1 for t threads per core), as Windows numbers logical processors. Linux often numbers siblings
 * n apart (0 and n/2); SQL Server does not expose the real sibling map, so on such hosts use an explicit cpu: list.
 */
export function coreSiblings(cpu: number, topology: Topology): number[] {
  const t = threadsPerCore(topology);
  const first = Math.floor(cpu / t) * t;
  return Array.from({ length: t }, (_, i) => first + i);
}

function describeTopology(topology: Topology): string {
  const byNode = cpusByNode(topology);
  const all = allCpus(topology);
  const nodes = [...byNode.entries()].map(([n, cpus]) => `node ${n}: ${formatSpec(cpus)}`).join(', ');
  return `CPUs ${formatSpec(all)}${byNode.size > 1 ? ` (${nodes})` : ''}`;
}

/** Parses '0,2,4-7' into ids; `what` names the thing for messages ('CPU' / 'NUMA node'). */
function parseIdList(text: string, spec: string, example: string): number[] {
  const ids: number[] = [];
  for (const part of text.split(',')) {
    const m = /^\s*(\d{1,5})\s*(?:-\s*(\d{1,5})\s*)?$/.exec(part);
    if (!m) {
      throw new AffinityError(`"${spec}": "${part.trim()}" is not a number or range; write e.g. ${example}`);
    }
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) throw new AffinityError(`"${spec}": the range ${a}-${b} runs backwards; write ${b}-${a}`);
    for (let i = a; i <= b; i++) ids.push(i);
  }
  return [...new Set(ids)].sort((x, y) => x - y);
}

function result(spec: string, cpus: number[], what: string): AffinityResolution {
  if (cpus.length === 0) throw new AffinityError(`"${spec}" leaves no CPUs for SQL Server: ${what}`);
  const n = cpus.length;
  return { spec, cpus, description: `${what}: ${n} CPU${n === 1 ? '' : 's'} (${formatSpec(cpus)})` };
}

function nodeCpus(nodeId: number, spec: string, topology: Topology): number[] {
  const byNode = cpusByNode(topology);
  const cpus = byNode.get(nodeId);
  if (!cpus) {
    const have = byNode.size
      ? `this server has node${byNode.size > 1 ? 's' : ''} ${formatSpec([...byNode.keys()])}`
      : 'the topology lists no schedulers';
    throw new AffinityError(`"${spec}": NUMA node ${nodeId} does not exist; ${have}`);
  }
  return cpus;
}

/** Resolves a spec against the topology. Throws AffinityError saying what is wrong and what exists. */
export function parseAffinity(input: string, topology: Topology): AffinityResolution {
  const spec = input.trim();
  const lower = spec.toLowerCase();
  if (lower === 'auto') return { spec, cpus: 'AUTO', description: 'AUTO: SQL Server schedules on every CPU (its default)' };

  if (lower === 'exclude-core0') {
    const core0 = coreSiblings(0, topology);
    const cpus = allCpus(topology).filter((c) => !core0.includes(c));
    return result(spec, cpus, `every CPU except core 0 (CPU${core0.length > 1 ? 's' : ''} ${formatSpec(core0)})`);
  }

  let m = /^numa:\s*(\d{1,4})\s*-\s*first-core$/i.exec(spec);
  if (m) {
    const nodeId = Number(m[1]);
    const cpus = nodeCpus(nodeId, spec, topology);
    const firstCore = coreSiblings(cpus[0], topology);
    return result(
      spec,
      cpus.filter((c) => !firstCore.includes(c)),
      `NUMA node ${nodeId} without its first core (CPU${firstCore.length > 1 ? 's' : ''} ${formatSpec(firstCore)})`,
    );
  }

  m = /^numa:(.*)$/i.exec(spec);
  if (m) {
    const nodes = parseIdList(m[1], spec, 'numa:0 or numa:0-1');
    const cpus = nodes.flatMap((n) => nodeCpus(n, spec, topology)).sort((a, b) => a - b);
    return result(spec, cpus, `NUMA node${nodes.length > 1 ? 's' : ''} ${formatSpec(nodes)}`);
  }

  m = /^cpu:(.*)$/i.exec(spec);
  if (m) {
    const cpus = parseIdList(m[1], spec, 'cpu:2-11 or cpu:0,2,4-7');
    const exist = new Set(allCpus(topology));
    const missing = cpus.filter((c) => !exist.has(c));
    if (missing.length) {
      throw new AffinityError(
        `"${spec}": CPU${missing.length > 1 ? 's' : ''} ${formatSpec(missing)} do${missing.length > 1 ? '' : 'es'} not exist; this server has ${describeTopology(topology)}`,
      );
    }
    return result(spec, cpus, 'CPUs');
  }

  throw new AffinityError(`Unknown affinity "${spec}". Use one of: ${FORMS}`);
}

/** The affinity in force now, to journal before changing it: CPUs of VISIBLE ONLINE schedulers, never assumed AUTO. */
export function currentAffinity(topology: Topology): { type: string; cpus: number[] } {
  const cpus = new Set<number>();
  for (const s of topology.schedulers) {
    if (s.isOnline && s.status.toUpperCase().startsWith('VISIBLE')) cpus.add(s.cpuId);
  }
  return { type: topology.affinityType, cpus: [...cpus].sort((a, b) => a - b) };
}
