// What a tune takes and what it reports while it runs (engine/tune/run.ts runs it).
import type { DbTarget } from '../../db/target';
import type { LoadSettings, ParamValue, PresetInfo } from '../../shared/experiment';
import type { TuneConstraint, TuneInfo, TuneObjective, TuneSpaceRequest } from '../../shared/tune';
import type { CustomPlan, ExperimentProgress } from '../runOne';

export interface TuneOptions {
  target: DbTarget;
  labDatabase: string;
  /** A scenario id, or 'custom' with `custom` set (a custom workload: rows per transaction is not a knob there). */
  scenarioId: string;
  /** Already validated against the manifest (params.ts); batch_size here is the current setting the search starts from. */
  parameters: Record<string, ParamValue>;
  custom?: CustomPlan | null;
  /** The preset whose scenario is tuned, when the user started from one. */
  preset?: PresetInfo | null;
  /** Tune the scenario a preset runs (its first arm's, planned for this server), with the preset's settings. */
  fromPreset?: { id: string; set: string[] };
  mode: LoadSettings['mode'];
  objective: TuneObjective;
  constraints: TuneConstraint[];
  budgetMs: number;
  /** Each trial's measured time (default 4 s) and warm-up (default 1 s), and the tick interval (default 1 s). */
  trialMs?: number;
  warmupMs?: number;
  intervalMs?: number;
  request: TuneSpaceRequest;
  /** Run although other sessions are busy on the server, with intervals widened (default: refuse). */
  sharedServer?: boolean;
  /** Leave the winner applied at the end (default: restore the server's settings; the winner is shown as T-SQL). */
  apply?: boolean;
  outDir: string;
  stateDir?: string;
  id?: string;
  title?: string;
  deploy?: boolean;
}

/** A tune's progress: the experiment's own (runs, ticks, events), and the search's state after each trial. */
export type TuneProgress = ExperimentProgress | { kind: 'tune'; tune: TuneInfo };

/** A side of the confirmation: a configuration (index) at a session count. */
export interface Side {
  i: number;
  threads: number;
}

/** The confirmation: the current settings (a) against the winner (b); each pair's objective values, a's then b's. */
export interface Confirmation {
  a: Side;
  b: Side;
  /** The trial (in the order handed out) it started at. */
  from: number;
  pairs: [number | null, number | null][];
}
