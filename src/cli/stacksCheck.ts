// `spinlab stacks`, checked before it connects: the spinlock's name, and the files it writes when the capture ends (an
// --export file is new unless --force; --add-to names a finished experiment, and --run one of its runs, from 1).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nameProblem } from '../shared/names';
import { UsageError } from './commands';

export interface StacksPrecheckArgs {
  spinlock: string;
  anyName?: boolean;
  export?: string;
  addTo?: string;
  run?: string;
  force?: boolean;
}

/** Checks `spinlab stacks` before it connects: the spinlock's name, and the files it writes when the capture ends. */
export function precheckStacks(o: StacksPrecheckArgs): void {
  const problems: string[] = [];
  const p =
    o.spinlock.trim() === ''
      ? '--spinlock was given empty: name the spinlock, e.g. LOGCACHE_ACCESS.'
      : nameProblem('spinlock', o.spinlock, `--spinlock ${o.spinlock}`, !!o.anyName);
  if (p) problems.push(p);
  if (o.export !== undefined) problems.push(...writableFileProblems(o.export, '--export'));
  if (o.export !== undefined && !o.force && fs.existsSync(o.export) && !fs.statSync(o.export).isDirectory())
    problems.push(`--export ${o.export} already exists: replace it with --force, or name a new file.`);
  if (o.run !== undefined) problems.push(...runNumberProblems(o.run, o.addTo));
  if (o.addTo !== undefined) problems.push(...addToProblems(o.addTo, o.run));
  if (problems.length) throw new UsageError(problems.join('\n'));
}

/** A file the command will write at the end: not a folder, in a folder that exists and can be written. */
export function writableFileProblems(file: string, flag: string): string[] {
  if (file.trim() === '') return [`${flag} was given empty: name the file to write.`];
  try {
    if (fs.statSync(file).isDirectory()) return [`${flag} ${file} is a folder: name a file inside it.`];
  } catch {
    // a new file: its folder is checked below
  }
  const dir = path.dirname(path.resolve(file));
  try {
    if (!fs.statSync(dir).isDirectory()) return [`${flag} ${file}: ${dir} is a file, not a folder.`];
    fs.accessSync(dir, fs.constants.W_OK);
    return [];
  } catch (e) {
    return [
      (e as NodeJS.ErrnoException).code === 'ENOENT'
        ? `${flag} ${file}: the folder ${dir} does not exist; create it first.`
        : `${flag} ${file}: the folder ${dir} cannot be written by this user.`,
    ];
  }
}

/** --run N: a run's number as `spinlab run` printed it ("run 2/6"), from 1; 0 is the index it used to take. */
function runNumberProblems(run: string, addTo: string | undefined): string[] {
  if (!addTo) return ['--run goes with --add-to DIR: it names a run of that experiment.'];
  if (run.trim() === '0')
    return ['--run 0: runs are numbered from 1, as spinlab run printed them ("run 1/6" is the first): write --run 1 for the first run.'];
  return /^[1-9]\d*$/.test(run.trim())
    ? []
    : [`--run ${run}: write the run's number, from 1, as spinlab run printed it ("run 2/6" is --run 2).`];
}

/** --add-to DIR [--run N]: a finished experiment's record that has that run, read now rather than after the capture. */
function addToProblems(dir: string, run: string | undefined): string[] {
  // `run --add-to FILE` takes a notebook: the same words here take an experiment's folder.
  if (/\.ipynb$/i.test(dir))
    return [
      `--add-to ${dir}: stacks --add-to takes the folder a run wrote (holding experiment.json), not a notebook; export it again with --force to see the capture in the notebook.`,
    ];
  const file = dir.endsWith('.json') ? dir : path.join(dir, 'experiment.json');
  let record: { kind?: unknown; runs?: { index?: unknown }[] };
  try {
    record = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof record;
  } catch (e) {
    return [
      `--add-to ${dir}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? `${file} does not exist` : `${file} cannot be read as an experiment record (${(e as Error).message})`}; give the folder a run wrote.`,
    ];
  }
  if (record.kind === 'watch') return [`--add-to ${dir} is a watch; a capture is added to an experiment (the folder of a spinlab run).`];
  const runs = Array.isArray(record.runs) ? record.runs.map((r) => Number(r.index) + 1) : [];
  if (run !== undefined && /^[1-9]\d*$/.test(run) && !runs.includes(Number(run)))
    return [
      `--run ${run}: ${file} has no run ${run} (its runs, numbered from 1 as spinlab run printed them: ${runs.join(', ') || 'none'}).`,
    ];
  try {
    fs.accessSync(file, fs.constants.W_OK);
  } catch {
    return [`--add-to ${dir}: ${file} cannot be written by this user.`];
  }
  return [];
}
