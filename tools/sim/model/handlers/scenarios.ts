// sql/scenarios/*: deploy handlers register the tables, sequences and procedures as named objects; calling a
// workload procedure runs the contention model for the modelled time.
import type { WorkloadProfile } from '../contention';
import type { Database, ProcCall, SimObject } from '../instance';
import { cols, T } from '../types';
import type { BatchCall, BatchHandler } from '../statements';
import type { ResponseItem, Value } from '../../tds/contract';
import { procedureParameters } from '../params';
import { currentDb, dropObjects, param, strParam, throwUser } from './util';

type Kind = 'loop' | 'batch' | 'ring-loop' | 'ring-step';

const num = (v: Value | undefined): number | null => (v === null || v === undefined ? null : Number(v));

function workloadProc(
  table: string,
  kind: Kind,
  profile: (db: Database, call: ProcCall) => WorkloadProfile,
): (call: ProcCall) => Promise<ResponseItem[]> {
  return async (call) => {
    const p = (n: string) => call.params.get(n)?.value;
    const db = call.db;
    if (!call.model.findObject(db, table)) throwUser(208, `Invalid object name '${table}'.`);
    const prof = profile(db, call);
    let rows: number | null;
    let durationMs: number | null = null;
    const opsPerStep = String(p('@mode') ?? 'push') === 'push-pop' ? 2 : 1;
    if (kind === 'loop' || kind === 'ring-loop') {
      rows = num(p('@rows'));
      durationMs = num(p('@run_ms'));
    } else if (kind === 'batch') rows = num(p('@batch_size')) ?? 1;
    else rows = opsPerStep;
    // One transaction's worth per call (client loop) or a loop inside the call (server loop): the procedure says which.
    const perCall = kind === 'batch' || kind === 'ring-step';
    const r = await call.model.runWorkload(call.session, db, table, prof, { rows, durationMs, perCall }, call.signal);
    if (r.aborted) return [];
    const out: ResponseItem[] = [];
    if (kind === 'loop' || kind === 'ring-loop')
      out.push({ kind: 'resultSet', columns: cols([['rows_done', T.bigint]]), rows: [[BigInt(r.rows)]] });
    if (kind === 'ring-step') out.push({ kind: 'outputValue', name: '@ops', sqlType: T.int, value: r.rows });
    out.push({ kind: 'returnStatus', value: 0 });
    return out;
  };
}

function proc(c: BatchCall, name: string, run?: SimObject['run'], extra: Partial<SimObject> = {}): [] {
  const db = currentDb(c);
  if (c.model.findObject(db, name)) throwUser(2714, `There is already an object named '${name.split('.').pop()}' in the database.`);
  c.model.addObject(db, { name, type: 'P', run, params: procedureParameters(c.text), ...extra });
  return [];
}
function table(c: BatchCall, name: string, extra: Partial<SimObject> = {}): void {
  const db = currentDb(c);
  if (c.model.findObject(db, name)) throwUser(2714, `There is already an object named '${name.split('.').pop()}' in the database.`);
  if (extra.memoryOptimized && !db.hasXtpFilegroup) {
    throwUser(
      41337,
      'Cannot create memory optimized tables. To create memory optimized tables, the database must have a MEMORY_OPTIMIZED_FILEGROUP that is online and has at least one container.',
    );
  }
  c.model.addObject(db, { name, type: 'U', ...extra });
}

