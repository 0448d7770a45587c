// Reading an experiment record (experiment.json, or one held in a notebook) written by any Spinlock Lab version:
// upgraded one schemaVersion at a time to the current one, then checked against schema/experiment.schema.json.
// Every reader of experiment records goes through here.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { EXPERIMENT_SCHEMA_VERSION, type Experiment } from '../shared/experiment';
import type { PostId } from '../shared/posts';
import { sqlRoot } from '../db/sqlFiles';
import type { WatchRecord } from '../shared/watch';
import { cpuCountFor, measuredCpuFor } from './totals';
import { SpinlabError } from '../shared/spinlabError';

/** A record that cannot be read: not ours, from a newer version, or damaged. (Named for the notebooks that first used it.) */
export class NotebookError extends SpinlabError {
  constructor(message: string) {
    super('user-input', message);
  }
}

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Version 1 -> 2: runs gained `arm` (what each run ran) and the experiment `preset`. A version 1 experiment ran one
 * scenario with one set of parameters, knobs and mode, so every run gets that as its arm, and there was no preset.
 */
function v1ToV2(e: Raw): Raw {
  const scenario = isObject(e.scenario) ? e.scenario : {};
  const load = isObject(e.load) ? e.load : {};
  const knobs = isObject(e.knobs) ? e.knobs : {};
  const arm = () => ({
    id: 'main',
    label: typeof scenario.id === 'string' ? scenario.id : 'main',
    scenarioId: scenario.id,
    parameters: isObject(scenario.parameters) ? { ...scenario.parameters } : scenario.parameters,
    knobs: isObject(knobs.applied) ? JSON.parse(JSON.stringify(knobs.applied)) : knobs.applied,
    mode: load.mode,
  });
  return {
    ...e,
    schemaVersion: 2,
    preset: null,
    runs: Array.isArray(e.runs) ? e.runs.map((r) => (isObject(r) ? { ...r, arm: arm() } : r)) : e.runs,
  };
}

/** Version 2 wrote a preset's post as our file name for it ('003_….txt'), whose number is the post's place in the catalogue. */
const V2_POST_FILES: readonly PostId[] = ['numa-logcache-access', 'large-pages', 'xdesmgr-big-box', 'writelog-at-scale', 'ring-buffer'];

/**
 * Version 2 -> 3: records gained `kind`, since a watch (spinlab watch) is saved as experiment.json too; and a preset's
 * `seed` (a file name that meant nothing to a reader) becomes `post`, a post id.
 */
function v2ToV3(e: Raw): Raw {
  if (!isObject(e.preset)) return { ...e, schemaVersion: 3, kind: 'experiment' };
  const { seed, ...preset } = e.preset;
  const n = typeof seed === 'string' ? /^(\d{3})_/.exec(seed) : null;
  const post = n ? V2_POST_FILES[Number(n[1])] : undefined;
  // An unknown name stays as it was under `post`, so validation says what is wrong rather than inventing a post.
  return { ...e, schemaVersion: 3, kind: 'experiment', preset: { ...preset, post: post ?? seed } };
}

/**
 * Version 3 -> 4: "doing the math" counts the CPUs the run used. derived.cpusUsed was the online schedulers; it becomes
 * the run's threads at most those schedulers, with cpuCount (its inputs and the physical cores) and measuredCpu (the
 * schedulers' total_cpu_usage_ms over the run) beside it, and the cycle figures recomputed on that count.
 */
function v3ToV4(e: Raw): Raw {
  const topo = isObject(e.topology) ? e.topology : {};
  const ratio = Number(topo.hyperthreadRatio) / Number(topo.coresPerSocket);
  const tpc = Number.isInteger(ratio) && ratio >= 1 ? ratio : 1;
  const run = (r: unknown) => {
    if (!isObject(r) || !isObject(r.derived)) return r;
    const d = r.derived;
    const online = typeof d.cpusUsed === 'number' ? d.cpusUsed : 0;
    const threads = typeof r.threads === 'number' ? r.threads : online;
    const cpuCount = cpuCountFor(threads, online, tpc);
    const cpusUsed = online > 0 ? Math.min(threads, online) : threads;
    const clockHz = typeof d.clockHz === 'number' ? d.clockHz : null;
    const elapsedSec = typeof d.elapsedSec === 'number' ? d.elapsedSec : 0;
    const totals = isObject(r.totals) ? r.totals : {};
    const rows = typeof r.rows === 'number' ? r.rows : Number(totals.rows) || 0;
    const cyclesAvailable = clockHz === null ? null : elapsedSec * cpusUsed * clockHz;
    const spins = isObject(totals.spinlocks) ? totals.spinlocks : {};
    const cyclesPerSpin: Record<string, number> = {};
    if (cyclesAvailable !== null) {
      for (const [name, s] of Object.entries(spins)) {
        const n = isObject(s) ? Number(s.spins) : 0;
        if (n > 0) cyclesPerSpin[name] = cyclesAvailable / n;
      }
    }
    const cpuMs = Number(totals.cpuMs) || 0;
    return {
      ...r,
      derived: {
        ...d,
        cpusUsed,
        cpuCount,
        measuredCpu: measuredCpuFor(cpuMs, elapsedSec * 1000, clockHz, rows),
        cyclesAvailable,
        cyclesPerSpin,
        cyclesPerRow: cyclesAvailable !== null && rows > 0 ? cyclesAvailable / rows : null,
      },
    };
  };
  return { ...e, schemaVersion: 4, runs: Array.isArray(e.runs) ? e.runs.map(run) : e.runs };
}

