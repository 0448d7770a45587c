// Writing a result's files: a failure (a full disk, a folder that became read-only) says which file and what to do,
// instead of a bare ENOSPC, and a record is replaced whole (temporary file, then rename) so a crash or a full disk
// mid-write never leaves half of one where the last good copy was.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SpinlabError } from '../shared/spinlabError';

const REASONS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'no permission to write there',
  EPERM: 'no permission to write there',
  ENOENT: 'its folder does not exist (any more)',
  ENOTDIR: 'a part of its path is a file, not a folder',
  EISDIR: 'it is a folder',
};

/** What to do when a notebook cannot be written (an experiment's or a watch's). */
export const NOTEBOOK_WRITE_HINT = 'give a notebook path (.ipynb) in a folder you can write to, or free some space.';

/**
 * `mkdir -p` that always ends. Node's recursive mkdirSync retries for ever when mkdir answers ENOENT for a folder
 * whose parent exists (a pseudo file system such as /proc), so each missing level is made in turn and the first
 * failure thrown. Returns the first folder it made (undefined when all existed), as the recursive mkdirSync does.
 */
export function makeDirs(dir: string): string | undefined {
  const target = path.resolve(dir);
  const missing: string[] = [];
  for (let p = target; !fs.existsSync(p); p = path.dirname(p)) {
    missing.unshift(p);
    if (path.dirname(p) === p) break;
  }
  // Everything there already: still an error (EEXIST) when it is a file, as mkdir -p says.
  if (!missing.length && !fs.statSync(target).isDirectory()) fs.mkdirSync(target);
  for (const m of missing) {
    try {
      fs.mkdirSync(m);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !fs.statSync(m).isDirectory()) throw e;
    }
  }
  return missing[0];
}

/** Why a file-system call failed, in words (for an error of ours, why the call it explains failed). */
export function failureReason(failure: unknown): string {
  let err = failure;
  while (err instanceof SpinlabError && err.original) err = err.original;
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  return `${REASONS[code] ?? (err as Error)?.message ?? String(err)}${code ? ` (${code})` : ''}`;
}

/** A file-system failure as a message naming the file, the reason in words and what to do. */
export function outputError(err: unknown, file: string, hint?: string): SpinlabError {
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  return new SpinlabError(
    'files',
    `Could not write ${file}: ${failureReason(err)}.`,
    hint ??
      (code === 'ENOSPC' || code === 'EDQUOT'
        ? 'free some space, or give another folder with --out.'
        : 'give a folder you can write to with --out.'),
    err,
  );
}

/** Replaces `file` with `text` whole; on failure nothing is left beside it and the old copy stays. */
export function writeWhole(file: string, text: string, hint?: string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
  } catch (err) {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      /* the failure below is the one to report */
    }
    throw outputError(err, file, hint);
  }
}

/** Appends one line to `file`. */
export function appendLine(file: string, line: string): void {
  try {
    fs.appendFileSync(file, line + '\n');
  } catch (err) {
    throw outputError(err, file);
  }
}
