// Small helpers every tier shares: a scratch folder, a pause, a saved experiment read back.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Experiment } from '../../src/shared/experiment';

/** A new empty folder under the system's temp folder, named spinlab-<prefix>-XXXXXX so a leftover says whose it is. */
export function tmp(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `spinlab-${prefix}-`));
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The experiment.json a run wrote into `dir`, as written (not migrated or validated). */
export function readExperiment(dir: string): Experiment {
  return JSON.parse(fs.readFileSync(path.join(dir, 'experiment.json'), 'utf8')) as Experiment;
}
