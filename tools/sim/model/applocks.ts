// Application locks (sp_getapplock, sp_releaseapplock, APPLOCK_MODE) as SQL Server keeps them: a resource is the
// current database, the database principal and the name (binary compared, cut to 255 characters); each owner holds it
// in one mode with a count (a second request by the same owner is granted and counted, its mode the union of both);
// an incompatible request waits up to @LockTimeout (0: returns -1 at once; -1: forever) and a cancelled wait returns -2.
// Session-owned locks go when the session ends (logout, a dropped connection, KILL). Transaction-owned locks are
// refused outside a transaction (15626) and, inside one, not modelled (the simulator says so).
// Return codes and messages: "sp_getapplock (Transact-SQL)", "sp_releaseapplock (Transact-SQL)"; sys.messages 1223,
// 1224, 1225, 15625, 15626.
import { createHash } from 'node:crypto';
import type { SessionContext, ServerMessage } from '../tds/contract';
import { sessionState } from './sessionState';
import { err, unsupported } from './errors';
import type { SimModel } from './instance';

export type AppLockMode =
  'Shared' | 'Update' | 'IntentShared' | 'IntentExclusive' | 'Exclusive' | 'SharedIntentExclusive' | 'UpdateIntentExclusive';
const REQUESTABLE: AppLockMode[] = ['Shared', 'Update', 'IntentShared', 'IntentExclusive', 'Exclusive'];
/** sys.dm_tran_locks.request_mode */
export const SHORT: Record<AppLockMode, string> = {
  Shared: 'S',
  Update: 'U',
  IntentShared: 'IS',
  IntentExclusive: 'IX',
  Exclusive: 'X',
  SharedIntentExclusive: 'SIX',
  UpdateIntentExclusive: 'UIX',
};

/** The lock compatibility matrix ("SQL Server Transaction Locking and Row Versioning Guide"). */
const COMPATIBLE: Record<string, string[]> = {
  IS: ['IS', 'S', 'U', 'IX', 'SIX'],
  S: ['IS', 'S', 'U'],
  U: ['IS', 'S'],
  IX: ['IS', 'IX'],
  SIX: ['IS'],
  UIX: ['IS'],
  X: [],
};
function compatible(a: AppLockMode, b: AppLockMode): boolean {
  return COMPATIBLE[SHORT[a]].includes(SHORT[b]);
}
/** The mode held after asking for `b` while holding `a`: the union, as the docs describe (Shared + Exclusive = Exclusive). */
function union(a: AppLockMode, b: AppLockMode): AppLockMode {
  const has = new Set([SHORT[a], SHORT[b]]);
  if (has.has('X')) return 'Exclusive';
  if ((has.has('S') && has.has('IX')) || has.has('SIX')) return has.has('U') ? 'UpdateIntentExclusive' : 'SharedIntentExclusive';
  if ((has.has('U') && has.has('IX')) || has.has('UIX')) return 'UpdateIntentExclusive';
  const order: AppLockMode[] = ['IntentShared', 'Shared', 'IntentExclusive', 'Update'];
  return order[Math.max(order.indexOf(a), order.indexOf(b))];
}

export interface AppLockHold {
  session: SessionContext;
  mode: AppLockMode;
  count: number;
  since: Date;
}
export interface AppLockResource {
  databaseId: number;
  principal: string;
  name: string;
  /** By session object, not session id: a session id is reused once its session is gone. */
  holds: Map<SessionContext, AppLockHold>;
  /** Requests waiting for the resource now (sys.dm_tran_locks request_status WAIT). */
  waits?: Map<SessionContext, { session: SessionContext; mode: AppLockMode }>;
}

const registry = new WeakMap<SimModel, Map<string, AppLockResource>>();
function resources(model: SimModel): Map<string, AppLockResource> {
  let r = registry.get(model);
  if (!r) registry.set(model, (r = new Map()));
  return r;
}
const keyOf = (dbId: number, principal: string, name: string) => `${dbId}\u0000${principal.toLowerCase()}\u0000${name}`;

/** Every application lock resource held now (sys.dm_tran_locks rows of resource_type APPLICATION). */
export function appLocks(model: SimModel): AppLockResource[] {
  return [...resources(model).values()];
}

/** resource_description: "<DbPrincipalId>:[<up to 32 characters>]:(<hash>)"; public is principal 0. */
export function describeResource(r: AppLockResource): string {
  const hash = createHash('md5').update(r.name, 'utf16le').digest('hex').slice(0, 8);
  return `${r.principal.toLowerCase() === 'public' ? 0 : 1}:[${r.name.slice(0, 32)}]:(${hash})`;
}

export interface AppLockArgs {
  resource: string | null;
  mode: string | null;
  owner: string | null;
  timeoutMs: number | null;
  principal: string | null;
}

export interface AppLockOutcome {
  result: number;
  messages: ServerMessage[];
}

