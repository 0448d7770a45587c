// Editing an affinity spec by clicking the topology map: which CPUs a spec selects, and the spec after a CPU or a
// node is toggled. The text stays the source of truth (the user may type it); clicks rewrite it in the shortest form
// (whole nodes as numa:, otherwise cpu:).
import { AffinityError, cpusByNode, currentAffinity, formatSpec, parseAffinity } from '../../shared/affinity';
import type { Topology } from '../../shared/types';

export interface AffinitySelection {
  /** The CPUs the spec selects ('' = unchanged: the CPUs online now). */
  cpus: Set<number>;
  /** What the spec resolves to, in words, or the reason it does not. */
  description: string;
  error: string | null;
  auto: boolean;
}

export function allCpus(topology: Topology): number[] {
  return [...cpusByNode(topology).values()].flat().sort((a, b) => a - b);
}

export function selectionOf(spec: string, topology: Topology): AffinitySelection {
  if (spec.trim() === '') {
    const now = currentAffinity(topology);
    return {
      cpus: new Set(now.cpus),
      description: `unchanged: ${now.type} (${formatSpec(now.cpus.length ? now.cpus : [])} online now)`,
      error: null,
      auto: false,
    };
  }
  try {
    const r = parseAffinity(spec, topology);
    const cpus = r.cpus === 'AUTO' ? allCpus(topology) : r.cpus;
    return { cpus: new Set(cpus), description: r.description, error: null, auto: r.cpus === 'AUTO' };
  } catch (e) {
    const message = e instanceof AffinityError || e instanceof Error ? e.message : String(e);
    return { cpus: new Set(), description: '', error: message, auto: false };
  }
}

/** The shortest spec for a CPU set: numa:a,b when it is exactly whole nodes, else cpu:list. */
export function specFor(cpus: Iterable<number>, topology: Topology): string {
  const set = new Set(cpus);
  const sorted = [...set].sort((a, b) => a - b);
  if (sorted.length === 0) return '';
  const nodes: number[] = [];
  let covered = 0;
  for (const [node, list] of cpusByNode(topology)) {
    const inSet = list.filter((c) => set.has(c)).length;
    if (inSet === list.length) {
      nodes.push(node);
      covered += list.length;
    } else if (inSet > 0) {
      return `cpu:${formatSpec(sorted)}`;
    }
  }
  if (covered === sorted.length && nodes.length > 0) return `numa:${formatSpec(nodes)}`;
  return `cpu:${formatSpec(sorted)}`;
}

function baseCpus(spec: string, topology: Topology): Set<number> {
  const sel = selectionOf(spec, topology);
  return sel.error ? new Set(currentAffinity(topology).cpus) : sel.cpus;
}

/** The spec after clicking a CPU: added when out, removed when in (never leaving no CPU at all). */
export function toggleCpu(spec: string, cpu: number, topology: Topology): string {
  const cpus = baseCpus(spec, topology);
  if (cpus.has(cpu)) {
    if (cpus.size === 1) return specFor(cpus, topology);
    cpus.delete(cpu);
  } else cpus.add(cpu);
  return specFor(cpus, topology);
}

/** The spec after clicking a node: the whole node removed when all its CPUs are in, else the whole node added. */
export function toggleNode(spec: string, node: number, topology: Topology): string {
  const list = cpusByNode(topology).get(node) ?? [];
  const cpus = baseCpus(spec, topology);
  const allIn = list.every((c) => cpus.has(c));
  if (allIn) {
    const rest = [...cpus].filter((c) => !list.includes(c));
    if (rest.length === 0) return specFor(cpus, topology);
    return specFor(rest, topology);
  }
  for (const c of list) cpus.add(c);
  return specFor(cpus, topology);
}
