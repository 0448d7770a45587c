// The last write of a record, when its work has ended. A full disk then must not leave the copy from during the work,
// which says "running", as if the work went on: a smaller record (each run's totals without its per-tick timeline,
// marked failed with the reason) is tried next, then again after removing that copy (which frees its space). Whatever
// is on disk, the caller still has the whole record in memory, to print.
import * as fs from 'node:fs';
import type { Experiment, ExperimentEvent } from '../shared/experiment';
import { SpinlabError } from '../shared/spinlabError';
import { failureReason, writeWhole } from './outFiles';

/** What is on disk after the last write: the whole record, the smaller copy marked failed, or no record at all. */
export type OnDisk = 'whole' | 'smaller' | 'none';

/** Writes `whole`; failing that, `smaller`, then `smaller` once the stale copy is removed. Throws nothing. */
export function writeLast(file: string, whole: string, smaller: (cause: unknown) => string): { onDisk: OnDisk; error: unknown } {
  try {
    writeWhole(file, whole);
    return { onDisk: 'whole', error: null };
  } catch (error) {
    for (const removeFirst of [false, true]) {
      try {
        if (removeFirst) fs.rmSync(file, { force: true });
        writeWhole(file, smaller(error));
        return { onDisk: 'smaller', error };
      } catch {
        // the first failure is the one to report
      }
    }
    try {
      fs.rmSync(file, { force: true });
    } catch {
      /* nothing more can be done here */
    }
    return { onDisk: 'none', error };
  }
}

const ON_DISK: Record<OnDisk, string> = {
  whole: 'Its record was written when it ended, marked failed with this reason.',
  smaller:
    "The record on disk is a smaller copy, marked failed with this reason: each run's totals, without its per-tick timeline (samples.jsonl keeps the ticks it could).",
  none: 'No record is on disk: the copy written during the run, which said "running", was removed.',
};

/**
 * An experiment's record could not be written (a full disk): the experiment as it ended travels with the error, so
 * that the command can still print its results, and `onDisk` says what the folder holds instead.
 */
export class RecordNotSavedError extends SpinlabError {
  constructor(
    readonly experiment: Experiment,
    readonly file: string,
    readonly onDisk: OnDisk,
    cause: unknown,
    /** The write failed during the experiment, which stopped there (not at its end). */
    readonly stopped: boolean,
  ) {
    super(
      'files',
      `Could not write ${file}: ${failureReason(cause)}.${stopped ? ' The experiment stopped there.' : ''} ${ON_DISK[onDisk]}`,
      'free some space, or give another folder with --out.',
      cause,
    );
  }
}

/** A record (an experiment's, a watch's) as text, marked failed with an event saying why. */
export function failedCopy<T extends { status: string; events: ExperimentEvent[] }>(r: T, message: string): string {
  return JSON.stringify(
    { ...r, status: 'failed', events: [...r.events, { time: new Date().toISOString(), level: 'error', message }] },
    null,
    2,
  );
}

/** The smaller record: marked failed with the reason, without the timelines (the record's bulk, kept in samples.jsonl). */
export function smallerRecord(e: Experiment, cause: unknown): string {
  return failedCopy(
    { ...e, runs: e.runs.map((r) => ({ ...r, timeline: [] })) },
    `The record could not be written whole (${failureReason(cause)}): this copy keeps each run's totals but not its per-tick timeline.`,
  );
}

/**
 * The last write of an experiment's record. `earlier`: a write of it that failed during the experiment (which then
 * stopped). Returns the error to throw (null when the record was written whole and nothing failed before).
 */
export function saveLastRecord(file: string, e: Experiment, earlier: unknown): RecordNotSavedError | null {
  const { onDisk, error } = writeLast(file, JSON.stringify(e, null, 2), (cause) => smallerRecord(e, cause));
  return error || earlier ? new RecordNotSavedError(e, file, onDisk, earlier ?? error, !!earlier) : null;
}
