// Spinlock Lab's event sessions are server-wide changes like the knobs: journaled (src/engine/journal.ts, the same
// journal file) before CREATE EVENT SESSION, dropped afterwards on success, failure or cancel, and after a crash or a
// kill by `spinlab restore` / the panel's Restore. Only sessions named SpinlockLab_... are ever created or dropped.
import type { DbSession } from '../../db/client';
import { num } from '../../db/rows';
import { deleteJournal, readJournal, writeJournal, type Journal } from '../journal';

export const SESSION_PREFIX = 'SpinlockLab_';

export interface SessionJournalContext {
  stateDir: string;
  serverKey: string;
  serverAddress: string;
  serverName: string;
}

/** A fresh session name: the prefix, the purpose, the time and this process, so two captures never collide. */
export function newSessionName(purpose: string, now = new Date(), pid = process.pid): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${SESSION_PREFIX}${purpose.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 40)}_${stamp}_${pid}`;
}

export function isOurs(name: string): boolean {
  return name.startsWith(SESSION_PREFIX);
}

/** Adds the session to this server's journal (creating one that changes no knob) and flushes it, before the CREATE. */
export function journalSession(ctx: SessionJournalContext, name: string): void {
  const j: Journal = readJournal(ctx.stateDir, ctx.serverKey) ?? {
    version: 1,
    serverKey: ctx.serverKey,
    serverAddress: ctx.serverAddress,
    serverName: ctx.serverName,
    labDatabase: '',
    createdAt: new Date().toISOString(),
    pid: process.pid,
    // No knob is changed: `changes` is empty, so the original state is never applied (kept only for the format).
    original: { delayedDurability: null, affinity: { type: 'AUTO', cpus: [] } },
    changes: [],
  };
  j.eventSessions = [
    ...(j.eventSessions ?? []).filter((s) => s.name !== name),
    { name, pid: process.pid, createdAt: new Date().toISOString() },
  ];
  writeJournal(ctx.stateDir, j);
}

/** Removes the session from the journal once it is dropped; a journal left with nothing to restore is deleted. */
export function releaseSession(ctx: SessionJournalContext, name: string): void {
  const j = readJournal(ctx.stateDir, ctx.serverKey);
  if (!j) return;
  j.eventSessions = (j.eventSessions ?? []).filter((s) => s.name !== name);
  if (!j.changes.length && !j.eventSessions.length) deleteJournal(ctx.stateDir, ctx.serverKey);
  else writeJournal(ctx.stateDir, j);
}

/**
 * Drops one of our sessions if it exists (sql/xe/drop-session.sql): true when it is gone afterwards, false when it is
 * still there, null when the drop was sent but this login cannot see sys.server_event_sessions to confirm it.
 */
export async function dropSession(db: DbSession, name: string): Promise<boolean | null> {
  if (!isOurs(name)) throw new Error(`refusing to drop event session ${name}: not a Spinlock Lab session`);
  const sets = await db.runFile('xe/drop-session', { session: name });
  const last = sets[sets.length - 1]?.[0];
  if (!last) return true;
  return last.remaining === null ? null : num(last.remaining) === 0;
}

/** Said when a drop could not be confirmed: what the login lacks to see the catalogue. */
export const UNCONFIRMED_DROP =
  'this login cannot see sys.server_event_sessions to confirm it is gone (VIEW SERVER STATE; 2022+: VIEW SERVER PERFORMANCE STATE)';

/** True when the journal holds nothing but event sessions whose processes still run (captures in progress). */
export function onlyLiveSessions(j: Journal, gone: (pid: number) => boolean): boolean {
  return !j.changes.length && (j.eventSessions ?? []).every((s) => !gone(s.pid));
}
