// The simulated machine: sockets x cores x hyperthreads, one NUMA node per socket, CPUs numbered as Windows does
// (hyperthread siblings adjacent: CPUs 0 and 1 are core 0 of socket 0), and the process affinity that decides which
// schedulers are online. Pure data and functions: no clock, no I/O.

export interface MachineShape {
  sockets: number;
  coresPerSocket: number;
  threadsPerCore: number;
}

export interface Cpu {
  id: number;
  socket: number;
  node: number;
  /** Machine-wide core number: CPUs 2k and 2k+1 share core k when hyperthreading is on. */
  core: number;
}

export const DEFAULT_SHAPE: MachineShape = { sockets: 2, coresPerSocket: 10, threadsPerCore: 2 };

/** Parses '2x10x2' (sockets x cores per socket x threads per core). */
export function parseShape(text: string): MachineShape {
  const m = /^\s*(\d+)\s*x\s*(\d+)\s*x\s*(\d+)\s*$/i.exec(text);
  if (!m) throw new Error(`topology must look like SOCKETSxCORESxTHREADS (e.g. 2x10x2), not '${text}'`);
  const [sockets, coresPerSocket, threadsPerCore] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (sockets < 1 || sockets > 8) throw new Error('topology: 1 to 8 sockets');
  if (coresPerSocket < 1 || coresPerSocket > 64) throw new Error('topology: 1 to 64 cores per socket');
  if (threadsPerCore < 1 || threadsPerCore > 2) throw new Error('topology: 1 or 2 threads per core');
  if (sockets * coresPerSocket * threadsPerCore > 256) throw new Error('topology: at most 256 logical CPUs');
  return { sockets, coresPerSocket, threadsPerCore };
}

/**
 * Automatic soft-NUMA (SQL Server 2016+): a hardware node (socket) with more than 8 physical cores is split into
 * soft-NUMA nodes of at most 8 cores, as evenly as it goes (12 cores: two nodes of 6). Soft nodes are what
 * sys.dm_os_schedulers.parent_node_id and dm_os_nodes.node_id number; memory_node_id stays the hardware node.
 */
export function softNodesPerSocket(coresPerSocket: number): number {
  return coresPerSocket > 8 ? Math.ceil(coresPerSocket / 8) : 1;
}

export class Machine {
  readonly cpus: Cpu[];
  readonly cpusPerNode: number;
  readonly nodesPerSocket: number;
  /** softNuma: split sockets of more than 8 cores as SQL Server 2016+ does by default (off: one node per socket). */
  constructor(
    readonly shape: MachineShape,
    readonly softNuma = false,
  ) {
    this.cpusPerNode = shape.coresPerSocket * shape.threadsPerCore;
    this.nodesPerSocket = softNuma ? softNodesPerSocket(shape.coresPerSocket) : 1;
    this.cpus = [];
    for (let id = 0; id < shape.sockets * this.cpusPerNode; id++) {
      const socket = Math.floor(id / this.cpusPerNode);
      const coreInSocket = Math.floor((id % this.cpusPerNode) / shape.threadsPerCore);
      const soft = Math.floor((coreInSocket * this.nodesPerSocket) / shape.coresPerSocket);
      this.cpus.push({ id, socket, node: socket * this.nodesPerSocket + soft, core: Math.floor(id / shape.threadsPerCore) });
    }
  }
  get cpuCount(): number {
    return this.cpus.length;
  }
  /** SQL Server's NUMA nodes: soft nodes when soft-NUMA split the sockets. */
  get nodeCount(): number {
    return this.shape.sockets * this.nodesPerSocket;
  }
  /** The hardware (memory) node of a SQL Server node: sys.dm_os_nodes.memory_node_id. */
  memoryNodeOf(node: number): number {
    return Math.floor(node / this.nodesPerSocket);
  }
  cpusOfNode(node: number): number[] {
    return this.cpus.filter((c) => c.node === node).map((c) => c.id);
  }
  /** The other logical CPU on the same core, or undefined without hyperthreading. */
  sibling(cpu: number): number | undefined {
    if (this.shape.threadsPerCore < 2) return undefined;
    return cpu % 2 === 0 ? cpu + 1 : cpu - 1;
  }
  /** CPUs of core 0, where the log writer runs (seed 001: "always allocated to core 0"). */
  core0Cpus(): number[] {
    return this.cpus.filter((c) => c.core === 0).map((c) => c.id);
  }
}

/** AUTO: every CPU online. MANUAL: only the listed CPUs. */
export interface Affinity {
  type: 'AUTO' | 'MANUAL';
  cpus: number[];
}

export function autoAffinity(m: Machine): Affinity {
  return { type: 'AUTO', cpus: m.cpus.map((c) => c.id) };
}

export class AffinityError extends Error {
  constructor(
    readonly number: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Parses the tail of ALTER SERVER CONFIGURATION SET PROCESS AFFINITY: 'CPU = AUTO', 'CPU = 2 TO 11, 14',
 * 'NUMANODE = 0 TO 1'. Ids outside the machine raise error 5832 ("The affinity mask specified does not match the CPU
 * mask on this system."): the number SQL Server's message catalogue has for a mask that names CPUs the system lacks.
 */
export function parseAffinity(spec: string, m: Machine): Affinity {
  const s = spec.trim().replace(/;$/, '').trim();
  const head = /^(CPU|NUMANODE)\s*=\s*([\s\S]+)$/i.exec(s);
  if (!head) throw new AffinityError(102, `Incorrect syntax near '${s.split(/\s+/)[0] ?? ''}'.`);
  const kind = head[1].toUpperCase();
  const body = head[2].trim();
  if (kind === 'CPU' && /^AUTO$/i.test(body)) return autoAffinity(m);
  const ids = parseRanges(body);
  const mismatch = () => new AffinityError(5832, 'The affinity mask specified does not match the CPU mask on this system.');
  const cpus = new Set<number>();
  if (kind === 'CPU') {
    for (const id of ids) {
      if (id >= m.cpuCount) throw mismatch();
      cpus.add(id);
    }
  } else {
    for (const node of ids) {
      if (node >= m.nodeCount) throw mismatch();
      for (const c of m.cpusOfNode(node)) cpus.add(c);
    }
  }
  const list = [...cpus].sort((a, b) => a - b);
  // Naming every CPU is still a manual affinity in SQL Server (affinity_type_desc stays MANUAL).
  return { type: 'MANUAL', cpus: list };
}

function parseRanges(body: string): number[] {
  const out: number[] = [];
  for (const part of body.split(',')) {
    const m = /^\s*(\d+)\s*(?:TO\s*(\d+)\s*)?$/i.exec(part);
    if (!m) throw new AffinityError(102, `Incorrect syntax near '${part.trim()}'.`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) throw new AffinityError(5832, 'The affinity mask specified does not match the CPU mask on this system.');
    for (let i = a; i <= b; i++) out.push(i);
  }
  return out;
}

/** A 64-bit mask (bigint) of the given CPU ids, modulo the processor group of 64. */
export function cpuMask(ids: number[]): bigint {
  let mask = 0n;
  for (const id of ids) mask |= 1n << BigInt(id % 64);
  return BigInt.asIntN(64, mask);
}
