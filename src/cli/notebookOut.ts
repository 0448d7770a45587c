// Where a command's notebook goes, and what becomes of one already there: refused unless --add-to (this experiment is
// added to it, as `spinlab rerun` adds its runs) or --force (replaced). Checked before anything connects; at the end,
// a notebook that appeared meanwhile is not replaced either: the new one is saved beside it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Experiment } from '../shared/experiment';
import { writeNotebookFile } from '../engine/notebook/export';
import { appendToNotebook } from '../engine/notebook/rerun';
import { readNotebookFile } from '../engine/notebook/read';
import { writeWatchNotebookFile } from '../engine/watch/notebook';
import { notebookPathProblems } from './output';

/** The flags: --notebook FILE, --add-to [FILE] (alone: the --notebook), --force. */
export interface NotebookFlags {
  notebook?: string;
  addTo?: string | boolean;
  force?: boolean;
}

export interface NotebookChoice {
  file: string;
  /** new: refuse one that exists; replace: --force; add: --add-to (made when missing). */
  mode: 'new' | 'replace' | 'add';
}

/** The notebook the flags name, and how (null: none asked for). Checked by notebookProblems first. */
export function notebookChoice(o: NotebookFlags): NotebookChoice | null {
  const file = typeof o.addTo === 'string' ? o.addTo : o.notebook;
  if (file === undefined) return null;
  return { file, mode: o.addTo !== undefined && o.addTo !== false ? 'add' : o.force ? 'replace' : 'new' };
}

/** `base.ipynb` -> `base-2.ipynb`, the first such name that is free. */
export function freshFile(file: string): string {
  const ext = path.extname(file);
  const stem = file.slice(0, file.length - ext.length);
  for (let n = 2; ; n++) if (!fs.existsSync(`${stem}-${n}${ext}`)) return `${stem}-${n}${ext}`;
}

/** What an existing notebook holds, in a few words, so the refusal says what replacing it would lose. */
function whatItHolds(file: string): string {
  try {
    const meta = (JSON.parse(fs.readFileSync(file, 'utf8')) as { metadata?: Record<string, unknown> }).metadata ?? {};
    const n = (meta.spinlab as { experiments?: unknown[] } | undefined)?.experiments?.length;
    if (n) return `a Spinlock Lab notebook of ${n} experiment${n === 1 ? '' : 's'}`;
    if (meta.spinlab_watch) return "a watch's notebook";
    return 'a notebook Spinlock Lab did not save';
  } catch {
    return 'not a notebook Spinlock Lab can read';
  }
}

/**
 * Why the notebook flags cannot be followed, or []. `what`: what the command saves ("experiment", "tune", "watch");
 * `canAdd`: false for a watch (its notebook holds one watch). `folderMadeLater`: the notebook is inside --out.
 */
export function notebookProblems(o: NotebookFlags, what: string, canAdd = true, folderMadeLater = false): string[] {
  const adding = o.addTo !== undefined && o.addTo !== false;
  if (adding && !canAdd)
    return [`--add-to: a ${what}'s notebook holds one ${what}; name a new file with --notebook, or replace one with --force.`];
  if (typeof o.addTo === 'string' && o.notebook !== undefined && o.addTo !== o.notebook)
    return [`--add-to ${o.addTo} and --notebook ${o.notebook} name two notebooks: give one (--add-to FILE, or --notebook FILE --add-to).`];
  if (adding && o.force) return ['--add-to adds to the notebook and --force replaces it: give one of them.'];
  const choice = notebookChoice(o);
  if (!choice) {
    if (adding) return [`--add-to adds this ${what} to a notebook: name it, --add-to FILE.ipynb (or --notebook FILE --add-to).`];
    return o.force ? [`--force replaces an existing --notebook: give --notebook FILE, or leave --force out.`] : [];
  }
  const flag = typeof o.addTo === 'string' ? '--add-to' : '--notebook';
  const problems = notebookPathProblems(choice.file, flag, folderMadeLater);
  // `stacks --add-to DIR` takes an experiment's folder: the same words here take a notebook.
  const experimentFolder =
    path.basename(choice.file) === 'experiment.json' || fs.statSync(choice.file, { throwIfNoEntry: false })?.isDirectory();
  if (problems.length && flag === '--add-to' && experimentFolder)
    return [
      `--add-to ${choice.file}: here --add-to takes the notebook (.ipynb) to add this ${what} to; an experiment's folder is what spinlab stacks --add-to takes.`,
    ];
  if (problems.length || !fs.existsSync(choice.file)) return problems;
  if (choice.mode === 'replace') return [];
  if (choice.mode === 'add') {
    const holds = whatItHolds(choice.file);
    const instead = 'name a new file, or replace it with --force.';
    if (!holds.startsWith('a Spinlock Lab notebook'))
      return [`${flag} ${choice.file} is ${holds}: only a notebook of Spinlock Lab experiments takes another; ${instead}`];
    try {
      readNotebookFile(choice.file);
      return [];
    } catch (e) {
      return [`${flag} ${choice.file}: ${(e as Error).message} It cannot take another experiment: ${instead}`];
    }
  }
  return [
    `--notebook ${choice.file} already exists (${whatItHolds(choice.file)}): ${canAdd ? `add this ${what} to it with --add-to, ` : ''}replace it with --force, or name a new file (e.g. ${freshFile(choice.file)}).`,
  ];
}

/** Where a notebook asked for as new goes: beside one that appeared since the check, which is not replaced. */
function newFile(c: NotebookChoice): { file: string; note: string } {
  if (c.mode !== 'new' || !fs.existsSync(c.file)) return { file: c.file, note: '' };
  return { file: freshFile(c.file), note: ` (${c.file} appeared while this ran; it is not replaced)` };
}

/** A watch's notebook, written as the choice says (never 'add'); returns the line to print. */
export async function writeWatchNotebookChoice(dir: string, c: NotebookChoice): Promise<string> {
  const { file, note } = newFile(c);
  return `Saved ${await writeWatchNotebookFile(dir, file)}${note}`;
}

/** Writes `e` as the choice says; returns the line to print. A notebook that appeared since the check is not replaced. */
export function writeNotebookChoice(c: NotebookChoice, e: Experiment): string {
  if (c.mode === 'add' && fs.existsSync(c.file)) return `Added to ${c.file} (${appendToNotebook(c.file, e).length} experiments)`;
  const { file, note } = newFile(c);
  return `Saved ${writeNotebookFile(file, [e])}${note}`;
}