// ---- disk-insert ----
const DISK = ['dbo.spinlab_disk_insert_loop', 'dbo.spinlab_disk_insert_batch', 'dbo.spinlab_disk_insert'];
const diskProfile = (call: ProcCall): WorkloadProfile => ({
  engine: 'disk',
  access: 'interpreted',
  operation: 'insert',
  rowsPerTxn: Math.max(1, num(call.params.get('@batch_size')?.value) ?? 1),
  slotSource: 'none',
  tableDurability: 'SCHEMA_AND_DATA',
});
const diskInsert: Record<string, BatchHandler[]> = {
  'scenarios/disk-insert/deploy': [
    (c) => {
      dropObjects(c, DISK);
      table(c, 'dbo.spinlab_disk_insert');
      return [];
    },
    (c) =>
      proc(
        c,
        'dbo.spinlab_disk_insert_batch',
        workloadProc('dbo.spinlab_disk_insert', 'batch', (_, call) => diskProfile(call)),
      ),
    (c) =>
      proc(
        c,
        'dbo.spinlab_disk_insert_loop',
        workloadProc('dbo.spinlab_disk_insert', 'loop', (_, call) => diskProfile(call)),
      ),
  ],
  'scenarios/disk-insert/seed': [
    (c) => {
      const db = currentDb(c);
      if (!c.model.findObject(db, 'dbo.spinlab_disk_insert')) throwUser(208, "Invalid object name 'dbo.spinlab_disk_insert'.");
      const n = Math.max(0, Number(param(c, '@seed_rows') ?? 0));
      c.model.counters.table(db.name, 'dbo.spinlab_disk_insert').inserts += n;
      return [{ kind: 'rowCount', count: n }];
    },
  ],
  'scenarios/disk-insert/cleanup': [(c) => (dropObjects(c, DISK), [])],
};

// ---- inmem-insert ----
const INMEM_PROCS = [
  'dbo.spinlab_inmem_insert_loop_native',
  'dbo.spinlab_inmem_insert_loop_interpreted',
  'dbo.spinlab_inmem_insert_native',
  'dbo.spinlab_inmem_insert_interpreted',
];
const INMEM_TABLE = 'dbo.spinlab_inmem_insert';
const inmemProfile =
  (access: 'native' | 'interpreted') =>
  (db: Database, call: ProcCall): WorkloadProfile => ({
    engine: 'xtp',
    access,
    operation: 'insert',
    rowsPerTxn: Math.max(1, num(call.params.get('@batch_size')?.value) ?? 1),
    slotSource: 'none',
    tableDurability: call.model.findObject(db, INMEM_TABLE)?.durability ?? 'SCHEMA_AND_DATA',
  });
const inmemInsert: Record<string, BatchHandler[]> = {
  'scenarios/inmem-insert/table': [
    (c) => {
      dropObjects(c, [...INMEM_PROCS, INMEM_TABLE]);
      const durability = strParam(c, '@durability');
      if (durability !== 'SCHEMA_AND_DATA' && durability !== 'SCHEMA_ONLY')
        throwUser(50020, 'Spinlock Lab: durability must be SCHEMA_AND_DATA or SCHEMA_ONLY.');
      const buckets = Number(param(c, '@bucket_count'));
      if (!(buckets >= 1 && buckets <= 1073741824)) throwUser(50021, 'Spinlock Lab: bucket_count must be between 1 and 1073741824.');
      table(c, INMEM_TABLE, { memoryOptimized: true, durability });
      return [];
    },
  ],
  'scenarios/inmem-insert/procs': [
    (c) =>
      proc(c, 'dbo.spinlab_inmem_insert_native', workloadProc(INMEM_TABLE, 'batch', inmemProfile('native')), { nativelyCompiled: true }),
    (c) => proc(c, 'dbo.spinlab_inmem_insert_interpreted', workloadProc(INMEM_TABLE, 'batch', inmemProfile('interpreted'))),
    (c) => proc(c, 'dbo.spinlab_inmem_insert_loop_native', workloadProc(INMEM_TABLE, 'loop', inmemProfile('native'))),
    (c) => proc(c, 'dbo.spinlab_inmem_insert_loop_interpreted', workloadProc(INMEM_TABLE, 'loop', inmemProfile('interpreted'))),
  ],
  'scenarios/inmem-insert/cleanup': [(c) => (dropObjects(c, [...INMEM_PROCS, INMEM_TABLE]), [])],
};

