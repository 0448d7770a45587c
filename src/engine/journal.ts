// The restore journal: before any server-wide change, the original state is written here (and flushed to disk), so
// a crash, a kill or a lost connection can always be undone with `spinlab restore` or the panel's restore button.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { KnobState } from '../shared/experiment';
import { SpinlabError } from '../shared/spinlabError';
import { failureReason, makeDirs } from './outFiles';

export interface Journal {
  version: 1;
  /** Which server this belongs to: the address used and @@SERVERNAME. */
  serverKey: string;
  serverAddress: string;
  serverName: string;
  labDatabase: string;
  createdAt: string;
  pid: number;
  /** The state before Spinlock Lab changed anything. */
  original: KnobState;
  /** What was (or was about to be) changed. */
  changes: ('affinity' | 'delayedDurability')[];
  /** The experiment's output folder: if its process dies, the restore completes its record from samples.jsonl. */
  experimentDir?: string;
  /** Extended Events sessions Spinlock Lab created (stack captures), journaled before CREATE EVENT SESSION
   *  and dropped by the capture or, after a crash or kill, by the restore (only those whose process is gone). */
  eventSessions?: JournaledEventSession[];
}

export interface JournaledEventSession {
  name: string;
  pid: number;
  createdAt: string;
}

/** An earlier experiment's journal is still there: its changes must be restored before another run. */
export class UnrestoredJournalError extends SpinlabError {
  constructor(message: string, hint: string) {
    super('server', message, hint);
  }
}

export function defaultStateDir(): string {
  return process.env.SPINLAB_STATE_DIR || path.join(os.homedir(), '.spinlab');
}

export function serverKey(address: string, serverName: string): string {
  return `${address}|${serverName}`.toLowerCase();
}

function journalPath(stateDir: string, key: string): string {
  const safe = key.replace(/[^a-z0-9._-]+/gi, '_').slice(0, 150);
  return path.join(stateDir, 'journal', `${safe}.json`);
}

/**
 * Writes the journal durably: a temp file, fsync, rename, fsync of the folder. It is written before any change, so a
 * failure here means nothing was changed: the error says so and where to point SPINLAB_STATE_DIR.
 */
export function writeJournal(stateDir: string, j: Journal): string {
  const file = journalPath(stateDir, j.serverKey);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    makeDirs(path.dirname(file));
    const fd = fs.openSync(tmp, 'w', 0o600);
    try {
      fs.writeSync(fd, JSON.stringify(j, null, 2));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (err) {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      /* the failure below is the one to report */
    }
    throw new SpinlabError(
      'files',
      `Could not write the restore journal ${file}: ${failureReason(err)}. It is written before any setting changes, so nothing was changed.`,
      'set SPINLAB_STATE_DIR to a folder you can write to (the default is ~/.spinlab), or free some space.',
      err,
    );
  }
  try {
    const dfd = fs.openSync(path.dirname(file), 'r');
    fs.fsyncSync(dfd);
    fs.closeSync(dfd);
  } catch {
    /* some filesystems do not fsync folders */
  }
  return file;
}

export function readJournal(stateDir: string, key: string): Journal | null {
  const file = journalPath(stateDir, key);
  if (!fs.existsSync(file)) return null;
  const text = fs.readFileSync(file, 'utf8');
  try {
    const j = JSON.parse(text) as Journal;
    if (j.version !== 1 || !j.original) throw new Error('unknown format');
    return j;
  } catch (err) {
    throw new SpinlabError(
      'files',
      `The restore journal ${file} is unreadable (${(err as Error).message}).`,
      'restore the settings by hand from it, then delete it.',
      err,
    );
  }
}

export function deleteJournal(stateDir: string, key: string): void {
  fs.rmSync(journalPath(stateDir, key), { force: true });
}

export function listJournals(stateDir: string): Journal[] {
  const dir = path.join(stateDir, 'journal');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Journal);
}

/** The process that wrote the journal is gone (killed or crashed), not this one and not one still running. */
export function processGone(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
