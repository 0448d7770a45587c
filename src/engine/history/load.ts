// The saved experiments a history is made of: folders a run wrote (experiment.json + samples.jsonl), their
// experiment.json files, or a parent folder of them (spinlab-results/). One that cannot be read, a watch or a tune is
// skipped with a one-line reason; the caller says what it skipped.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Experiment } from '../../shared/experiment';
import { readExperimentFile } from '../notebook/export';
import { SpinlabError } from '../../shared/spinlabError';

export interface Skipped {
  path: string;
  reason: string;
}

export interface LoadedExperiments {
  experiments: Experiment[];
  skipped: Skipped[];
}

const RECORD = 'experiment.json';

/** The experiment.json files `p` stands for: its own, or those of the folders right inside it. */
function recordsOf(p: string): { files: string[]; skipped: Skipped[] } {
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { files: [], skipped: [{ path: p, reason: code === 'ENOENT' ? 'does not exist' : (e as Error).message }] };
  }
  if (!st.isDirectory()) return { files: [p], skipped: [] };
  if (fs.existsSync(path.join(p, RECORD))) return { files: [path.join(p, RECORD)], skipped: [] };
  let names: string[];
  try {
    names = fs.readdirSync(p).sort();
  } catch (e) {
    return { files: [], skipped: [{ path: p, reason: `cannot be listed: ${(e as Error).message}` }] };
  }
  // A parent folder: each folder in it that holds an experiment.json (others, such as watches/, are not experiments).
  const files = names.map((n) => path.join(p, n, RECORD)).filter((f) => fs.existsSync(f));
  if (!files.length) return { files: [], skipped: [{ path: p, reason: `holds no ${RECORD}, nor folders that do` }] };
  return { files, skipped: [] };
}

/** What kind of record a file holds, read cheaply before the whole record is checked. */
function kindOf(file: string): unknown {
  try {
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { kind?: unknown } | null)?.kind;
  } catch {
    return undefined;
  }
}

/** Every experiment under `paths`, each read once (a folder given twice, or inside a parent given too, counts once). */
export function loadExperiments(paths: readonly string[]): LoadedExperiments {
  const experiments: Experiment[] = [];
  const skipped: Skipped[] = [];
  const seen = new Set<string>();
  for (const p of paths) {
    const r = recordsOf(p);
    skipped.push(...r.skipped);
    for (const file of r.files) {
      const key = path.resolve(file);
      if (seen.has(key)) continue;
      seen.add(key);
      const where = path.basename(file) === RECORD ? path.dirname(file) : file;
      const kind = kindOf(file);
      if (kind === 'watch') {
        skipped.push({ path: where, reason: 'a watch, not an experiment (spinlab watch --compare reads watches)' });
        continue;
      }
      if (kind === 'tune') {
        skipped.push({ path: where, reason: 'a tune: its arms are the configurations it tried, not one workload over time' });
        continue;
      }
      try {
        experiments.push(readExperimentFile(file));
      } catch (e) {
        const message = e instanceof SpinlabError || e instanceof Error ? e.message : String(e);
        skipped.push({ path: where, reason: message.split('\n')[0] });
      }
    }
  }
  return { experiments, skipped };
}