// ---- ring-buffer ----
const RING_PROCS = ['dbo.spinlab_ring_loop', 'dbo.spinlab_ring_step', 'dbo.spinlab_ring_push', 'dbo.spinlab_ring_pop'];
const RING_OBJECTS = [
  ...RING_PROCS,
  'dbo.spinlab_ring_slots',
  'dbo.spinlab_ring_push_ids',
  'dbo.spinlab_ring_pop_ids',
  'dbo.spinlab_ring_push_seq',
  'dbo.spinlab_ring_pop_seq',
];
const SLOTS = 'dbo.spinlab_ring_slots';
const ringProfile = (db: Database, call: ProcCall): WorkloadProfile => {
  const push = call.model.findObject(db, 'dbo.spinlab_ring_push');
  if (!push?.meta) throwUser(2812, "Could not find stored procedure 'dbo.spinlab_ring_push'.");
  const slots = call.model.findObject(db, SLOTS);
  return {
    engine: slots?.memoryOptimized ? 'xtp' : 'disk',
    access: push.nativelyCompiled ? 'native' : 'interpreted',
    operation: 'push',
    rowsPerTxn: 1,
    slotSource: push.meta.slotSource === 'identity' ? 'identity' : 'sequence',
    tableDurability: slots?.durability ?? 'SCHEMA_AND_DATA',
  };
};
const pushPop = (slotSource: string, native: boolean): BatchHandler[] => [
  (c) =>
    proc(c, 'dbo.spinlab_ring_push', workloadProc(SLOTS, 'ring-step', ringProfile), { meta: { slotSource }, nativelyCompiled: native }),
  (c) => proc(c, 'dbo.spinlab_ring_pop', workloadProc(SLOTS, 'ring-step', ringProfile), { meta: { slotSource }, nativelyCompiled: native }),
];
const ringBuffer: Record<string, BatchHandler[]> = {
  'scenarios/ring-buffer/tables': [
    (c) => {
      const storage = strParam(c, '@storage'),
        durability = strParam(c, '@durability'),
        source = strParam(c, '@slot_source');
      const slots = Number(param(c, '@slots')),
        cache = Number(param(c, '@sequence_cache'));
      if (storage !== 'disk' && storage !== 'memory') throwUser(50030, 'Spinlock Lab: storage must be disk or memory.');
      if (durability !== 'SCHEMA_AND_DATA' && durability !== 'SCHEMA_ONLY')
        throwUser(50031, 'Spinlock Lab: durability must be SCHEMA_AND_DATA or SCHEMA_ONLY.');
      if (source !== 'sequence' && source !== 'identity') throwUser(50032, 'Spinlock Lab: slot_source must be sequence or identity.');
      if (!(slots >= 16 && slots <= 268435456)) throwUser(50033, 'Spinlock Lab: slots must be between 16 and 268435456.');
      if (!(cache >= 0 && cache <= 1000000)) throwUser(50034, 'Spinlock Lab: sequence_cache must be between 0 and 1000000.');
      dropObjects(c, RING_OBJECTS);
      table(c, SLOTS, storage === 'memory' ? { memoryOptimized: true, durability } : {});
      const db = currentDb(c);
      if (source === 'sequence') {
        c.model.addObject(db, { name: 'dbo.spinlab_ring_push_seq', type: 'SO', nextValue: 0n });
        c.model.addObject(db, { name: 'dbo.spinlab_ring_pop_seq', type: 'SO', nextValue: 0n });
      } else {
        table(c, 'dbo.spinlab_ring_push_ids', { memoryOptimized: true, durability: 'SCHEMA_ONLY' });
        table(c, 'dbo.spinlab_ring_pop_ids', { memoryOptimized: true, durability: 'SCHEMA_ONLY' });
      }
      c.model.counters.table(db.name, SLOTS).inserts += slots;
      return [{ kind: 'rowCount', count: slots }];
    },
  ],
  // Interpreted for either slot table: NEXT VALUE FOR is not allowed in natively compiled modules.
  'scenarios/ring-buffer/procs-sequence': pushPop('sequence', false),
  'scenarios/ring-buffer/procs-disk-identity': pushPop('identity', false),
  'scenarios/ring-buffer/procs-memory-identity': pushPop('identity', true),
  'scenarios/ring-buffer/procs-loop': [
    (c) => proc(c, 'dbo.spinlab_ring_step', workloadProc(SLOTS, 'ring-step', ringProfile)),
    (c) => proc(c, 'dbo.spinlab_ring_loop', workloadProc(SLOTS, 'ring-loop', ringProfile)),
  ],
  'scenarios/ring-buffer/cleanup': [(c) => (dropObjects(c, RING_OBJECTS), [])],
};

export const SCENARIO_HANDLERS: Record<string, BatchHandler[]> = { ...diskInsert, ...inmemInsert, ...ringBuffer };
