// Applies the DDL the executor parsed (ddl/parse.ts) to the simulator's catalog and state, with SQL Server's errors:
// 2714 an object that exists, 3701 dropping one that does not, 41337 a memory-optimized table without a
// MEMORY_OPTIMIZED_DATA filegroup holding a container, 111 CREATE PROCEDURE after another statement.
import type { ResponseItem } from '../../tds/contract';
import { err, SqlError, unsupported } from '../errors';
import type { ExecContext } from '../exec/context';
import type { Database, SimObject } from '../instance';
import { procedureParameters } from '../params';
import type { AlterDatabaseAction, DdlStmt } from './ast';
import {
  addXtpFilegroup,
  alterableDatabase,
  createDatabase,
  dropDatabase,
  setDelayedDurability,
  setProcessAffinity,
  setRecovery,
  setSingleUser,
} from './ops';
import { readProcedure } from './body';
import { runProcedure } from './procRun';
import { runEventSession } from './xeStatement';
import { tableData } from './tableDef';

const fail = (number: number, message: string, cls = 16, state = 1): never => {
  throw new SqlError([err(number, message, cls, state)]);
};

function currentDb(ctx: ExecContext): Database {
  const db = ctx.model.database(ctx.session.database);
  return db ?? fail(911, `Database '${ctx.session.database}' does not exist. Make sure that the name is entered correctly.`);
}

const KIND_WORD: Record<SimObject['type'], string> = { U: 'table', P: 'procedure', SO: 'sequence', FN: 'function' };
const last = (name: string) => name.split('.').pop()!;

function mustBeNew(ctx: ExecContext, db: Database, name: string): void {
  if (ctx.model.findObject(db, name)) fail(2714, `There is already an object named '${last(name)}' in the database.`);
}

/** Filegroups a database was given by ALTER DATABASE ADD FILEGROUP, and whether each has a file yet. */
const filegroups = new WeakMap<Database, Map<string, { memoryOptimized: boolean; files: number }>>();

function alterDatabase(ctx: ExecContext, db: Database, a: AlterDatabaseAction): ResponseItem[] {
  const m = ctx.model;
  const fgs = filegroups.get(db) ?? new Map<string, { memoryOptimized: boolean; files: number }>();
  filegroups.set(db, fgs);
  switch (a.a) {
    case 'add-filegroup':
      if (fgs.has(a.filegroup.toLowerCase()) || a.filegroup.toLowerCase() === 'primary')
        fail(1828, `The logical file name "${a.filegroup}" is already in use. Choose a different name.`);
      if (a.memoryOptimized && (db.hasXtpFilegroup || [...fgs.values()].some((f) => f.memoryOptimized)))
        // One memory-optimized filegroup per database (docs: The Memory Optimized Filegroup); its error number is not
        // documented, so the simulator refuses rather than invent one.
        throw new SqlError([unsupported(`a second MEMORY_OPTIMIZED_DATA filegroup in '${db.name}'`)]);
      if (a.memoryOptimized) addXtpFilegroup(m, db, false);
      fgs.set(a.filegroup.toLowerCase(), { memoryOptimized: a.memoryOptimized, files: 0 });
      return [];
    case 'add-file': {
      const fg = fgs.get(a.filegroup.toLowerCase()) ?? fail(1921, `Invalid filegroup '${a.filegroup}' specified.`);
      fg.files++;
      // The container makes the filegroup usable (41337 names "at least one container").
      if (fg.memoryOptimized) addXtpFilegroup(m, db, true);
      return [];
    }
    case 'recovery':
      setRecovery(m, db, a.model);
      return [];
    case 'delayed-durability':
      setDelayedDurability(m, db, a.mode);
      return [];
    case 'user-access':
      if (a.mode !== 'MULTI_USER') setSingleUser(m, db, ctx.session.spid);
      return [];
  }
}

function createTable(ctx: ExecContext, s: Extract<DdlStmt, { d: 'create-table' }>): void {
  const db = currentDb(ctx);
  mustBeNew(ctx, db, s.name);
  if (s.memoryOptimized && !db.hasXtpFilegroup)
    fail(
      41337,
      'Cannot create memory optimized tables. To create memory optimized tables, the database must have a MEMORY_OPTIMIZED_FILEGROUP that is online and has at least one container.',
    );
  if (s.memoryOptimized && s.durability === 'SCHEMA_AND_DATA' && !s.indexes.some((i) => i.primaryKey))
    fail(41321, `The memory optimized table '${last(s.name)}' with DURABILITY=SCHEMA_AND_DATA must have a primary key.`);
  if (!s.memoryOptimized && s.indexes.some((i) => i.hash)) throw new SqlError([unsupported('a HASH index on a disk-based table')]);
  if (s.cols.filter((c) => c.identity).length > 1)
    fail(2744, `Multiple identity columns specified for table '${last(s.name)}'. Only one identity column per table is allowed.`);
  const identity = s.cols.find((c) => c.identity)?.name;
  ctx.model.addObject(db, {
    name: s.name.split('.').slice(-2).join('.'),
    type: 'U',
    ...(s.memoryOptimized ? { memoryOptimized: true, durability: s.durability } : {}),
    ...(identity ? { meta: { identity } } : {}),
    data: tableData(s),
  });
}

