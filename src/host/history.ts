// Experiments the panel saved: <resultsFolder>/<experiment-id>/experiment.json (+ samples.jsonl). Listed newest first
// for one server, summarised for the history list; a file that is not an experiment is skipped with a log line.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Experiment } from '../shared/experiment';
import type { ExperimentSummary } from '../shared/protocol';
import { upgradeExperiment } from '../engine/migrate';
import { SpinlabError } from '../shared/spinlabError';

const ID = /^[A-Za-z0-9_.-]{1,128}$/;

/** The folder of an experiment, or null for an id that is not a plain folder name ('..', '.', slashes). */
export function experimentDir(folder: string, id: string): string | null {
  if (!ID.test(id) || id === '.' || id === '..') return null;
  const dir = path.resolve(folder, id);
  return path.dirname(dir) === path.resolve(folder) ? dir : null;
}

function looksLikeExperiment(v: unknown): v is Experiment {
  const e = v as Partial<Experiment> | null;
  return (
    !!e &&
    typeof e === 'object' &&
    typeof e.id === 'string' &&
    typeof e.createdAt === 'string' &&
    !!e.server &&
    typeof e.server === 'object' &&
    typeof e.server.serverName === 'string' &&
    !!e.scenario &&
    typeof e.scenario.id === 'string' &&
    !!e.load &&
    Array.isArray(e.load.threads) &&
    Array.isArray(e.runs)
  );
}

/** Reads one saved experiment; throws saying why it is not one. */
export function readExperiment(folder: string, id: string): Experiment {
  const dir = experimentDir(folder, id);
  if (!dir) throw new SpinlabError('user-input', `"${id}" is not an experiment id.`);
  const file = path.join(dir, 'experiment.json');
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new SpinlabError('files', `Could not read ${file}: ${(e as Error).message}`, undefined, e);
  }
  if (!looksLikeExperiment(parsed)) throw new SpinlabError('files', `${file} is not a Spinlock Lab experiment record.`);
  // Records from older versions are brought up to date (engine/migrate.ts); the summary needs no full validation.
  return upgradeExperiment(parsed as unknown as Record<string, unknown>, file) as unknown as Experiment;
}

export function summarise(e: Experiment): ExperimentSummary {
  return {
    id: e.id,
    title: e.title,
    createdAt: e.createdAt,
    scenarioId: e.scenario.id,
    status: e.status,
    simulated: e.simulated === true,
    serverName: e.server.serverName,
    threads: e.load.threads,
    runs: e.runs.map((r) => ({
      index: r.index,
      threads: r.threads,
      status: r.status,
      rowsPerSec: r.derived?.rowsPerSec ?? 0,
      ...(r.arm ? { arm: { id: r.arm.id, label: r.arm.label } } : {}),
    })),
    presetId: e.preset?.id ?? null,
    ...(e.kind === 'tune' ? { kind: 'tune' as const } : {}),
  };
}

/** Which server's experiments to list: @@SERVERNAME (what experiment.json records about the server). */
export interface HistoryServer {
  serverName: string;
}

/** This server's experiments under `folder`, newest first; malformed ones are skipped with a log line. */
export function listHistory(folder: string, server: HistoryServer, log: (line: string) => void, limit = 200): ExperimentSummary[] {
  if (!folder || !fs.existsSync(folder)) return [];
  const out: ExperimentSummary[] = [];
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder, { withFileTypes: true });
  } catch (e) {
    log(`history: cannot list ${folder}: ${(e as Error).message}`);
    return [];
  }
  const want = server.serverName.toLowerCase();
  for (const d of entries) {
    if (!d.isDirectory() || !fs.existsSync(path.join(folder, d.name, 'experiment.json'))) continue;
    try {
      const e = readExperiment(folder, d.name);
      if (e.server.serverName.toLowerCase() === want) out.push(summarise(e));
    } catch (err) {
      log(`history: skipped ${d.name}: ${(err as Error).message}`);
    }
  }
  out.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  return out.slice(0, limit);
}
