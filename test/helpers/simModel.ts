// Helpers for the simulator's unit tests: place N workload calls as SQL Server would under a given affinity, and
// read the contention model's rates for them.
import { computeRates, Rates, totalRowsPerSec, WorkloadProfile, WorkerInput, DelayedDurability } from '../../tools/sim/model/contention';
import { placeTask } from '../../tools/sim/model/placement';
import { autoAffinity, DEFAULT_SHAPE, Machine, parseAffinity } from '../../tools/sim/model/topology';

export const machine = new Machine(DEFAULT_SHAPE);

export function ratesFor(profile: WorkloadProfile, sessions: number, affinity: string | null, dd: DelayedDurability): Rates {
  const online = affinity ? parseAffinity(affinity, machine).cpus : autoAffinity(machine).cpus;
  const busy: number[] = [];
  const workers: WorkerInput[] = [];
  for (let i = 0; i < sessions; i++) {
    const p = placeTask(machine, online, busy, i);
    busy.push(p.cpu);
    workers.push({ id: i, profile, cpu: p.cpu, node: p.node, delayedDurability: dd, database: 'lab' });
  }
  return computeRates(workers, { machine, logWriterNode: 0 });
}

export const rows = totalRowsPerSec;
export const spins = (r: Rates, name: string): number => r.spinlocks.get(name)?.spins ?? 0;
export const spinsPerRow = (r: Rates, name: string): number => spins(r, name) / rows(r);

export const disk = (rowsPerTxn = 1): WorkloadProfile => ({
  engine: 'disk',
  access: 'interpreted',
  operation: 'insert',
  rowsPerTxn,
  slotSource: 'none',
  tableDurability: 'SCHEMA_AND_DATA',
});
export const inmem = (access: 'native' | 'interpreted'): WorkloadProfile => ({
  engine: 'xtp',
  access,
  operation: 'insert',
  rowsPerTxn: 1,
  slotSource: 'none',
  tableDurability: 'SCHEMA_AND_DATA',
});
export const ring = (
  engine: 'disk' | 'xtp',
  slotSource: 'sequence' | 'identity',
  durability: 'SCHEMA_AND_DATA' | 'SCHEMA_ONLY' = 'SCHEMA_AND_DATA',
): WorkloadProfile => ({
  engine,
  access: engine === 'xtp' && slotSource === 'identity' ? 'native' : 'interpreted',
  operation: 'push',
  rowsPerTxn: 1,
  slotSource,
  tableDurability: durability,
});