function databaseIdOf(model: SimModel, session: SessionContext): number {
  return model.database(session.database)?.id ?? 1;
}

function validOwner(owner: string | null, proc: string): { owner: 'Session' | 'Transaction' } | AppLockOutcome {
  const o = owner ?? 'Transaction';
  if (/^session$/i.test(o)) return { owner: 'Session' };
  if (/^transaction$/i.test(o)) return { owner: 'Transaction' };
  return { result: -999, messages: [err(15625, `Option '${o}' not recognized for '@LockOwner' parameter.`, 10, 1, proc)] };
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

export async function getAppLock(model: SimModel, session: SessionContext, a: AppLockArgs, signal: AbortSignal): Promise<AppLockOutcome> {
  const proc = 'sp_getapplock';
  if (a.resource === null)
    return { result: -999, messages: [err(1224, 'An invalid application lock resource was passed to sp_getapplock.', 16, 1, proc)] };
  const mode = REQUESTABLE.find((m) => m.toLowerCase() === (a.mode ?? '').toLowerCase());
  if (!mode) return { result: -999, messages: [err(1225, 'An invalid application lock mode was passed to sp_getapplock.', 16, 1, proc)] };
  const owner = validOwner(a.owner, proc);
  if ('result' in owner) return owner;
  if (owner.owner === 'Transaction') {
    if (sessionState(session).tranCount === 0) {
      return {
        result: -999,
        messages: [err(15626, 'You attempted to acquire a transactional application lock without an active transaction.', 10, 1, proc)],
      };
    }
    return { result: -999, messages: [unsupported('sp_getapplock with @LockOwner = Transaction')] };
  }
  const principal = a.principal ?? 'public';
  const name = a.resource.slice(0, 255);
  const dbId = databaseIdOf(model, session);
  const key = keyOf(dbId, principal, name);
  const timeout = a.timeoutMs ?? -1;
  const started = Date.now();
  let waited = false;
  for (;;) {
    const res: AppLockResource = resources(model).get(key) ?? { databaseId: dbId, principal, name, holds: new Map() };
    const mine = res.holds.get(session);
    const wanted = mine ? union(mine.mode, mode) : mode;
    const blocked = [...res.holds.values()].some((h) => h.session !== session && !compatible(h.mode, wanted));
    if (!blocked) {
      res.holds.set(session, { session, mode: wanted, count: (mine?.count ?? 0) + 1, since: mine?.since ?? new Date() });
      resources(model).set(key, res);
      return { result: waited ? 1 : 0, messages: [] };
    }
    if (signal.aborted) return { result: -2, messages: [] };
    if (timeout >= 0 && Date.now() - started >= timeout) return { result: -1, messages: [] };
    waited = true;
    (res.waits ??= new Map()).set(session, { session, mode: wanted });
    try {
      await sleep(timeout >= 0 ? Math.min(25, timeout) : 25, signal);
    } finally {
      res.waits.delete(session);
    }
  }
}

export function releaseAppLock(model: SimModel, session: SessionContext, a: Omit<AppLockArgs, 'mode' | 'timeoutMs'>): AppLockOutcome {
  const proc = 'sp_releaseapplock';
  if (a.resource === null)
    return { result: -999, messages: [err(1224, 'An invalid application lock resource was passed to sp_releaseapplock.', 16, 1, proc)] };
  const owner = validOwner(a.owner, proc);
  if ('result' in owner) return owner;
  const principal = a.principal ?? 'public';
  const name = a.resource.slice(0, 255);
  const key = keyOf(databaseIdOf(model, session), principal, name);
  const res = resources(model).get(key);
  const mine = owner.owner === 'Session' ? res?.holds.get(session) : undefined;
  if (!res || !mine) {
    return {
      result: -999,
      messages: [
        err(
          1223,
          `Cannot release the application lock (Database Principal: '${principal}', Resource: '${name}') because it is not currently held.`,
          16,
          1,
          'xp_userlock',
        ),
      ],
    };
  }
  if (--mine.count === 0) res.holds.delete(session);
  if (res.holds.size === 0) resources(model).delete(key);
  return { result: 0, messages: [] };
}

/** APPLOCK_MODE(principal, resource, owner): the mode this session holds, or NoLock. */
export function appLockMode(model: SimModel, session: SessionContext, principal: string, name: string, owner: string): string {
  if (!/^session$/i.test(owner)) return 'NoLock';
  const res = resources(model).get(keyOf(databaseIdOf(model, session), principal, name.slice(0, 255)));
  return res?.holds.get(session)?.mode ?? 'NoLock';
}

/** The session ended (logout, lost connection, KILL): its session-owned locks go with it. */
export function endSessionLocks(model: SimModel, session: SessionContext): void {
  for (const [key, res] of resources(model)) {
    res.holds.delete(session);
    if (res.holds.size === 0) resources(model).delete(key);
  }
}