function dropObjects(ctx: ExecContext, s: Extract<DdlStmt, { d: 'drop-object' }>): void {
  const db = currentDb(ctx);
  const word = KIND_WORD[s.type];
  for (const name of s.names) {
    const o = ctx.model.findObject(db, name);
    if (!o) {
      if (!s.ifExists) fail(3701, `Cannot drop the ${word} '${name}', because it does not exist or you do not have permission.`, 11);
      continue;
    }
    if (o.type !== s.type)
      fail(
        3705,
        `Cannot use DROP ${word.toUpperCase()} with '${name}' because '${name}' is a ${KIND_WORD[o.type]}. Use DROP ${KIND_WORD[o.type].toUpperCase()}.`,
      );
    if (o.type === 'U') refuseSchemaBound(ctx, db, o);
    db.objects.delete(name.split('.').length === 1 ? `dbo.${name.toLowerCase()}` : name.toLowerCase().split('.').slice(-2).join('.'));
  }
}

/** A natively compiled procedure is schema-bound to the tables its body names: they cannot be dropped before it. */
function refuseSchemaBound(ctx: ExecContext, db: Database, table: SimObject): void {
  const word = new RegExp(`(^|[\\s.\\[])${last(table.name)}(\\]|\\s|$|\\()`, 'i');
  for (const o of db.objects.values()) {
    if (o.type === 'P' && o.nativelyCompiled && word.test(o.meta?.body ?? ''))
      fail(3729, `Cannot DROP TABLE '${table.name}' because it is being referenced by object '${last(o.name)}'.`);
  }
}

const SEQUENCE_MIN: Record<string, bigint> = { tinyint: 0n, smallint: -32768n, int: -2147483648n, bigint: -9223372036854775808n };

function createProcedure(ctx: ExecContext, s: Extract<DdlStmt, { d: 'create-procedure' }>): void {
  if (!s.first) fail(111, "'CREATE/ALTER PROCEDURE' must be the first statement in a query batch.", 15);
  const db = currentDb(ctx);
  mustBeNew(ctx, db, s.name);
  const obj = ctx.model.addObject(db, {
    name: s.name.split('.').slice(-2).join('.'),
    type: 'P',
    params: procedureParameters(s.text),
    nativelyCompiled: readProcedure(s.text).native,
    meta: { body: s.text },
    run: (call) => runProcedure(call, obj),
  });
}

export function runDdl(ctx: ExecContext, s: DdlStmt): ResponseItem[] {
  const m = ctx.model;
  switch (s.d) {
    case 'create-database':
      createDatabase(m, ctx.session.login, s.name);
      return [];
    case 'drop-database':
      for (const n of s.names) {
        const db = m.database(n);
        if (!db) {
          if (!s.ifExists) fail(3701, `Cannot drop the database '${n}', because it does not exist or you do not have permission.`, 11);
          continue;
        }
        alterableDatabase(m, ctx.session.login, n);
        dropDatabase(m, db, ctx.session.spid);
      }
      return [];
    case 'alter-database':
      return alterDatabase(ctx, alterableDatabase(m, ctx.session.login, s.name), s.action);
    case 'create-table':
      createTable(ctx, s);
      return [];
    case 'drop-object':
      dropObjects(ctx, s);
      return [];
    case 'create-sequence': {
      const db = currentDb(ctx);
      mustBeNew(ctx, db, s.name);
      // A sequence's type bounds its values; decimal/numeric ones are not modelled.
      if (!(s.type in SEQUENCE_MIN)) throw new SqlError([unsupported(`CREATE SEQUENCE ... AS ${s.type}`)]);
      const start = s.start ?? SEQUENCE_MIN[s.type];
      m.addObject(db, {
        name: s.name.split('.').slice(-2).join('.'),
        type: 'SO',
        nextValue: start,
        meta: { cache: String(s.cache ?? 0), increment: String(s.increment), type: s.type },
      });
      return [];
    }
    case 'create-procedure':
      createProcedure(ctx, s);
      return [];
    case 'affinity':
      setProcessAffinity(m, ctx.session.login, s.spec);
      return [];
    case 'event-session':
      runEventSession(m, ctx.session.login, s.text);
      return [];
  }
}
