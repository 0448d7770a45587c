// A three-part name (lab.sys.filegroups, [lab].sys.sp_addextendedproperty) reads or acts in the database it names,
// not the session's: the lab's files address the lab database that way from master.
import { err, SqlError, unsupported } from '../errors';
import { T } from '../types';
import type { Typed } from './values';
import type { ExecContext } from './context';

/** ctx as seen from the database a 'db.schema.object' name names; ctx itself for a shorter name. */
export function inNamedDatabase(ctx: ExecContext, name: string): ExecContext {
  const parts = name.replace(/[[\]]/g, '').split('.');
  if (parts.length !== 3) return ctx;
  const db = ctx.model.database(parts[0]);
  if (!db) throw new SqlError([err(208, `Invalid object name '${name}'.`, 16, 1)]);
  if (db.name.toLowerCase() === ctx.session.database.toLowerCase()) return ctx;
  return { ...ctx, session: { ...ctx.session, database: db.name } };
}

/** DATABASEPROPERTYEX and HAS_DBACCESS (docs of each): NULL for a database that does not exist. */
export function databaseFn(ctx: ExecContext, name: string, args: Typed[]): Typed | undefined {
  if (name !== 'DATABASEPROPERTYEX' && name !== 'HAS_DBACCESS') return undefined;
  const db = args[0]?.v === null || args[0] === undefined ? undefined : ctx.model.database(String(args[0].v));
  // Every login reaches every database in the model (its logins map to dbo or have no database restriction).
  if (name === 'HAS_DBACCESS') return { v: db ? 1 : null, type: T.int };
  const prop = String(args[1]?.v ?? '').toLowerCase();
  const values: Record<string, (d: NonNullable<typeof db>) => string> = {
    status: () => 'ONLINE',
    recovery: (d) => d.recovery,
    updateability: () => 'READ_WRITE',
    useraccess: () => 'MULTI_USER',
  };
  if (!values[prop]) throw new SqlError([unsupported(`DATABASEPROPERTYEX(..., '${prop}')`)]);
  return { v: db ? values[prop](db) : null, type: { type: 'sql_variant' } };
}
