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
  /** The machine the experiment ran on (absent in journals written before it was kept). */
  host?: string;
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

export function journalPath(stateDir: string, key: string): string {
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

/**
 * The restore journal cannot be read (cut short, edited, not JSON): what it recorded cannot be put back by Spinlock Lab,
 * so the settings it covered are checked by hand. `spinlab check` shows them as they are now, with the statements.
 */
export class UnreadableJournalError extends SpinlabError {
  constructor(
    readonly file: string,
    readonly reason: string,
    original?: unknown,
  ) {
    super(
      'files',
      `The restore journal ${file} cannot be read (${reason}). It records settings an earlier experiment changed on this server, so Spinlock Lab cannot put them back itself.`,
      `check process affinity and delayed durability on the lab database by hand (\`spinlab check\` shows both as they are now, with the statements that set them back), set back what is left changed, then delete ${file}.`,
      original,
    );
  }
}

/** The journal's text as JSON, or why not (one line). */
function parseJournal(text: string): Journal {
  const j = JSON.parse(text) as Journal;
  if (!j || j.version !== 1 || !j.original || !Array.isArray(j.changes)) throw new Error('not a restore journal of a known format');
  return j;
}

export function readJournal(stateDir: string, key: string): Journal | null {
  const file = journalPath(stateDir, key);
  if (!fs.existsSync(file)) return null;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
    return parseJournal(text);
  } catch (err) {
    throw new UnreadableJournalError(file, ((err as Error).message || String(err)).replace(/\s+/g, ' ').trim(), err);
  }
}

export function deleteJournal(stateDir: string, key: string): void {
  fs.rmSync(journalPath(stateDir, key), { force: true });
}

/** Every journal that can be read; an unreadable one is left out here (its server's check and run name it). */
export function listJournals(stateDir: string): Journal[] {
  const dir = path.join(stateDir, 'journal');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => {
      try {
        return [parseJournal(fs.readFileSync(path.join(dir, f), 'utf8'))];
      } catch {
        return [];
      }
    });
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
