// What a preset is: a post's experiment as a plan of arms (each a scenario, parameters, knobs, mode and thread
// counts), the comparisons between arms that answer its question, and the analysis views that fit it. A preset adapts
// to the connected server: node and CPU numbers come from its topology, and what the server cannot do (a second NUMA
// node, In-Memory OLTP) is left out with a note saying so.
import type { ParamValue } from '../../shared/experiment';
import type { ParamSpec } from '../../shared/params';
import type { ServerIdentity, Topology } from '../../shared/types';
import type { PostId } from '../../shared/posts';
import type { PlanArm } from '../experiment';

export type PresetNeed = 'two NUMA nodes' | 'In-Memory OLTP';
/** A/B comparison, scaling curve, doing the math, WRITELOG diagnosis. */
export type PresetView = 'ab' | 'scaling' | 'math' | 'writelog';

/** Arm A against arm B, at the thread counts both ran. */
export interface PresetComparison {
  a: string;
  b: string;
  label: string;
}

export interface PresetPlan {
  arms: PlanArm[];
  comparisons: PresetComparison[];
  /** How the preset adapted to this server, in words. */
  notes: string[];
}

/** Load settings as a person writes them (the CLI's flags); --threads, --duration, ... override these. */
export interface PresetLoad {
  duration?: string;
  rows?: string;
  warmup: string;
  interval: string;
}

export interface PresetServer {
  topology: Topology;
  identity: ServerIdentity;
}

export interface Preset {
  id: string;
  name: string;
  /** The post whose experiment it reproduces (src/shared/posts.ts). */
  post: PostId;
  question: string;
  needs: PresetNeed[];
  /** Every setting the preset takes, with its default: changed with --set name=value. */
  options: ParamSpec[];
  load: PresetLoad;
  /** Runs of each arm at each thread count unless the user says otherwise (--repeat), interleaved across the arms. */
  repeat: number;
  /** How the default thread counts follow the server, in words (they are computed from its topology). */
  threads: string;
  views: PresetView[];
  /** Spinlocks, waits and latches the post reasons with: always shown, even when small. */
  watch: string[];
  /** The arms for this server; `threads` replaces every arm's thread counts when the user gave them. */
  plan(server: PresetServer, values: Record<string, ParamValue>, threads: number[] | null): PresetPlan;
}
