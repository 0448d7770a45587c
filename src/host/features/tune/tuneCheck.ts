// Start's checks, made before the confirmation and said in the panel's words beside the control each concerns: the
// fields against the scenario and the server's shape (buildTuneRequest), what the engine refuses from the options
// alone, and what it refuses from the server's state (the objective's spinlock, a busy server, a budget too small
// for the search's space). The engine's refusals carry a reason (engine/tune/refusal.ts); the command line words
// them with its flags, the panel here with its checkbox and field labels.
import { checkTuneRequest } from '../../../engine/tune/run';
import { TuneRefusal, type TuneRefusalReason } from '../../../engine/tune/refusal';
import { PRIOR_CV } from '../../../engine/tune/plan';
import type { TuneProblem, TuneProblemField, TuneStartIntent } from '../../../shared/tuneMessages';
import { minutesText } from '../../../shared/tuneText';
import { RunRequestError, type ServerFacts } from '../../runRequest';
import { buildTuneRequest, type TuneRequest } from '../../tuneRequest';

/** The server's refusals for a checked request (engine/tune/preflight's tunePreflight on the panel's connection). */
export type TuneServerCheck = (req: TuneRequest) => Promise<TuneRefusal[]>;

/** The engine's default trial and warm-up (engine/tune/run.ts), as the host runs a tune with no trial length given. */
export const DEFAULT_TRIAL_MS = 4000;
export const DEFAULT_WARMUP_MS = 1000;

/** A trial's warm-up: the default, shortened for a short trial. */
export function warmupFor(trialMs: number | undefined): number {
  return trialMs === undefined ? DEFAULT_WARMUP_MS : Math.min(DEFAULT_WARMUP_MS, trialMs / 4);
}

const THE_SHARED_BOX = '“Other work may be running on this server”';

function budgetText(ms: number): string {
  return minutesText(ms).replace(/ 0[sm]$/, '');
}

/** An engine refusal in the panel's words, beside the control that changes it. */
export function refusalProblem(r: TuneRefusalReason): TuneProblem {
  switch (r.kind) {
    case 'p99-needs-client-loop':
      return {
        field: 'objective',
        message:
          'p99 latency needs the latency of each call, which only the client loop measures: set Load to “client loop” in the Run settings, or pick another objective.',
      };
    case 'p99-constraint-needs-client-loop':
      return { field: 'objective', message: 'A p99 latency limit needs the client loop: set Load to “client loop” in the Run settings.' };
    case 'unknown-spinlock':
      return {
        field: 'spinlock',
        message:
          `This server has no spinlock named ${r.spinlock} (sys.dm_os_spinlock_stats lists ${r.listed} types)${r.near ? `; did you mean ${r.near}?` : '.'} ` +
          'Every trial would read 0 spins per row. Name one the server lists, or pick another objective.',
      };
    case 'busy-server':
      return {
        field: 'sharedServer',
        message:
          `Other sessions are working on this server (${r.sessions} running a request, ${Math.round(r.batchRequestsPerSec)} batch requests/s). ` +
          'The search changes server-wide CPU affinity, which they feel, and their work would blur the comparison. ' +
          `Start when the server is quiet, or tick ${THE_SHARED_BOX} to run anyway, with wider intervals.`,
      };
    case 'budget-too-small': {
      const m = r.minimum;
      return {
        field: 'budget',
        message:
          `${budgetText(r.budgetMs)} is below the ${budgetText(m.ms)} this search needs: its ${m.configs} configurations screened once ` +
          `and ${m.pairs} pairs of trials confirming the winner, about ${(m.perTrialMs / 1000).toFixed(1)} s a trial at the ` +
          `${Math.round(PRIOR_CV * 100)}% noise assumed before any is measured${r.sharedServer ? ' (wider on a shared server)' : ''}. ` +
          `Give ${budgetText(m.ms)} or more, or narrow the search (Sessions, CPU affinity candidates, Rows per transaction).`,
      };
    }
  }
}

/** The form's label of each field, for a problem said away from its field (the error after Start). */
const LABELS: Record<TuneProblemField, string | null> = {
  workload: null,
  objective: 'Objective',
  spinlock: 'Spinlock',
  budget: 'Budget',
  sessions: 'Sessions',
  affinity: null, // its problems name the spec themselves
  batchSizes: 'Rows per transaction',
  trial: 'Trial length',
  sharedServer: null,
  start: null,
};

/** A problem as one line of a message: its field's label first. */
export function problemLine(p: TuneProblem): string {
  const label = LABELS[p.field];
  return label ? `${label}: ${p.message}` : p.message;
}

/** buildTuneRequest's problems ("Budget: ...") by the field each names. */
const PREFIXES: [RegExp, TuneProblemField][] = [
  [/^Objective: /, 'objective'],
  [/^Budget: /, 'budget'],
  [/^Trial length: /, 'trial'],
  [/^Sessions: /, 'sessions'],
  [/^Rows per transaction: /, 'batchSizes'],
  [/^CPU affinity /, 'affinity'],
];

export function requestProblem(text: string, p: TuneStartIntent): TuneProblem {
  for (const [re, field] of PREFIXES) {
    if (!re.test(text)) continue;
    const spinlock = field === 'objective' && /^spins-per-row:/i.test(p.objective);
    return { field: spinlock ? 'spinlock' : field, message: field === 'affinity' ? text : text.replace(re, '') };
  }
  return { field: 'workload', message: text };
}

/** Every problem of this start, the server's too when the form itself is right; none: the request to run. */
export async function checkTune(
  p: TuneStartIntent,
  facts: ServerFacts,
  server: TuneServerCheck,
): Promise<{ problems: TuneProblem[]; req: TuneRequest | null }> {
  let req: TuneRequest;
  try {
    req = buildTuneRequest(p, facts);
  } catch (e) {
    if (!(e instanceof RunRequestError)) throw e;
    return { problems: e.problems.map((x) => requestProblem(x, p)), req: null };
  }
  try {
    checkTuneRequest({ objective: req.objective, constraints: [], mode: req.mode });
  } catch (e) {
    if (!(e instanceof TuneRefusal)) throw e;
    return { problems: [refusalProblem(e.reason)], req: null };
  }
  const refusals = await server(req);
  return { problems: refusals.map((r) => refusalProblem(r.reason)), req: refusals.length ? null : req };
}
