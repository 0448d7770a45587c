// HAS_PERMS_BY_NAME(securable, securable_class, permission) over the model's logins (docs: HAS_PERMS_BY_NAME): the
// effective permission, granted, implied by a higher one, or held as the database's owner; NULL for a permission name
// this version does not know and for a database that does not exist.
import { SqlError, unsupported } from '../errors';
import type { Permission } from '../instance';
import { T } from '../types';
import type { ExecContext } from './context';
import { fail, Typed } from './values';

/** Permission names each SQL Server version knows: SQL Server 2022 added these. */
const SINCE_2022 = new Set([
  'VIEW SERVER PERFORMANCE STATE',
  'VIEW DATABASE PERFORMANCE STATE',
  'CREATE ANY EVENT SESSION',
  'ALTER ANY EVENT SESSION ENABLE',
  'DROP ANY EVENT SESSION',
]);

function onDatabase(ctx: ExecContext, dbName: string, perm: string): boolean | null {
  const m = ctx.model;
  const login = ctx.session.login;
  const db = m.database(dbName);
  if (!db) return null;
  if (m.hasPermission(login, 'CONTROL SERVER') || db.owner?.toLowerCase() === login.toLowerCase()) return true;
  if (perm === 'VIEW DATABASE STATE' || perm === 'VIEW DATABASE PERFORMANCE STATE') return m.hasPermission(login, perm);
  // ALTER ANY DATABASE implies ALTER on each database; creating objects needs the database's own grants, not modelled.
  if (perm === 'ALTER') return m.hasPermission(login, 'ALTER ANY DATABASE');
  return false;
}

export function hasPermsByName(ctx: ExecContext, args: (string | null)[]): Typed {
  if (args.length < 3 || args.length > 5) fail(174, 'The has_perms_by_name function requires 3 to 5 argument(s).', 15);
  const [securable, cls, permission] = args;
  const perm = (permission ?? '').toUpperCase();
  const out = (v: boolean | null): Typed => ({ v: v === null ? null : v ? 1 : 0, type: T.int });
  if (permission === null || (SINCE_2022.has(perm) && ctx.model.version < 16)) return out(null);
  const c = (cls ?? 'SERVER').toUpperCase();
  if (c === 'SERVER') return out(ctx.model.hasPermission(ctx.session.login, perm as Permission));
  if (c === 'DATABASE') return out(securable === null ? null : onDatabase(ctx, securable, perm));
  throw new SqlError([unsupported(`HAS_PERMS_BY_NAME on class ${c}`)]);
}
