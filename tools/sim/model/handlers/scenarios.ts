// sql/scenarios/*: the files that still need what the executor does not run yet (IF ... THROW, EXEC sp_executesql, an
// INSERT ... SELECT into a permanent table). Deploying procedures, dropping objects and calling procedures are
// executed (exec/files.ts, ddl/): a procedure's workload is read from its stored body (ddl/procPlan.ts).
import type { SimObject } from '../instance';
import type { BatchCall, BatchHandler } from '../statements';
import { currentDb, dropObjects, param, strParam, throwUser } from './util';

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

const RING_OBJECTS = [
  'dbo.spinlab_ring_loop',
  'dbo.spinlab_ring_step',
  'dbo.spinlab_ring_push',
  'dbo.spinlab_ring_pop',
  'dbo.spinlab_ring_slots',
  'dbo.spinlab_ring_push_ids',
  'dbo.spinlab_ring_pop_ids',
  'dbo.spinlab_ring_push_seq',
  'dbo.spinlab_ring_pop_seq',
];
const SLOTS = 'dbo.spinlab_ring_slots';

export const SCENARIO_HANDLERS: Record<string, BatchHandler[]> = {
  'scenarios/disk-insert/seed': [
    (c) => {
      const db = currentDb(c);
      if (!c.model.findObject(db, 'dbo.spinlab_disk_insert')) throwUser(208, "Invalid object name 'dbo.spinlab_disk_insert'.");
      const n = Math.max(0, Number(param(c, '@seed_rows') ?? 0));
      c.model.counters.table(db.name, 'dbo.spinlab_disk_insert').inserts += n;
      return [{ kind: 'rowCount', count: n }];
    },
  ],
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
        // IDENTITY tables (ddl/run.ts records the column the same way): the procedures' slot-number source.
        const ids = { memoryOptimized: true, durability: 'SCHEMA_ONLY' as const, meta: { identity: 'id' } };
        table(c, 'dbo.spinlab_ring_push_ids', ids);
        table(c, 'dbo.spinlab_ring_pop_ids', ids);
      }
      c.model.counters.table(db.name, SLOTS).inserts += slots;
      return [{ kind: 'rowCount', count: slots }];
    },
  ],
};
