// After an experiment ends: its results are printed first (the terminal is the one output that cannot fill up), then
// its notebook is written; when something could not be written (a full disk), one error says exactly what was saved
// and what was not, after the gates.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Experiment } from '../shared/experiment';
import type { ExperimentResult } from '../engine/experiment';
import { RecordNotSavedError } from '../engine/recordSave';
import { failureReason } from '../engine/outFiles';
import { SpinlabError } from '../shared/spinlabError';
import { writeNotebookChoice, type NotebookChoice } from './notebookOut';

export interface Outcome {
  experiment: Experiment;
  file: string;
  /** The record could not be written whole: what the folder holds instead is in the error. */
  unsaved: RecordNotSavedError | null;
}

/** The experiment an engine call ended with, also when its record could not be written (the error carries it). */
export function outcomeOf(p: Promise<ExperimentResult>): Promise<Outcome> {
  return p.then(
    (r) => ({ experiment: r.experiment, file: r.file, unsaved: null }),
    (err: unknown) => {
      if (err instanceof RecordNotSavedError) return { experiment: err.experiment, file: err.file, unsaved: err };
      throw err;
    },
  );
}

/** The line after the report: where the record is (nothing when it was not saved whole: notSaved says so). */
export const savedLine = (r: Outcome): string => (r.unsaved ? '' : `Saved ${r.file}\n`);

/** samples.jsonl against the ticks in the record: how many of them it holds. */
function samplesText(r: Outcome): { saved: boolean; text: string } {
  const file = path.join(path.dirname(r.file), 'samples.jsonl');
  const total = r.experiment.runs.reduce((n, x) => n + x.timeline.length, 0);
  let lines: number;
  try {
    lines = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim()).length;
  } catch {
    return { saved: false, text: `${file} (cannot be read back)` };
  }
  return { saved: lines > 0, text: `${file} (${lines >= total ? `all ${total}` : `${lines} of ${total}`} ticks)` };
}

/**
 * Writes the notebook (`nb`, when asked for) and returns the error to throw once the gates are printed: null when
 * everything was saved; the notebook's own error when only it failed; else a list of what was and was not saved.
 */
export function saveRest(r: Outcome, nb: NotebookChoice | null, out: (s: string) => void): unknown {
  let nbLine: string | null = null;
  let nbError: unknown = null;
  if (nb) {
    try {
      nbLine = writeNotebookChoice(nb, r.experiment);
      out(`${nbLine}\n`);
    } catch (err) {
      nbError = err;
    }
  }
  const u = r.unsaved;
  if (!u) return nbError;
  const saved = ['the results printed above'];
  const notSaved: string[] = [];
  const samples = samplesText(r);
  (samples.saved ? saved : notSaved).push(samples.text);
  if (u.onDisk === 'whole') saved.push(`${u.file} (marked failed: the experiment stopped when it could not be written)`);
  if (u.onDisk === 'smaller') {
    saved.push(`${u.file}, a smaller copy marked failed (each run's totals, without its per-tick timeline)`);
    notSaved.push(`the whole ${path.basename(u.file)} (its runs' per-tick timelines)`);
  }
  if (u.onDisk === 'none')
    notSaved.push(`${u.file} (no record is on disk: the copy from during the run, which said "running", was removed)`);
  if (nbLine) saved.push(`${nb!.file} (the notebook, with the whole record)`);
  if (nb && nbError) notSaved.push(`${nb.file} (${failureReason(nbError)})`);
  return new SpinlabError(
    'files',
    [
      `Not everything was saved: ${u.file} could not be written (${failureReason(u)}).`,
      `  Saved: ${saved.join('; ')}.`,
      ...(notSaved.length ? [`  Not saved: ${notSaved.join('; ')}.`] : []),
    ].join('\n'),
    `free some space, or give another folder with --out${nbLine ? '' : '; the results above are the only whole copy'}.`,
    u,
  );
}