/**
 * Version 4 -> 5: experiments and runs may carry `stacks`, spinlock backoff call-stack captures. A record
 * of version 4 had none, and absent means none: nothing else changes.
 */
function v4ToV5(e: Raw): Raw {
  return { ...e, schemaVersion: 5 };
}

/**
 * Version 5 -> 6: an experiment may carry `design` (its repetitions and their order) and each run its `repetition`.
 * A version 5 experiment ran every cell once, which is what their absence means: nothing is added, so an old record
 * stays as it was written and its readers say "1 run: no interval".
 */
function v5ToV6(e: Raw): Raw {
  return { ...e, schemaVersion: 6 };
}
// Within version 6, runs may carry `steady` (where the steady state began; their figures are over it) and `block`
// (the A/B block they ran in), and the design `interleaved`: fields a reader of version 6 passes over. A record
// without them loads unchanged: its figures are over every tick after the fixed warm-up, and nothing says which
// arms took turns beyond the design's sequence.

/** Upgrades of an experiment record, one step each: key n turns version n into n + 1. */
export const EXPERIMENT_MIGRATIONS: Record<number, (e: Raw) => Raw> = {
  1: v1ToV2,
  2: v2ToV3,
  3: v3ToV4,
  4: v4ToV5,
  5: v5ToV6,
};

const LATENCY_FIGURES = ['meanUs', 'p50Us', 'p90Us', 'p99Us', 'p999Us', 'maxUs'] as const;

/**
 * Records written before a run with no completed call said so wrote its latency as zeros (count 0, p50 0): read as
 * nulls, as they are written now, so no reader shows or gates on a latency that was never measured. Same version:
 * the schema only widened (a figure may be null), and a record with samples is unchanged.
 */
function noSampleNoLatency(e: Raw): Raw {
  if (!Array.isArray(e.runs) || !e.runs.some((r) => isObject(r) && isObject(r.latency) && r.latency.count === 0)) return e;
  const run = (r: unknown) => {
    if (!isObject(r) || !isObject(r.latency) || r.latency.count !== 0) return r;
    return { ...r, latency: { ...r.latency, ...Object.fromEntries(LATENCY_FIGURES.map((k) => [k, null])) } };
  };
  return { ...e, runs: e.runs.map(run) };
}

/** Brings a record to the current schemaVersion without validating it (for readers that only summarise). */
export function upgradeExperiment(raw: Raw, where: string): Raw {
  let e = raw;
  let v = typeof e.schemaVersion === 'number' ? e.schemaVersion : NaN;
  if (!Number.isInteger(v)) throw new NotebookError(`${where}: the experiment record has no schemaVersion.`);
  if (v > EXPERIMENT_SCHEMA_VERSION) {
    throw new NotebookError(
      `${where}: the experiment record is version ${v}, newer than this Spinlock Lab understands (${EXPERIMENT_SCHEMA_VERSION}). Update Spinlock Lab.`,
    );
  }
  while (v < EXPERIMENT_SCHEMA_VERSION) {
    const step = EXPERIMENT_MIGRATIONS[v];
    if (!step) throw new NotebookError(`${where}: experiment records of version ${v} can no longer be read.`);
    e = step(e);
    v = e.schemaVersion as number;
  }
  return noSampleNoLatency(e);
}

let validator: ReturnType<Ajv2020['compile']> | undefined;
let ajv: Ajv2020 | undefined;

/** Null when `e` matches the current schema, else what is wrong. */
export function validateExperiment(e: unknown): string | null {
  if (!validator) {
    const schema = JSON.parse(fs.readFileSync(path.join(sqlRoot(), '..', 'schema', 'experiment.schema.json'), 'utf8'));
    ajv = new Ajv2020({ allErrors: false, strict: false });
    validator = ajv.compile(schema);
  }
  if (validator(e)) return null;
  return ajv!.errorsText(validator.errors, { dataVar: 'experiment' });
}

/** Upgrades and validates; throws NotebookError saying what is wrong (a watch is refused with what to do with it). */
export function migrateExperiment(raw: Raw, where: string): Experiment {
  const e = upgradeExperiment(raw, where);
  if (e.kind === 'watch') {
    throw new NotebookError(
      `${where}: this is a watch (spinlab watch), not an experiment; compare its windows with spinlab watch --compare DIR --mark NAME, or write its notebook with spinlab export DIR --notebook FILE.`,
    );
  }
  const problem = validateExperiment(e);
  if (problem)
    throw new NotebookError(`${where}: the experiment record is not valid (${problem}). The file may have been edited by hand or damaged.`);
  return e as unknown as Experiment;
}

/** A watch's experiment.json, upgraded and validated; throws NotebookError saying what is wrong. */
export function migrateWatch(raw: Raw, where: string): WatchRecord {
  const e = upgradeExperiment(raw, where);
  if (e.kind !== 'watch') throw new NotebookError(`${where}: this is an experiment, not a watch (spinlab export reads experiments).`);
  const problem = validateExperiment(e);
  if (problem)
    throw new NotebookError(`${where}: the watch record is not valid (${problem}). The file may have been edited by hand or damaged.`);
  return e as unknown as WatchRecord;
}
