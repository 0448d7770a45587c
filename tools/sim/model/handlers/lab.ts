// sql/lab/*: create, probe, drop the lab database; its XTP filegroup; the key-block sequence.
import { err, SqlError } from '../errors';
import { cols, T } from '../types';
import type { BatchHandler } from '../statements';
import { holdersOf, isSystemSession } from '../holds';
import { currentDb, param, requireDb, resultSet, strParam, throwUser } from './util';
import { addXtpFilegroup, dropDatabase, setRecovery, setSingleUser } from '../ddl/ops';

/** QUOTENAME(@db + N'_xtp_container') is NULL past 128 characters: both files refuse such a name (50005). */
function refuseLongName(name: string | null): void {
  if (name === null || name.length + '_xtp_container'.length > 128) {
    throwUser(
      50005,
      'Spinlock Lab: the lab database name is too long: at most 114 characters (its In-Memory OLTP container is named after it).',
    );
  }
}

const create: BatchHandler = (c) => {
  const name = strParam(c, '@db');
  refuseLongName(name);
  if (!name) throwUser(102, "Incorrect syntax near ''.");
  if (!c.model.hasPermission(c.session.login, 'CREATE ANY DATABASE') && !c.model.hasPermission(c.session.login, 'ALTER ANY DATABASE')) {
    throw new SqlError([err(262, "CREATE DATABASE permission denied in database 'master'.", 14, 1)]);
  }
  if (c.model.database(name)) throwUser(50001, 'Spinlock Lab: the lab database already exists; it is not created again.');
  const db = c.model.createDatabase(name);
  db.owner = c.session.login;
  // The file sets SIMPLE recovery except on Managed Instance (EngineEdition 8), which refuses it.
  if (!c.model.managedInstance) setRecovery(c.model, db, 'SIMPLE');
  db.properties.set('SpinlockLab', strParam(c, '@mark') ?? '');
  return [];
};

const drop: BatchHandler = (c) => {
  const name = strParam(c, '@db');
  const db = name ? c.model.database(name) : undefined;
  if (!db) return [];
  if (!db.properties.has('SpinlockLab')) {
    throwUser(50004, 'Spinlock Lab: refusing to drop a database that Spinlock Lab did not create (no SpinlockLab extended property).');
  }
  // Managed Instance: a plain DROP, refused while another session uses the database (the engine ends them first).
  if (c.model.managedInstance) {
    dropDatabase(c.model, db, c.session.spid);
    return [];
  }
  setSingleUser(c.model, db, c.session.spid);
  dropDatabase(c.model, db, c.session.spid);
  return [{ kind: 'info', number: 5069, state: 1, class: 0, message: 'ALTER DATABASE statement completed successfully.' }];
};

/**
 * The session holding the lab database, as the file's SELECT finds it over sys.dm_exec_sessions and sys.dm_tran_locks:
 * the predicates the batch carries are applied to every holder the model has (system sessions among them), so a file
 * that leaves one out is answered as SQL Server would answer it. Without VIEW SERVER STATE a login sees only itself.
 */
const holder: BatchHandler = (c) => {
  const db = c.model.database(strParam(c, '@db') ?? '');
  const code = c.text.replace(/--[^\n]*/g, ' ');
  const userOnly = /\bis_user_process\s*=\s*1\b/i.test(code);
  const viaLocks = /\bsys\.dm_tran_locks\b/i.test(code);
  const rows =
    db && c.model.canViewServerState(c.session.login)
      ? holdersOf(c.model, db)
          .filter((h) => h.spid !== c.session.spid && (!userOnly || h.user) && (viaLocks || !h.viaLocks))
          .sort((a, b) => Number(a.viaLocks) - Number(b.viaLocks) || a.spid - b.spid)
          .map((h) => [h.spid])
          .slice(0, 1)
      : [];
  return [resultSet(cols([['session_id', T.smallint]]), rows)];
};

