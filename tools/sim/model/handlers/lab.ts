// sql/lab/*: probe the lab database, its holder and kill, the key-block sequence (create, drop, tables and the XTP
// filegroup are executed: exec/files.ts).
import { err, SqlError } from '../errors';
import { cols, T } from '../types';
import type { BatchHandler } from '../statements';
import { holdersOf, isSystemSession } from '../holds';
import { currentDb, param, resultSet, strParam, throwUser } from './util';

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
  'lab/probe': [probe],
  'lab/holder': [holder],
  'lab/kill': [kill],
  'lab/common': [common],
  'lab/key-block': [keyBlock],
};
