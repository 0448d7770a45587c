// Reading a Spinlock Lab notebook back: the records in metadata.spinlab, migrated to the current version and checked
// against the experiment schema. A file that is not JSON, not nbformat 4, not ours, from a newer Spinlock Lab, or
// tampered with gets a NotebookError that says which of these it is. Cells are never read for anything to run: a
// re-run uses only the validated records.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { migrateExperiment, NotebookError } from '../migrate';
import { NOTEBOOK_RECORD_VERSION, type SpinlabNotebookRecord } from './write';
import type { Notebook } from './nbformat';

// Experiment records are upgraded and checked in engine/migrate.ts (shared with experiment.json readers).
export { migrateExperiment, NotebookError };

/** Upgrades from an older record version, one step each: key n turns version n into n + 1. */
const RECORD_MIGRATIONS: Record<number, (r: Record<string, unknown>) => Record<string, unknown>> = {};

export interface ReadNotebook {
  notebook: Notebook;
  record: SpinlabNotebookRecord;
}

/** Parses a notebook's text; throws NotebookError with the reason when it is not a usable Spinlock Lab notebook. */
export function parseNotebook(text: string, name = 'the notebook'): ReadNotebook {
  let nb: unknown;
  try {
    nb = JSON.parse(text);
  } catch (err) {
    throw new NotebookError(`${name} is not valid JSON (${(err as Error).message}); a .ipynb file is JSON.`);
  }
  if (!nb || typeof nb !== 'object' || Array.isArray(nb))
    throw new NotebookError(`${name} is not a Jupyter notebook (the top level is not an object).`);
  const n = nb as Record<string, unknown>;
  if (n.nbformat !== 4) throw new NotebookError(`${name} is not an nbformat 4 notebook (nbformat is ${JSON.stringify(n.nbformat)}).`);
  if (!Array.isArray(n.cells)) throw new NotebookError(`${name} has no cell list.`);
  const meta = n.metadata as Record<string, unknown> | undefined;
  const raw = meta && typeof meta === 'object' ? (meta as Record<string, unknown>).spinlab : undefined;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new NotebookError(
      `${name} was not saved by Spinlock Lab: it has no metadata.spinlab record to re-run. Save an experiment from the panel or with \`spinlab export\`.`,
    );
  }
  let record = raw as Record<string, unknown>;
  if (typeof record.version !== 'number' || !Number.isInteger(record.version))
    throw new NotebookError(`${name}: metadata.spinlab has no version.`);
  let v: number = record.version;
  if (v > NOTEBOOK_RECORD_VERSION)
    throw new NotebookError(
      `${name} was saved by a newer Spinlock Lab (record version ${v}; this one reads up to ${NOTEBOOK_RECORD_VERSION}). Update Spinlock Lab.`,
    );
  while (v < NOTEBOOK_RECORD_VERSION) {
    const step = RECORD_MIGRATIONS[v];
    if (!step) throw new NotebookError(`${name}: record version ${v} can no longer be read.`);
    record = step(record);
    v = record.version as number;
  }
  if (!Array.isArray(record.experiments) || record.experiments.length === 0)
    throw new NotebookError(`${name}: metadata.spinlab holds no experiment.`);
  if (record.experiments.length > 100)
    throw new NotebookError(`${name}: metadata.spinlab holds ${record.experiments.length} experiments; at most 100 are read.`);
  const experiments = record.experiments.map((e, i) => {
    if (!e || typeof e !== 'object' || Array.isArray(e)) throw new NotebookError(`${name}: experiment ${i + 1} is not an object.`);
    return migrateExperiment(e as Record<string, unknown>, `${name}, experiment ${i + 1}`);
  });
  return { notebook: n as unknown as Notebook, record: { version: NOTEBOOK_RECORD_VERSION, experiments } };
}

export function readNotebookFile(file: string): ReadNotebook {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new NotebookError(unreadableNotebook(file, err as NodeJS.ErrnoException));
  }
  return parseNotebook(text, path.basename(file));
}

/** Why a notebook path cannot be read, and what to give instead: a folder's notebooks, or how to write one. */
function unreadableNotebook(file: string, err: NodeJS.ErrnoException): string {
  const howToWrite = 'spinlab export DIR --notebook FILE.ipynb writes one from an experiment folder';
  if (err.code === 'ENOENT') return `${file} does not exist: give a notebook (.ipynb) Spinlock Lab saved (${howToWrite}).`;
  if (err.code === 'EISDIR') {
    let inside: string[] = [];
    try {
      inside = fs.readdirSync(file).filter((f) => f.endsWith('.ipynb'));
    } catch {
      // unlistable: the advice below still holds
    }
    return inside.length
      ? `${file} is a folder; give its notebook: ${inside.map((f) => path.join(file, f)).join(' or ')}.`
      : `${file} is a folder and holds no notebook; give a notebook (.ipynb) (${howToWrite}).`;
  }
  return `Cannot read ${file}: ${err.code === 'EACCES' || err.code === 'EPERM' ? 'no permission to read it' : err.message}.`;
}
