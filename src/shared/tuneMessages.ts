// The tune feature's messages (src/host/features/tune): "Find the best settings" started from the panel's form (a
// scenario with its parameters, or a preset's scenario; every list as typed, checked again by the host), and the
// search's state after each trial and round, forwarded to the webview as it runs.
import { z } from 'zod';
import { fromWebview, toWebview } from './messages';
import type { TuneInfo } from './tune';
import { parameters, text } from './messageSchemas';
import { request } from './requests';

/** The workload a tune searches the knobs for: the Scenario section's scenario, or a preset's. */
export const tuneWorkload = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('scenario'), scenarioId: z.string().max(64), parameters }),
  z.object({ kind: z.literal('preset'), presetId: z.string().regex(/^[a-z0-9-]{1,64}$/, 'not a preset id') }),
]);

export const tuneStartSchema = z.object({
  workload: tuneWorkload,
  mode: z.enum(['server-loop', 'client-loop']),
  /** As typed: throughput, p99, or spins-per-row:NAME (shared/tune.ts parseObjective). */
  objective: text(140),
  /** As typed: 10m, 90s, 1h30m (parseBudget). */
  budget: text(32),
  /** Session counts as typed ('1,2,4,8' or '1-16'); blank: a ladder from the server's shape. */
  sessions: text(200),
  /** Affinity specs to try (each as a run's affinity); empty: candidates from the server's topology. */
  affinity: z.array(text(200)).max(16),
  /** Rows per transaction as typed ('1,2,4'); blank: the search's own. */
  batchSizes: text(200),
  /** Also try FORCED delayed durability (it trades durability for speed: only when the user says so). */
  allowForced: z.boolean(),
  /** Other work may be running on the server: run anyway, with wider intervals. */
  sharedServer: z.boolean(),
  /** Each trial's measured time as typed (blank: the engine's default). */
  trial: text(32).optional(),
  title: text(200).optional(),
});

/** Webview -> host. Cancel is the run's experimentStop: a tune is the panel's running experiment. */
export const TuneToHost = {
  tuneStart: fromWebview('tuneStart', tuneStartSchema),
} as const;

/** The form's control a problem belongs to ('start': none, said beside Start). */
export const TUNE_PROBLEM_FIELDS = [
  'workload',
  'objective',
  'spinlock',
  'budget',
  'sessions',
  'affinity',
  'batchSizes',
  'trial',
  'sharedServer',
  'start',
] as const;
export type TuneProblemField = (typeof TUNE_PROBLEM_FIELDS)[number];
export interface TuneProblem {
  field: TuneProblemField;
  /** In the panel's words: the field or checkbox by its label, never a command-line flag. */
  message: string;
}
const tuneProblems = z.object({
  problems: z.array(z.object({ field: z.enum(TUNE_PROBLEM_FIELDS), message: z.string().max(2000) })).max(32),
});

/**
 * Asked when Start is pressed, before the confirmation: every check the host can make (the fields against the
 * server's shape, the objective's spinlock, a busy server, the budget for the search's space); no problems: start.
 */
export const TuneRequests = {
  tuneCheck: request('tuneCheck', tuneStartSchema, tuneProblems),
} as const;

export interface TuneProgressMessage {
  experimentId: string;
  tune: TuneInfo;
}

/** Host -> webview. */
export const TuneToWebview = {
  /** The search's state after a trial or a round (standings in tune.rounds[last]); tune.result set at the end. */
  tuneProgress: toWebview<TuneProgressMessage>()('tuneProgress'),
} as const;

// The host made it, but the panel draws tables from it: its outline is checked on arrival, so a malformed one is
// dropped rather than breaking the view half-way.
const standing = z.object({
  config: z.string(),
  threads: z.number(),
  trials: z.number(),
  state: z.enum(['racing', 'dropped', 'winner', 'runner-up']),
  estimate: z.object({ value: z.number().nullable(), n: z.number() }).passthrough(),
});
const tuneOutline = z
  .object({
    objective: z.object({ kind: z.enum(['throughput', 'p99', 'spins-per-row']) }).passthrough(),
    budgetMs: z.number(),
    configs: z.array(z.object({ id: z.string(), label: z.string(), sessions: z.array(z.number()) }).passthrough()),
    rounds: z.array(z.object({ round: z.number(), standings: z.array(standing.passthrough()) }).passthrough()),
    elapsedMs: z.number().nullable(),
    result: z
      .object({ leaderboard: z.array(standing.passthrough()), verdict: z.string(), applySql: z.array(z.string()) })
      .passthrough()
      .nullable(),
  })
  .passthrough();
export const tuneProgressSchema = z.object({ experimentId: z.string(), tune: tuneOutline });

/** The message as the webview accepts it, or null when it is not a tune's progress. */
export function checkTuneProgress(raw: unknown): TuneProgressMessage | null {
  return tuneProgressSchema.safeParse(raw).success ? (raw as TuneProgressMessage) : null;
}

export type TuneStartIntent = z.infer<typeof tuneStartSchema>;
