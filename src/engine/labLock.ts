// One experiment per lab database and per server-wide knob, enforced by the server: application locks
// (sp_getapplock, owned by the session) that an experiment holds on its own connection for its whole life, so they go
// when its process is killed or its connection is lost. drop-lab, cleanup, deploy and restore take the same locks for
// the length of the command. The refused party reads who holds a lock from sys.dm_tran_locks and sys.dm_exec_sessions
// (host, client process id, since when): nothing is written anywhere that could outlive the holder.
import { createHash } from 'node:crypto';
import type { DbSession } from '../db/client';
import { num, str } from '../db/rows';
import { numbers, SpinlabError } from './errors';
import type { Journal } from './journal';

export type LockMode = 'Shared' | 'Exclusive';

/** The server-wide affinity knob: Exclusive for an experiment that changes it, Shared for one that runs under it. */
export const AFFINITY_LOCK = 'spinlab:server:affinity';

/**
 * The lab database's lock. Database names can pass the 32 characters sys.dm_tran_locks shows of a resource, so the
 * name is hashed (case-folded: on a case-insensitive server SpinlockLab and spinlocklab are one database).
 */
export function labLockResource(db: string): string {
  return `spinlab:lab:${createHash('sha1').update(db.toLowerCase(), 'utf8').digest('hex').slice(0, 16)}`;
}

export interface LockHolder {
  sessionId: number;
  mode: string;
  host: string;
  pid: number | null;
  program: string;
  login: string;
  since: string | null;
}

/** "process 4242 on host lab-01 (session 57, login sa, Spinlock Lab, since 2026-11-25T00:01:02.000Z)" */
export function describeHolder(h: LockHolder | null): string {
  if (!h) return 'another session (this login cannot see which: it lacks VIEW SERVER STATE)';
  const who = h.pid !== null && h.pid > 0 ? `process ${h.pid} on host ${h.host || '?'}` : `a session from host ${h.host || '?'}`;
  return `${who} (session ${h.sessionId}, login ${h.login || '?'}${h.program ? `, ${h.program}` : ''}${h.since ? `, since ${h.since}` : ''})`;
}

/** The sessions other than this one holding `resource`, exclusive holders first. */
export async function lockHolders(session: DbSession, resource: string): Promise<LockHolder[]> {
  const [rows = []] = await session.runFile('lab/lock-holder', { resource });
  return rows.map((r) => ({
    sessionId: num(r.session_id),
    mode: str(r.request_mode),
    host: str(r.host_name).trim(),
    pid: r.host_process_id === null || r.host_process_id === undefined ? null : num(r.host_process_id),
    program: str(r.program_name).trim(),
    login: str(r.login_name),
    since: r.login_time instanceof Date ? r.login_time.toISOString() : r.login_time ? String(r.login_time) : null,
  }));
}

/** Takes `resource` for this session without waiting; on refusal, the holder as far as this login can see it. */
export async function takeLock(
  session: DbSession,
  resource: string,
  mode: LockMode,
): Promise<{ ok: true } | { ok: false; holder: LockHolder | null }> {
  let result: number;
  try {
    const [[row] = []] = await session.runFile('lab/lock-take', { resource, mode });
    result = num(row?.result);
  } catch (err) {
    if (!numbers(err).includes(1222)) throw err; // a lock timeout raised as an error instead of returned
    result = -1;
  }
  if (result >= 0) return { ok: true };
  if (result !== -1) throw new SpinlabError('server', `sp_getapplock refused the lock ${resource} (${mode}) with ${result}.`);
  const holders = await lockHolders(session, resource).catch(() => []);
  return { ok: false, holder: holders[0] ?? null };
}

export async function releaseLock(session: DbSession, resource: string): Promise<void> {
  await session.runFile('lab/lock-release', { resource });
}

/** Whether this session still holds `resource` (false after its connection was lost and replaced). */
export async function holdsLock(session: DbSession, resource: string): Promise<boolean> {
  const [[row] = []] = await session.runFile('lab/lock-mode', { resource });
  return str(row?.lock_mode) !== '' && str(row?.lock_mode) !== 'NoLock';
}

export interface LockRequest {
  resource: string;
  mode: LockMode;
  /** What the lock protects, for the refusal: "the lab database [SpinlockLab]". */
  what: string;
}

/** The locks of an experiment on `labDatabase` (null: a custom workload that changes nothing there). */
export function experimentLocks(labDatabase: string | null, changesAffinity: boolean): LockRequest[] {
  return [
    ...(labDatabase !== null
      ? [{ resource: labLockResource(labDatabase), mode: 'Exclusive' as const, what: `the lab database [${labDatabase}]` }]
      : []),
    { resource: AFFINITY_LOCK, mode: changesAffinity ? 'Exclusive' : 'Shared', what: "the server's process affinity" },
  ];
}

/**
 * Takes every lock in `locks`, or none: on a refusal the ones already taken are released and a SpinlabError names
 * the holder. `doing` says what was refused ("A second experiment", "drop-lab").
 */
export async function takeLocks(session: DbSession, locks: LockRequest[], doing: string): Promise<void> {
  const taken: string[] = [];
  for (const l of locks) {
    const r = await takeLock(session, l.resource, l.mode);
    if (r.ok) {
      taken.push(l.resource);
      continue;
    }
    for (const t of taken.reverse()) await releaseLock(session, t).catch(() => undefined);
    throw new SpinlabError(
      'server',
      `${doing} is refused: another experiment is running now and holds ${l.what}: ${describeHolder(r.holder)}.`,
      'wait for it to finish (it puts back what it changed), or stop it (Ctrl+C in its terminal, Stop in its panel). A killed process or a lost connection releases the lock by itself.',
    );
  }
}

export async function releaseLocks(session: DbSession, locks: LockRequest[]): Promise<void> {
  for (const l of [...locks].reverse()) await releaseLock(session, l.resource).catch(() => undefined);
}

/** Runs `fn` holding the lab database's lock (drop-lab, cleanup, deploy); inside an experiment's session it is re-entrant. */
export async function withLabLock<T>(session: DbSession, db: string, doing: string, fn: () => Promise<T>): Promise<T> {
  const locks: LockRequest[] = [{ resource: labLockResource(db), mode: 'Exclusive', what: `the lab database [${db}]` }];
  await takeLocks(session, locks, doing);
  try {
    return await fn();
  } finally {
    await releaseLocks(session, locks);
  }
}

/**
 * The live experiment that owns a restore journal: a session other than `session` holding the journal's lab lock, or
 * the affinity lock exclusively when the journal changed affinity. Null when its owner is gone (its locks went with it).
 */
export async function journalOwner(session: DbSession, j: Journal): Promise<LockHolder | null> {
  if (!j.changes.length) return null;
  const lab = (await lockHolders(session, labLockResource(j.labDatabase)))[0];
  if (lab) return lab;
  if (!j.changes.includes('affinity')) return null;
  return (await lockHolders(session, AFFINITY_LOCK)).find((h) => h.mode === 'X') ?? null;
}
