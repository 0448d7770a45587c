// Output paths, checked before anything connects and claimed for one experiment: an --out folder that is a file, sits
// under a file, cannot be written or already holds files (a second experiment would append its ticks to the first's
// samples.jsonl) is refused; a --notebook path must be a writable .ipynb file. A claimed folder that the command left
// unused (it failed before writing experiment.json) is removed again, with the parents it created.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UsageError } from './commands';
import { makeDirs, outputError } from '../engine/outFiles';

/** The claim: the first file of every experiment folder, created exclusively so two runs cannot share a folder. */
const CLAIM = 'samples.jsonl';

function stat(p: string): fs.Stats | null {
  try {
    return fs.statSync(p);
  } catch {
    return null;
  }
}

function writable(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The nearest folder (or file) on the way up from `p` that exists. */
function nearestExisting(p: string): { path: string; stats: fs.Stats } {
  let cur = path.resolve(p);
  for (;;) {
    const s = stat(cur);
    if (s) return { path: cur, stats: s };
    const up = path.dirname(cur);
    if (up === cur) throw new UsageError(`${p}: no part of this path exists.`);
    cur = up;
  }
}

/** A sibling of `dir` that does not exist yet, to suggest instead. */
export function freshSibling(dir: string): string {
  for (let n = 2; ; n++) if (!stat(`${dir}-${n}`)) return `${dir}-${n}`;
}

/** Why `dir` cannot take a new experiment's files, or [] when it can (it is missing, or an empty writable folder). */
export function outDirProblems(dir: string, flag = '--out'): string[] {
  if (dir.trim() === '')
    return [`${flag} is empty: name a folder for the results, or leave ${flag} out for a new one under spinlab-results/.`];
  const s = stat(dir);
  const entries = s?.isDirectory() ? fs.readdirSync(dir) : [];
  if (entries.length) {
    const shown = entries.slice(0, 5).join(', ') + (entries.length > 5 ? `, and ${entries.length - 5} more` : '');
    return [
      `${flag} ${dir} already holds files (${shown}): one experiment per folder, or its samples would mix with theirs. Name a new folder (e.g. ${freshSibling(dir)}), or leave ${flag} out.`,
    ];
  }
  return folderProblems(dir, flag);
}

/** Why `dir` cannot be a folder this user writes into (it may hold files already), or [] when it is or can be made. */
export function folderProblems(dir: string, flag: string): string[] {
  const s = stat(dir);
  if (s && !s.isDirectory()) return [`${flag} ${dir} is a file, not a folder: name a new folder (e.g. ${freshSibling(dir)}).`];
  if (s) return writable(dir) ? [] : [`${flag} ${dir} cannot be written by this user: name a folder you can write to.`];
  const near = nearestExisting(dir);
  if (!near.stats.isDirectory())
    return [`${flag} ${dir}: ${near.path} is a file, so no folder can be made under it; name a folder elsewhere.`];
  return writable(near.path)
    ? []
    : [`${flag} ${dir}: ${near.path} cannot be written by this user, so the folder cannot be made there; name a folder you can write to.`];
}

/** Why a notebook cannot be written at `file`, or [] when it can. Its folder must exist, unless the command makes it (--out). */
export function notebookPathProblems(file: string, flag = '--notebook', folderMadeLater = false): string[] {
  if (file.trim() === '') return [`${flag} is empty: name the notebook file, e.g. ${flag} results.ipynb.`];
  if (stat(file)?.isDirectory())
    return [`${flag} ${file} is a folder: name a file inside it, e.g. ${path.join(file, 'experiment.ipynb')}.`];
  if (!/\.ipynb$/i.test(file))
    return [`${flag} ${file}: a notebook file ends in .ipynb (e.g. ${file.replace(/(\.[A-Za-z0-9]*)?$/, '.ipynb')}).`];
  if (folderMadeLater) return [];
  const dir = path.dirname(path.resolve(file));
  const d = stat(dir);
  if (!d) return [`${flag} ${file}: the folder ${dir} does not exist; create it first or name a file in an existing folder.`];
  if (!d.isDirectory()) return [`${flag} ${file}: ${dir} is a file, not a folder.`];
  return writable(dir) ? [] : [`${flag} ${file}: the folder ${dir} cannot be written by this user.`];
}

export interface ClaimedOutput {
  dir: string;
  /** Removes the folder again (and the parents the claim made) when nothing but the empty claim is in it. */
  releaseIfUnused(): void;
}

function claimIn(dir: string): { created: string | undefined } | null {
  let created: string | undefined;
  try {
    created = makeDirs(dir);
  } catch (e) {
    throw outputError(e, dir); // a pseudo file system (/proc) refuses a folder: said as a files error
  }
  try {
    fs.closeSync(fs.openSync(path.join(dir, CLAIM), 'wx'));
    return { created };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw outputError(e, dir);
  }
}

function releaser(dir: string, created: string | undefined): () => void {
  return () => {
    try {
      const abs = path.resolve(dir);
      const entries = fs.readdirSync(abs);
      if (entries.length !== 1 || entries[0] !== CLAIM || fs.statSync(path.join(abs, CLAIM)).size > 0) return;
      fs.unlinkSync(path.join(abs, CLAIM));
      if (!created) return; // a folder that existed before stays, empty as it was
      const top = path.resolve(created);
      for (let cur = abs; ; cur = path.dirname(cur)) {
        if (fs.readdirSync(cur).length) return;
        fs.rmdirSync(cur);
        if (cur === top || cur === path.dirname(cur)) return;
      }
    } catch {
      // best effort: what remains is an empty folder
    }
  };
}

/**
 * Claims the output folder for one experiment: `out` when given (checked by outDirProblems first), else a new folder
 * under spinlab-results/ named by the time and `label`, numbered when another run took that name in the same moment.
 */
export function claimOutput(out: string | undefined, label: string, now = new Date()): ClaimedOutput {
  if (out !== undefined) {
    const problems = outDirProblems(out);
    if (problems.length) throw new UsageError(problems.join('\n'));
    const got = claimIn(out);
    if (!got) throw new UsageError(`--out ${out} was just taken by another run: name a new folder (e.g. ${freshSibling(out)}).`);
    return { dir: out, releaseIfUnused: releaser(out, got.created) };
  }
  const base = path.join('spinlab-results', `${now.toISOString().replace(/[:.]/g, '-')}-${label}`);
  for (let n = 1; n < 1000; n++) {
    const dir = n === 1 ? base : `${base}-${n}`;
    if (stat(dir)) continue;
    const got = claimIn(dir);
    if (got) return { dir, releaseIfUnused: releaser(dir, got.created) };
  }
  throw new UsageError(`Could not make a new folder under spinlab-results/: name one with --out.`);
}
