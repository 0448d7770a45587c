// Catalog views: sys.databases and sys.master_files (server-wide), and per current database sys.database_files,
// sys.tables, sys.objects, sys.procedures, sys.sequences, sys.filegroups, sys.extended_properties, and the
// database DMVs sys.dm_db_index_operational_stats / sys.dm_db_xtp_object_stats.
import { filesOf } from './dmvDb';
import type { Database } from './instance';
import { addr, cols, QueryContext, SystemView, T } from './types';
import type { SqlType } from '../tds/contract';
import type { Value } from '../tds/contract';

const f = Math.floor;
const current = (c: QueryContext): Database => c.model.database(c.session.database) ?? c.model.database('master')!;

const databases: SystemView = {
  name: 'sys.databases',
  scope: 'public',
  columns: () =>
    cols([
      ['name', T.sysname],
      ['database_id', T.int],
      ['source_database_id', T.int],
      ['owner_sid', T.varbinary(85)],
      ['create_date', T.datetime],
      ['compatibility_level', T.tinyint],
      ['collation_name', T.sysname],
      ['user_access', T.tinyint],
      ['user_access_desc', T.nvarchar(60)],
      ['is_read_only', T.bit],
      ['state', T.tinyint],
      ['state_desc', T.nvarchar(60)],
      ['recovery_model', T.tinyint],
      ['recovery_model_desc', T.nvarchar(60)],
      ['is_memory_optimized_elevate_to_snapshot_on', T.bit],
      ['delayed_durability', T.int],
      ['delayed_durability_desc', T.nvarchar(60)],
      ['physical_database_name', T.nvarchar(128)],
    ]),
  // physical_database_name: 2019+ and Azure SQL (the catalogue drops it before 2019); a GUID on Managed Instance.
  rows: (c) =>
    [...c.model.databases.values()]
      .sort((a, b) => a.id - b.id)
      .map((d) => [
        d.name,
        d.id,
        null,
        Buffer.from([1]),
        d.createDate,
        c.model.managedInstance ? 160 : c.model.version * 10,
        'SQL_Latin1_General_CP1_CI_AS',
        0,
        'MULTI_USER',
        false,
        0,
        'ONLINE',
        d.recovery === 'FULL' ? 1 : 3,
        d.recovery,
        false,
        { DISABLED: 0, ALLOWED: 1, FORCED: 2 }[d.delayedDurability],
        d.delayedDurability,
        d.physicalName,
      ]),
};

const fileCols = (withDb: boolean) =>
  cols([
    ...(withDb ? ([['database_id', T.int]] as [string, SqlType][]) : []),
    ['file_id', T.int],
    ['type', T.tinyint],
    ['type_desc', T.nvarchar(60)],
    ['data_space_id', T.int],
    ['name', T.sysname],
    ['physical_name', T.nvarchar(260)],
    ['state', T.tinyint],
    ['state_desc', T.nvarchar(60)],
    ['size', T.int],
    ['max_size', T.int],
    ['growth', T.int],
    ['is_percent_growth', T.bit],
  ]);
const fileRow = (c: QueryContext, d: Database, withDb: boolean): Value[][] =>
  filesOf(c.model, d).map((x) => [
    ...(withDb ? [d.id] : []),
    x.fileId,
    x.type,
    x.typeDesc,
    x.dataSpace,
    x.name,
    x.physical,
    0,
    'ONLINE',
    x.sizePages,
    -1,
    x.type === 2 ? 0 : 8192,
    false,
  ]);

const masterFiles: SystemView = {
  name: 'sys.master_files',
  scope: 'public',
  columns: () => fileCols(true),
  rows: (c) => [...c.model.databases.values()].sort((a, b) => a.id - b.id).flatMap((d) => fileRow(c, d, true)),
};
const databaseFiles: SystemView = {
  name: 'sys.database_files',
  scope: 'public',
  columns: () => fileCols(false),
  rows: (c) => fileRow(c, current(c), false),
};

const TYPE_DESC: Record<string, string> = { U: 'USER_TABLE', P: 'SQL_STORED_PROCEDURE', SO: 'SEQUENCE_OBJECT', FN: 'SQL_SCALAR_FUNCTION' };
const objectCols = () =>
  cols([
    ['name', T.sysname],
    ['object_id', T.int],
    ['schema_id', T.int],
    ['type', T.char(2)],
    ['type_desc', T.nvarchar(60)],
    ['create_date', T.datetime],
    ['modify_date', T.datetime],
    ['is_ms_shipped', T.bit],
  ]);
const objectRows = (c: QueryContext, types: string[]) =>
  [...current(c).objects.values()]
    .filter((o) => types.includes(o.type))
    .map(
      (o) =>
        [o.name.split('.')[1], o.objectId, 1, o.type.padEnd(2), TYPE_DESC[o.type], o.createDate, o.createDate, !!o.msShipped] as Value[],
    );

