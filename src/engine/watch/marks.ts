// Marks: `spinlab mark "index rebuilt"` appends a line to the running watch's DIR/marks.jsonl; the watch reads new lines
// once per tick and saves each mark at that tick's time. Without --dir, the mark goes to the watch named in the state
// directory's watch-active.json (written when a watch starts, removed when it ends).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { SpinlabError } from '../../shared/spinlabError';
import { makeDirs } from '../outFiles';

export const MARKS_FILE = 'marks.jsonl';
const ACTIVE_FILE = 'watch-active.json';

export class MarkError extends SpinlabError {
  constructor(message: string) {
    super('user-input', message);
  }
}

export interface MarkRequest {
  id: string;
  name: string;
  at: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function registerActiveWatch(stateDir: string, dir: string): () => void {
  makeDirs(stateDir);
  const file = path.join(stateDir, ACTIVE_FILE);
  fs.writeFileSync(file, JSON.stringify({ dir: path.resolve(dir), pid: process.pid }) + '\n');
  return () => {
    try {
      const cur = JSON.parse(fs.readFileSync(file, 'utf8')) as { pid?: number };
      if (cur.pid === process.pid) fs.rmSync(file, { force: true });
    } catch {
      /* already gone */
    }
  };
}

/** The folder of the running watch, from the state directory; a clear error when none runs. */
export function activeWatchDir(stateDir: string): string {
  const file = path.join(stateDir, ACTIVE_FILE);
  let cur: { dir?: string; pid?: number };
  try {
    cur = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    throw new MarkError(
      `No watch is running (nothing in ${file}). Start one with spinlab watch, or give the watch's folder with --dir DIR.`,
    );
  }
  if (!cur.dir || !cur.pid || !alive(cur.pid))
    throw new MarkError(`The watch recorded in ${file} is no longer running; give the watch's folder with --dir DIR.`);
  return cur.dir;
}

/** Appends a mark for the watch writing into `dir`. */
export function dropMark(dir: string, name: string, now = new Date()): MarkRequest {
  const text = name.trim();
  if (!text) throw new MarkError('A mark needs a name, e.g. spinlab mark "index rebuilt".');
  if (text.length > 200) throw new MarkError(`A mark's name is at most 200 characters (this one has ${text.length}).`);
  if (!fs.existsSync(path.join(dir, 'experiment.json'))) throw new MarkError(`${dir} holds no watch (no experiment.json).`);
  const m: MarkRequest = { id: `m-${now.getTime().toString(36)}-${randomBytes(3).toString('hex')}`, name: text, at: now.toISOString() };
  fs.appendFileSync(path.join(dir, MARKS_FILE), JSON.stringify(m) + '\n');
  return m;
}

/** Reads marks.jsonl from a byte offset on: the new marks and the offset to read from next time. */
export function readNewMarks(dir: string, offset: number): { marks: MarkRequest[]; offset: number } {
  const file = path.join(dir, MARKS_FILE);
  // Called every tick, and the file is usually not there: no exception built for that (a fleet asks 50 times a second).
  let size: number | undefined;
  try {
    size = fs.statSync(file, { throwIfNoEntry: false })?.size;
  } catch {
    return { marks: [], offset };
  }
  if (size === undefined || size <= offset) return { marks: [], offset };
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(size - offset);
    fs.readSync(fd, buf, 0, buf.length, offset);
    const text = buf.toString('utf8');
    const end = text.lastIndexOf('\n') + 1; // a line still being written waits for the next tick
    const marks: MarkRequest[] = [];
    for (const line of text.slice(0, end).split('\n')) {
      if (!line.trim()) continue;
      try {
        const m = JSON.parse(line) as MarkRequest;
        if (typeof m.name === 'string' && typeof m.id === 'string') marks.push({ id: m.id, name: m.name.slice(0, 200), at: String(m.at) });
      } catch {
        /* a damaged line is skipped, not fatal to the watch */
      }
    }
    return { marks, offset: offset + Buffer.byteLength(text.slice(0, end)) };
  } finally {
    fs.closeSync(fd);
  }
}
