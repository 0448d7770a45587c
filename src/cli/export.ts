// spinlab export: a saved experiment (or watch) as a notebook, CSV of its samples, or a T-SQL script bundle. Every
// path is checked before anything is written, so a refusal leaves nothing half-exported: a file already there is not
// replaced without --force (a notebook may instead take the experiment with --add-to), and --csv and --tsql name
// folders, so one that looks like a file name (exp.csv) is refused rather than made a folder.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { exportExperiment, readExperimentFile, tsqlBundle } from '../engine/notebook/export';
import { UsageError } from './commands';
import { isWatchRecord } from './watch';
import { folderProblems, freshSibling } from './output';
import { notebookChoice, notebookProblems, writeNotebookChoice, writeWatchNotebookChoice, type NotebookFlags } from './notebookOut';
import { ADD_TO } from './options';

interface ExportArgs extends NotebookFlags {
  csv?: string;
  tsql?: string;
}

/** The CSV files --csv writes. */
const CSV_FILES = ['ticks.csv', 'deltas.csv'];

/**
 * Why `dir` cannot take `names`, or []: it must be a folder (new, or one where none of them exists yet unless
 * --force); a new one whose name ends like one of its files (`fileLike`) is taken for a file name by mistake.
 */
export function exportDirProblems(dir: string, flag: string, names: readonly string[], force: boolean, fileLike: RegExp): string[] {
  if (dir.trim() === '') return [`${flag} was given empty: name the folder to write ${names.join(', ')} into.`];
  const takes = `${flag} takes a folder: it writes ${names.length > 3 ? `${names.length} files (${names[0]} ... ${names.at(-1)})` : names.join(' and ')} into it`;
  const stem = dir.replace(fileLike, '').replace(/[/\\]+$/, '') || 'export';
  let s: fs.Stats | null = null;
  try {
    s = fs.statSync(dir);
  } catch {
    // a new folder: checked below
  }
  if (s && !s.isDirectory())
    return [`${flag} ${dir} is a file; ${takes}. Name a folder (e.g. ${freshSibling(dir.replace(/\.[A-Za-z0-9]+$/, ''))}).`];
  if (!s && fileLike.test(dir))
    return [
      `${flag} ${dir} looks like a file name, but ${takes}. Name a folder (e.g. ${flag} ${stem}), or create ${dir} as a folder first.`,
    ];
  const there = s ? names.filter((n) => fs.existsSync(path.join(dir, n))) : [];
  if (there.length && !force)
    return [
      `${flag} ${dir} already holds ${there.join(', ')}: replace ${there.length === 1 ? 'it' : 'them'} with --force, or name a new folder (e.g. ${freshSibling(dir)}).`,
    ];
  return folderProblems(dir, flag);
}

async function exportCommand(dir: string, o: ExportArgs, out: (s: string) => void): Promise<void> {
  const nb = notebookChoice(o);
  if (!nb && o.csv === undefined && o.tsql === undefined)
    throw new UsageError(
      o.addTo ? notebookProblems(o, 'experiment').join('\n') : 'Say what to write: --notebook FILE, --csv DIR and/or --tsql DIR.',
    );
  if (isWatchRecord(dir)) {
    if (!nb || o.csv || o.tsql)
      throw new UsageError('A watch exports as a notebook: --notebook FILE (its ticks are already in samples.jsonl).');
    const problems = notebookProblems(o, 'watch', false);
    if (problems.length) throw new UsageError(problems.join('\n'));
    return out(`${await writeWatchNotebookChoice(dir, nb)}\n`);
  }
  const e = readExperimentFile(dir);
  const problems = [
    // --force here also replaces the --csv and --tsql files: without a notebook it is not a notebook's flag.
    ...notebookProblems({ ...o, force: nb ? o.force : undefined }, 'experiment'),
    ...(o.csv !== undefined ? exportDirProblems(o.csv, '--csv', CSV_FILES, !!o.force, /\.csv$/i) : []),
    ...(o.tsql !== undefined ? exportDirProblems(o.tsql, '--tsql', Object.keys(tsqlBundle(e)), !!o.force, /\.(sql|txt)$/i) : []),
  ];
  if (problems.length) throw new UsageError(problems.join('\n'));
  if (nb) out(`${writeNotebookChoice(nb, e)}\n`);
  const written = exportExperiment([e], { csvDir: o.csv, tsqlDir: o.tsql });
  if (written.length) out(written.map((f) => `wrote ${f}`).join('\n') + '\n');
}

export function addExportCommand(program: Command, out: (s: string) => void): void {
  program
    .command('export')
    .description('write a saved experiment as a notebook, CSV of its samples, or a T-SQL script bundle')
    .argument('<dir>', 'the folder a run wrote (holding experiment.json), or the experiment.json itself')
    .option(
      '--notebook <file>',
      'a Jupyter notebook (.ipynb) that renders on GitHub and in Jupyter and re-runs in Spinlock Lab: a new file (see --add-to, --force)',
    )
    .option(...ADD_TO)
    .option('--csv <dir>', 'a folder for ticks.csv and deltas.csv: every sample of every run')
    .option('--tsql <dir>', 'a folder for numbered T-SQL scripts to replay it by hand, with the spinlab and ostress command lines')
    .option('--force', 'replace files already there: the --notebook, and the files --csv and --tsql write')
    .action((dir: string, o: ExportArgs) => exportCommand(dir, o, out));
}