const kill: BatchHandler = (c) => {
  const spid = Number(param(c, '@spid'));
  if (!c.model.hasPermission(c.session.login, 'ALTER ANY CONNECTION'))
    throw new SqlError([err(6102, 'User does not have permission to use the KILL statement.', 14, 1)]);
  if (spid === c.session.spid) throw new SqlError([err(6104, 'Cannot use KILL to kill your own process.', 16, 1)]);
  if (isSystemSession(c.model, spid)) throw new SqlError([err(6107, 'Only user processes can be killed.', 14, 1)]);
  if (!c.model.connections.kill(spid)) throw new SqlError([err(6106, `Process ID ${spid} is not an active process ID.`, 16, 1)]);
  return [];
};

const probe: BatchHandler = (c) => {
  const db = c.model.database(strParam(c, '@db') ?? '');
  return [
    resultSet(
      cols([
        ['database_id', T.int],
        ['name', T.sysname],
        ['state_desc', T.nvarchar(60)],
        ['recovery_model_desc', T.nvarchar(60)],
        ['delayed_durability_desc', T.nvarchar(60)],
        ['spinlab_mark', T.nvarchar(256)],
        ['has_xtp_filegroup', T.bit],
      ]),
      db
        ? [[db.id, db.name, 'ONLINE', db.recovery, db.delayedDurability, db.properties.get('SpinlockLab') ?? null, db.hasXtpFilegroup]]
        : [],
    ),
  ];
};

const tables: BatchHandler = (c) => {
  const db = c.model.database(strParam(c, '@db') ?? '');
  const rows = db
    ? [...db.objects.values()]
        .filter((o) => o.type === 'U' && /^dbo\.spinlab_/i.test(o.name))
        .map((o) => [
          o.name.replace(/^dbo\./i, ''),
          o.memoryOptimized ?? false,
          o.memoryOptimized ? (o.durability ?? 'SCHEMA_AND_DATA') : 'SCHEMA_AND_DATA',
        ])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])))
    : [];
  return [
    resultSet(
      cols([
        ['table_name', T.sysname],
        ['is_memory_optimized', T.bit],
        ['durability_desc', T.nvarchar(60)],
      ]),
      rows,
    ),
  ];
};

const addXtp: BatchHandler = (c) => {
  refuseLongName(strParam(c, '@db'));
  const db = requireDb(c, strParam(c, '@db'));
  if (db.hasXtpFilegroup) return [];
  if (c.model.managedInstance) {
    throwUser(
      50006,
      'Spinlock Lab: this Azure SQL Managed Instance gave the lab database no memory-optimized filegroup (it adds one, named XTP, on the Business Critical tier only) and refuses to add one.',
    );
  }
  addXtpFilegroup(c.model, db, true);
  return [];
};

const common: BatchHandler = (c) => {
  const db = currentDb(c);
  if (!c.model.findObject(db, 'dbo.spinlab_key_block')) c.model.addObject(db, { name: 'dbo.spinlab_key_block', type: 'SO', nextValue: 1n });
  return [];
};

const keyBlock: BatchHandler = (c) => {
  const db = currentDb(c);
  const seq = c.model.findObject(db, 'dbo.spinlab_key_block');
  if (!seq || seq.type !== 'SO') throwUser(208, "Invalid object name 'dbo.spinlab_key_block'.");
  const v = seq.nextValue ?? 1n;
  seq.nextValue = v + 1n;
  // The sequence is NO CACHE: every draw writes its metadata under the METADATA_SEQUENCE_GENERATOR latch, which a
  // burst of sessions drawing at once queues on (the ring buffer post's latch). Synthetic: 1 ms a draw.
  const latch = c.model.counters.latches.get('METADATA_SEQUENCE_GENERATOR');
  if (latch) {
    latch.count += 1;
    latch.ms += 1;
    latch.maxMs = Math.max(latch.maxMs, 1);
  }
  return [resultSet(cols([['key_block', T.bigint]]), [[v]])];
};

export const LAB_HANDLERS: Record<string, BatchHandler[]> = {
  'lab/create': [create],
  'lab/drop': [drop],
  'lab/probe': [probe],
  'lab/holder': [holder],
  'lab/kill': [kill],
  'lab/tables': [tables],
  'lab/add-xtp-filegroup': [addXtp],
  'lab/common': [common],
  'lab/key-block': [keyBlock],
};
