// Exports of a saved experiment: the notebook, CSV of the samples, and a T-SQL script bundle with the equivalent load
// command lines. Shared by `spinlab export`, `spinlab run --notebook` and the panel. Reads only experiment.json (the
// record has no secrets) and writes only what it is asked to.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Experiment, RunRecord } from '../../shared/experiment';
import { buildNotebook } from './write';
import { buildReplay, loadCommandLines, stepsText } from './replay';
import { customTsqlBundle } from './customReplay';
import { migrateExperiment, NotebookError } from './read';
import { NOTEBOOK_WRITE_HINT, makeDirs, outputError, writeWhole } from '../outFiles';

export function readExperimentFile(dirOrFile: string): Experiment {
  const file = fs.existsSync(dirOrFile) && fs.statSync(dirOrFile).isDirectory() ? path.join(dirOrFile, 'experiment.json') : dirOrFile;
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new NotebookError(
      e.code === 'ENOENT'
        ? `${file} does not exist: give the folder a run wrote (it holds experiment.json) or the experiment.json itself.`
        : `${file} is not readable JSON: ${e.message}`,
    );
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new NotebookError(`${file} does not hold an experiment record.`);
  return migrateExperiment(raw as Record<string, unknown>, file);
}

/**
 * A parameter file too large to travel inside the record is found again by its path relative to the notebook, so a
 * colleague who keeps the two side by side can re-run it.
 */
function withParamsNearNotebook(e: Experiment, file: string): Experiment {
  const p = e.custom?.params;
  if (!p || p.kind !== 'csv' || p.csvText !== undefined || p.nearNotebook || !path.isAbsolute(p.from)) return e;
  const nearNotebook = path
    .relative(path.dirname(path.resolve(file)), p.from)
    .split(path.sep)
    .join('/');
  return { ...e, custom: { ...e.custom!, params: { ...p, nearNotebook } } };
}

export function writeNotebookFile(file: string, experiments: readonly Experiment[]): string {
  mkdirFor(path.dirname(path.resolve(file)), NOTEBOOK_WRITE_HINT);
  writeWhole(
    file,
    JSON.stringify(buildNotebook(experiments.map((e) => withParamsNearNotebook(e, file))), null, 1) + '\n',
    NOTEBOOK_WRITE_HINT,
  ); // a crash mid-write leaves the earlier file
  return file;
}

/** A CSV field: quoted when it holds a comma, quote or line break; formulas defused for spreadsheets. */
export function csvField(v: unknown): string {
  let s = v === null || v === undefined ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s) && !/^-?\d/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const row = (cells: unknown[]) => cells.map(csvField).join(',') + '\r\n';

/** ticks.csv: one line per tick with the fixed figures; deltas.csv: one line per tick and named spinlock/wait/latch. */
export function samplesCsv(e: Experiment): { ticks: string; deltas: string } {
  let ticks = row([
    'run',
    'threads',
    't_ms',
    'interval_ms',
    'rows',
    'rows_per_sec',
    'transactions_per_sec',
    'batch_requests_per_sec',
    'log_flushes_per_sec',
    'log_bytes_flushed_per_sec',
    'log_flush_wait_ms',
    'avg_log_write_stall_ms',
    'pending_log_io',
    'cpu_ms',
    'online_schedulers',
    'runnable_tasks',
    'gap',
  ]);
  let deltas = row([
    'run',
    'threads',
    't_ms',
    'kind',
    'name',
    'spins',
    'collisions',
    'backoffs',
    'sleep_time',
    'wait_ms',
    'count',
    'signal_ms',
  ]);
  const each = (r: RunRecord) => {
    for (const t of r.timeline) {
      ticks += row([
        r.index + 1,
        r.threads,
        t.t,
        t.intervalMs,
        t.rows,
        t.rowsPerSec,
        t.transactionsPerSec,
        t.batchRequestsPerSec,
        t.log.flushesPerSec,
        t.log.bytesFlushedPerSec,
        t.log.flushWaitTimeMs,
        t.log.avgWriteStallMs,
        t.pendingLogIo,
        t.cpuMs,
        t.onlineSchedulers,
        t.runnableTasks,
        t.gap ? 1 : 0,
      ]);
      for (const [n, s] of Object.entries(t.spinlocks))
        deltas += row([r.index + 1, r.threads, t.t, 'spinlock', n, s.spins, s.collisions, s.backoffs, s.sleepTime, '', '', '']);
      for (const [n, w] of Object.entries(t.waits))
        deltas += row([r.index + 1, r.threads, t.t, 'wait', n, '', '', '', '', w.waitMs, w.count, w.signalMs]);
      for (const [n, l] of Object.entries(t.latches))
        deltas += row([r.index + 1, r.threads, t.t, 'latch', n, '', '', '', '', l.waitMs, l.count, '']);
      for (const [node, pct] of Object.entries(t.cpuByNode))
        deltas += row([r.index + 1, r.threads, t.t, 'cpu_node_pct', node, '', '', '', '', pct, '', '']);
    }
  };
  e.runs.forEach(each);
  return { ticks, deltas };
}

