// Reading a saved watch: its experiment.json (migrated and validated) and its ticks from samples.jsonl, streamed line by
// line so an 8-hour watch is never held whole; a reader keeps only the ticks it asks for.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import type { WatchMark, WatchRecord, WatchTick } from '../../shared/watch';
import { compareWindows, windowFigures, windowsAroundMark, type WindowComparison } from '../../shared/watchCompare';
import { migrateWatch, NotebookError } from '../migrate';

export function readWatchRecord(dirOrFile: string): { record: WatchRecord; dir: string } {
  const file = dirOrFile.endsWith('.json') ? dirOrFile : path.join(dirOrFile, 'experiment.json');
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new NotebookError(
      `${file}: cannot read a watch there (${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}).`,
    );
  }
  if (!raw || typeof raw !== 'object') throw new NotebookError(`${file}: not a Spinlock Lab record.`);
  return { record: migrateWatch(raw as Record<string, unknown>, file), dir: path.dirname(file) };
}

/** Calls `each` for every tick in samples.jsonl, in order; a torn last line (a crash mid-write) is skipped. */
export async function forEachTick(dir: string, record: WatchRecord, each: (t: WatchTick) => void): Promise<number> {
  const file = path.join(dir, record.samplesFile);
  if (!fs.existsSync(file)) throw new NotebookError(`${file}: the watch's samples are missing.`);
  const rl = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let n = 0;
  for await (const line of rl) {
    if (!line.trim()) continue;
    try {
      each(JSON.parse(line) as WatchTick);
      n++;
    } catch {
      /* torn line */
    }
  }
  return n;
}

export function findMark(record: WatchRecord, name: string): WatchMark {
  const exact = record.marks.filter((m) => m.id === name || m.name === name);
  const found = exact.length ? exact : record.marks.filter((m) => m.name.toLowerCase().includes(name.toLowerCase()));
  if (found.length === 0) {
    const list = record.marks.map((m) => `"${m.name}"`).join(', ');
    throw new NotebookError(
      `No mark named "${name}" in this watch${list ? ` (its marks: ${list})` : ' (it has no marks; drop one with spinlab mark "text" while it runs)'}.`,
    );
  }
  if (found.length > 1 && !exact.length)
    throw new NotebookError(
      `"${name}" matches ${found.length} marks (${found.map((m) => `"${m.name}"`).join(', ')}); give the whole name or its id.`,
    );
  return found[0];
}

/** The windows before and after a mark, compared. */
export async function compareAroundMark(
  dir: string,
  markName: string,
  maxMs: number | null,
): Promise<{ record: WatchRecord; mark: WatchMark; comparison: WindowComparison }> {
  const { record, dir: folder } = readWatchRecord(dir);
  const mark = findMark(record, markName);
  const sorted = [...record.marks].sort((a, b) => a.t - b.t);
  const i = sorted.findIndex((m) => m.id === mark.id);
  const lo = Math.max(i > 0 ? sorted[i - 1].t : -Infinity, maxMs === null ? -Infinity : mark.t - maxMs);
  const hi = Math.min(i + 1 < sorted.length ? sorted[i + 1].t : Infinity, maxMs === null ? Infinity : mark.t + maxMs);
  const kept: WatchTick[] = [];
  await forEachTick(folder, record, (t) => {
    if (t.t >= lo && t.t <= hi) kept.push(t);
  });
  const [before, after] = windowsAroundMark(kept, record.marks, mark, maxMs);
  if (before.length === 0 || after.length === 0) {
    throw new NotebookError(
      `The mark "${mark.name}" has no ticks ${before.length === 0 ? 'before' : 'after'} it to compare with (it fell at ${(mark.t / 1000).toFixed(1)} s).`,
    );
  }
  const comparison = compareWindows(windowFigures('before the mark', before), windowFigures('after the mark', after));
  return { record, mark, comparison };
}