const objects: SystemView = {
  name: 'sys.objects',
  scope: 'public',
  columns: objectCols,
  rows: (c) => objectRows(c, ['U', 'P', 'SO', 'FN']),
};
const procedures: SystemView = { name: 'sys.procedures', scope: 'public', columns: objectCols, rows: (c) => objectRows(c, ['P']) };
const tables: SystemView = {
  name: 'sys.tables',
  scope: 'public',
  columns: () => [
    ...objectCols(),
    ...cols([
      ['is_memory_optimized', T.bit],
      ['durability', T.tinyint],
      ['durability_desc', T.nvarchar(60)],
    ]),
  ],
  rows: (c) =>
    [...current(c).objects.values()]
      .filter((o) => o.type === 'U')
      .map((o) => [
        o.name.split('.')[1],
        o.objectId,
        1,
        'U ',
        'USER_TABLE',
        o.createDate,
        o.createDate,
        !!o.msShipped,
        !!o.memoryOptimized,
        o.durability === 'SCHEMA_ONLY' ? 1 : 0,
        o.durability ?? 'SCHEMA_AND_DATA',
      ]),
};
const sequences: SystemView = {
  name: 'sys.sequences',
  scope: 'public',
  columns: () => [...objectCols(), ...cols([['current_value', T.bigint]])],
  rows: (c) =>
    [...current(c).objects.values()]
      .filter((o) => o.type === 'SO')
      .map((o) => [
        o.name.split('.')[1],
        o.objectId,
        1,
        'SO',
        'SEQUENCE_OBJECT',
        o.createDate,
        o.createDate,
        false,
        (o.nextValue ?? 1n) - 1n,
      ]),
};
const filegroups: SystemView = {
  name: 'sys.filegroups',
  scope: 'public',
  columns: () =>
    cols([
      ['name', T.sysname],
      ['data_space_id', T.int],
      ['type', T.char(2)],
      ['type_desc', T.nvarchar(60)],
      ['is_default', T.bit],
      ['is_system', T.bit],
    ]),
  rows: (c) => {
    const d = current(c);
    const out: Value[][] = [['PRIMARY', 1, 'FG', 'ROWS_FILEGROUP', true, false]];
    // Managed Instance names the one it adds XTP (T-SQL differences page, CREATE DATABASE statement).
    if (d.hasXtpFilegroup)
      out.push([c.model.managedInstance ? 'XTP' : `${d.name}_xtp`, 65537, 'FX', 'MEMORY_OPTIMIZED_DATA_FILEGROUP', false, false]);
    return out;
  },
};
const extendedProperties: SystemView = {
  name: 'sys.extended_properties',
  scope: 'public',
  // value is sql_variant in SQL Server; the wire contract has no sql_variant, so it goes out as nvarchar(4000).
  columns: () =>
    cols([
      ['class', T.tinyint],
      ['class_desc', T.nvarchar(60)],
      ['major_id', T.int],
      ['minor_id', T.int],
      ['name', T.sysname],
      ['value', T.nvarchar(4000)],
    ]),
  rows: (c) => [...current(c).properties].map(([k, v]) => [0, 'DATABASE', 0, 0, k, v]),
};

const indexOpStats: SystemView = {
  name: 'sys.dm_db_index_operational_stats',
  scope: 'database',
  columns: () =>
    cols([
      ['database_id', T.smallint],
      ['object_id', T.int],
      ['index_id', T.int],
      ['partition_number', T.int],
      ['hobt_id', T.bigint],
      ['leaf_insert_count', T.bigint],
      ['leaf_delete_count', T.bigint],
      ['leaf_update_count', T.bigint],
      ['leaf_ghost_count', T.bigint],
      ['nonleaf_insert_count', T.bigint],
      ['range_scan_count', T.bigint],
      ['singleton_lookup_count', T.bigint],
      ['row_lock_count', T.bigint],
      ['page_latch_wait_count', T.bigint],
      ['page_latch_wait_in_ms', T.bigint],
      ['page_io_latch_wait_count', T.bigint],
    ]),
  rows: (c, args) => {
    const m = c.model;
    const d = args?.[0] != null ? m.databaseById(Number(args[0])) : current(c);
    if (!d) return [];
    return [...d.objects.values()]
      .filter((o) => o.type === 'U' && !o.memoryOptimized)
      .map((o) => {
        const ops = m.counters.table(d.name, o.name);
        return [
          d.id,
          o.objectId,
          1,
          1,
          BigInt(o.objectId) * 65536n,
          f(ops.inserts),
          f(ops.deletes),
          f(ops.updates),
          0,
          f(ops.inserts / 300),
          0,
          f(ops.updates),
          f(ops.inserts + ops.updates),
          f(ops.inserts / 5000),
          f(ops.inserts / 50000),
          0,
        ];
      });
  },
};
const xtpObjectStats: SystemView = {
  name: 'sys.dm_db_xtp_object_stats',
  scope: 'database',
  columns: () =>
    cols([
      ['object_id', T.bigint],
      ['xtp_object_id', T.bigint],
      ['row_insert_attempts', T.bigint],
      ['row_update_attempts', T.bigint],
      ['row_delete_attempts', T.bigint],
      ['write_conflicts', T.bigint],
      ['unique_constraint_violations', T.bigint],
      ['object_address', T.varbinary(8)],
    ]),
  rows: (c) => {
    const d = current(c);
    return [...d.objects.values()]
      .filter((o) => o.type === 'U' && o.memoryOptimized)
      .map((o) => {
        const ops = c.model.counters.table(d.name, o.name);
        return [
          BigInt(o.objectId),
          BigInt(o.objectId % 100000),
          f(ops.inserts),
          f(ops.updates),
          f(ops.deletes),
          0,
          0,
          addr(o.objectId % 100000),
        ];
      });
  },
};

export const CATALOG_VIEWS: SystemView[] = [
  databases,
  masterFiles,
  databaseFiles,
  objects,
  procedures,
  tables,
  sequences,
  filegroups,
  extendedProperties,
  indexOpStats,
  xtpObjectStats,
];
