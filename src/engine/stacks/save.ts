// Saving a capture with an experiment: appended to experiment.json's `stacks` (schema version 5), or to one run's.
// An experiment still running is refused: its process rewrites experiment.json when it ends.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StackCapture } from '../../shared/stacks';
import { migrateExperiment, NotebookError } from '../migrate';

export function addStacksToExperiment(dirOrFile: string, capture: StackCapture, runIndex?: number): string {
  const file = dirOrFile.endsWith('.json') ? dirOrFile : path.join(dirOrFile, 'experiment.json');
  if (!fs.existsSync(file)) throw new NotebookError(`${file} does not exist: give the folder a run wrote (holding experiment.json).`);
  const e = migrateExperiment(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>, file);
  if (e.status === 'running') {
    throw new NotebookError(
      `${file} belongs to an experiment that is still running (its process rewrites the file when it ends): add the capture once it has finished.`,
    );
  }
  if (runIndex === undefined) e.stacks = [...(e.stacks ?? []), capture];
  else {
    const run = e.runs.find((r) => r.index === runIndex);
    if (!run)
      throw new NotebookError(
        `${file} has no run ${runIndex + 1} (its runs, numbered from 1: ${e.runs.map((r) => r.index + 1).join(', ') || 'none'}).`,
      );
    run.stacks = [...(run.stacks ?? []), capture];
  }
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify(e, null, 2));
  fs.renameSync(tmp, file);
  return file;
}
