// A gate against a baseline at a thread count the baseline never ran fails only after the whole experiment; the
// thread counts asked for are known before connecting, so that mismatch is caught then, with what would match.
import type { Baseline } from './gates';
import type { Gate } from '../shared/gates';
import { LOAD_DEFAULTS } from '../engine/runSettings';
import { parseThreadList } from '../shared/params';

/** Problems for `--assert ... baseline` gates at thread counts the baseline lacks (a scenario's or custom run's one arm). */
export function baselineThreadProblems(
  o: { threads?: string; preset?: string; interleave?: boolean },
  gates: readonly Gate[],
  baseline: Baseline | null,
): string[] {
  // A preset's arms come from the preset; an interleaved run runs the baseline's settings again beside this one.
  if (!baseline || o.preset !== undefined || o.interleave || !gates.some((g) => g.against === 'baseline')) return [];
  let threads: number[];
  try {
    threads = parseThreadList(o.threads === undefined || o.threads.trim() === '' ? LOAD_DEFAULTS.threads : o.threads);
  } catch {
    return []; // the thread list's own problem is reported by the run's settings check
  }
  const has = new Set(
    baseline.experiment.runs.filter((r) => r.status === 'completed' && (r.arm?.id ?? 'main') === 'main').map((r) => r.threads),
  );
  const missing = threads.filter((t) => !has.has(t));
  if (!missing.length) return [];
  const known = [...has].sort((a, b) => a - b);
  return [
    `--assert against --baseline ${baseline.dir}: the baseline has no completed run at ${missing.join(', ')} thread${missing.length === 1 && missing[0] === 1 ? '' : 's'} (it has ${known.length ? `${known.join(', ')} threads` : 'no run of one arm; it is a preset or tune'}); ` +
      (known.length
        ? `run --threads ${known.join(',')} to gate against it, or gate on a number instead.`
        : 'give a baseline from spinlab run --scenario or --sql.'),
  ];
}