/** The T-SQL bundle: numbered scripts in the order to run them, and the load command lines. */
export function tsqlBundle(e: Experiment): Record<string, string> {
  if (e.custom) return customTsqlBundle(e);
  const r = buildReplay(e);
  const join = stepsText;
  const head = `-- Spinlock Lab experiment ${e.id}: ${e.title}\n-- Scenario ${e.scenario.id}; lab database [${e.labDatabase}].\n\n`;
  const cmd = loadCommandLines(e);
  const files: Record<string, string> = {
    '01-deploy.sql': head + join(r.deploy),
    '02-knobs.sql': head + (r.knobs.length ? join(r.knobs) : '-- The experiment changed no server-wide setting.\n'),
    '03-workload.sql': head + join([r.workload]),
    '04-sample.sql': head + join([r.sample]),
    '05-restore.sql': head + (r.restore.length ? join(r.restore) : '-- Nothing to put back.\n'),
    '06-cleanup.sql': head + join(r.cleanup),
    'load-commands.txt': [
      `Load command lines for ${e.title}`,
      '',
      'Spinlock Lab (connection string in SPINLAB_CONNECTION, password in SPINLAB_PASSWORD):',
      `  ${cmd.spinlab}`,
      '',
      'ostress (RML Utilities; Windows; set SPINLAB_SERVER, SPINLAB_USER and SPINLAB_PASSWORD first), one line per thread count,',
      'after 01-deploy.sql and 02-knobs.sql; run 04-sample.sql before and after, then 05-restore.sql:',
      ...cmd.ostress.map((l) => `  ${l}`),
      ...(cmd.note ? [`  Note: ${cmd.note}`] : []),
      '',
    ].join('\n'),
  };
  return files;
}

export interface ExportRequest {
  notebook?: string;
  csvDir?: string;
  tsqlDir?: string;
}

const EXPORT_HINT = 'give a folder you can write to, or free some space.';

function mkdirFor(dir: string, hint: string): void {
  try {
    makeDirs(dir);
  } catch (err) {
    throw outputError(err, dir, hint);
  }
}

/** Writes `files` into `dir` (made when missing); a failure names the file and why, as every result write does. */
function writeFilesInto(dir: string, files: Record<string, string>): string[] {
  mkdirFor(dir, EXPORT_HINT);
  return Object.entries(files).map(([name, text]) => {
    const file = path.join(dir, name);
    try {
      fs.writeFileSync(file, text);
    } catch (err) {
      throw outputError(err, file, EXPORT_HINT);
    }
    return file;
  });
}

export function exportExperiment(experiments: readonly Experiment[], req: ExportRequest): string[] {
  const written: string[] = [];
  if (req.notebook) written.push(writeNotebookFile(req.notebook, experiments));
  const [e] = experiments;
  if (req.csvDir) {
    const { ticks, deltas } = samplesCsv(e);
    written.push(...writeFilesInto(req.csvDir, { 'ticks.csv': ticks, 'deltas.csv': deltas }));
  }
  if (req.tsqlDir) written.push(...writeFilesInto(req.tsqlDir, tsqlBundle(e)));
  return written;
}
