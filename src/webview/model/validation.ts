// Form validation as the user types, with the shared parsers the host and the CLI use, so the panel never accepts
// what the run would refuse. Each message is the parser's own (it names the field, what is allowed, what was given).
import type { ParamValue } from '../../shared/experiment';
import { coerceParam, ParamError, parseDuration, parseRowCount, parseThreadList, type Condition } from '../../shared/params';
import type { KnobSettings, RunSettings, ScenarioSummary } from '../../shared/protocol';
import type { Topology } from '../../shared/types';
import { parseRepeat } from '../../shared/planTime';
import { selectionOf } from './affinityEdit';

export interface ParamCheck {
  values: Record<string, ParamValue>;
  errors: Record<string, string>;
}

/** Each parameter's value as typed (strings from text fields), coerced; defaults for the ones missing. */
export function checkParams(scenario: ScenarioSummary, raw: Readonly<Record<string, unknown>>): ParamCheck {
  const values: Record<string, ParamValue> = {};
  const errors: Record<string, string> = {};
  for (const p of scenario.parameters) {
    const given = Object.prototype.hasOwnProperty.call(raw, p.name) ? raw[p.name] : p.default;
    try {
      values[p.name] = coerceParam(p, given);
    } catch (e) {
      errors[p.name] = e instanceof ParamError ? e.problems[0] : (e as Error).message;
      values[p.name] = p.default;
    }
  }
  return { values, errors };
}

export type RunErrors = Partial<Record<keyof RunSettings | 'length', string>>;

export function checkRun(run: RunSettings): { errors: RunErrors; threads: number[] } {
  const errors: RunErrors = {};
  let threads: number[] = [];
  const attempt = (key: keyof RunErrors, f: () => unknown) => {
    try {
      f();
    } catch (e) {
      errors[key] = (e as Error).message;
    }
  };
  attempt('threads', () => {
    threads = parseThreadList(run.threads);
  });
  const hasDuration = run.duration.trim() !== '';
  const hasRows = run.rows.trim() !== '';
  if (hasDuration && hasRows) errors.length = 'Give a duration or a row count, not both: clear one of them.';
  if (!hasDuration && !hasRows) errors.length = 'Give a duration (e.g. 30s) or a row count per session (e.g. 1M).';
  if (hasDuration) attempt('duration', () => parseDuration(run.duration));
  if (hasRows) attempt('rows', () => parseRowCount(run.rows));
  attempt('warmup', () => parseDuration(run.warmup || '0s', { allowZero: true }));
  attempt('interval', () => {
    const ms = parseDuration(run.interval);
    if (ms < 100) throw new Error(`sampling interval "${run.interval}" is under 100ms; the DMVs cost more than they tell at that rate`);
  });
  return { errors, threads };
}

/** The Repetitions field as typed, checked as the CLI checks --repeat (the message schema accepts the same range). */
export function checkRepeat(text: string): { value: number; error: string | null } {
  try {
    return { value: parseRepeat(text), error: null };
  } catch (e) {
    return { value: 1, error: `Repetitions: ${(e as Error).message}` };
  }
}

export function checkKnobs(knobs: KnobSettings, topology: Topology | null): { affinity: string | null; description: string } {
  if (knobs.affinity.trim() === '') return { affinity: null, description: 'affinity unchanged' };
  if (!topology) return { affinity: null, description: 'checked against the server once connected' };
  const sel = selectionOf(knobs.affinity, topology);
  return { affinity: sel.error, description: sel.description };
}

function matches(cond: Condition, values: Readonly<Record<string, ParamValue>>): boolean {
  return Object.entries(cond).every(([k, v]) => values[k] === v);
}

/** Whether the scenario with these values needs In-Memory OLTP. */
export function needsXtp(scenario: ScenarioSummary, values: Readonly<Record<string, ParamValue>>): boolean {
  return scenario.xtpWhen.some((c) => matches(c, values));
}

/**
 * What to pick instead when the server has no In-Memory OLTP: other parameter values of this scenario that avoid
 * it (tried by changing each enum named in a condition to its other choices), or scenarios that never need it.
 */
export function xtpAlternative(
  scenario: ScenarioSummary,
  values: Readonly<Record<string, ParamValue>>,
  all: readonly ScenarioSummary[],
): { parameters: Record<string, ParamValue> | null; scenarios: ScenarioSummary[] } {
  const keys = [...new Set(scenario.xtpWhen.flatMap((c) => Object.keys(c)))];
  let fixed: Record<string, ParamValue> | null = null;
  if (!scenario.xtpWhen.some((c) => Object.keys(c).length === 0)) {
    const candidate: Record<string, ParamValue> = { ...values };
    for (const k of keys) {
      const spec = scenario.parameters.find((p) => p.name === k);
      if (!spec) continue;
      const choices: ParamValue[] = spec.type === 'enum' ? (spec.values ?? []) : spec.type === 'bool' ? [true, false] : [];
      const ok = choices.find((v) => !scenario.xtpWhen.some((c) => k in c && c[k] === v));
      if (ok !== undefined) candidate[k] = ok;
    }
    if (!needsXtp(scenario, candidate)) {
      fixed = Object.fromEntries(Object.entries(candidate).filter(([k, v]) => values[k] !== v));
    }
  }
  const others = all.filter((s) => s.id !== scenario.id && s.xtpWhen.length === 0);
  return { parameters: fixed, scenarios: others };
}
