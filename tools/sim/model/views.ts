// The system views the simulator serves (the DMVs and catalog views, each a typed table), found by name and checked
// for the permission SQL Server asks of their readers.
import { CATALOG_VIEWS } from './dmvCatalog';
import { IO_VIEWS } from './dmvDb';
import { OS_VIEWS } from './dmvOs';
import { SESSION_VIEWS } from './dmvSessions';
import { REQUEST_VIEWS } from './dmvRequests';
import { XE_VIEWS } from './dmvXe';
import { LOCK_VIEWS } from './dmvLocks';
import { HOST_VIEWS } from './dmvHost';
import { databaseStateDenied, serverStateDenied, SqlError } from './errors';
import type { Permission } from './instance';
import type { QueryContext, SystemView } from './types';
import { conformToCatalog } from '../catalog';

// Each view serves the columns Microsoft's docs give it at the simulator's version (tools/sim/catalog/columns.json).
export const VIEWS = new Map<string, SystemView>(
  [...OS_VIEWS, ...IO_VIEWS, ...CATALOG_VIEWS, ...XE_VIEWS, ...SESSION_VIEWS, ...REQUEST_VIEWS, ...LOCK_VIEWS, ...HOST_VIEWS].map((v) => [
    v.name,
    conformToCatalog(v),
  ]),
);

export function findView(name: string): SystemView | undefined {
  const n = name
    .toLowerCase()
    .replace(/^master\./, '')
    .replace(/^\w+\.sys\./, 'sys.');
  return VIEWS.get(n.startsWith('sys.') ? n : `sys.${n}`);
}

/** A system view as this server has it: none where the catalogue gives it no columns at its version or platform. */
export function systemView(ctx: QueryContext, name: string): SystemView | undefined {
  const v = findView(name);
  return v && v.columns(ctx).length > 0 ? v : undefined;
}

/** Checks the caller may read the view; throws the Msg 300/297 pair otherwise. */
export function checkViewPermission(ctx: QueryContext, v: SystemView): void {
  if (v.scope === 'server' && !ctx.model.canViewServerState(ctx.session.login)) throw new SqlError(serverStateDenied(ctx.model));
  if (v.scope === 'database') {
    const perm: Permission = ctx.model.version >= 16 ? 'VIEW DATABASE PERFORMANCE STATE' : 'VIEW DATABASE STATE';
    if (!ctx.model.hasPermission(ctx.session.login, perm)) throw new SqlError(databaseStateDenied(ctx.model, ctx.session.database));
  }
}
