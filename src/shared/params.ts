// Scenario manifests (sql/scenarios/<id>/manifest.json) and the user-supplied values they take: parameter values from
// `--set k=v` and from JSON, durations, thread lists and row counts. Every message names the parameter, what is
// allowed and what was given, because these come straight from a command line or a settings file.
import type { ParamValue } from './experiment';
import type { PostId } from './posts';
import { SpinlabError } from './spinlabError';

export interface ParamSpec {
  name: string;
  label: string;
  type: 'int' | 'enum' | 'bool';
  default: ParamValue;
  min?: number;
  max?: number;
  values?: string[];
  unit?: string;
  description: string;
}

export type ScenarioFeature = 'xtp';
/** Matches when every named parameter has the given value. */
export type Condition = Record<string, ParamValue>;
export interface Step {
  sql: string;
  when?: Condition;
  unless?: Condition;
}
export type ByParam<T> = T | { param: string; map?: Record<string, T> };
export interface ProcedureSpec {
  procedure: ByParam<string>;
  args: string[];
}

/** The shape of the manifest.json files (kept in step with sql/scenarios/*). */
export interface ScenarioManifest {
  id: string;
  name: string;
  description: string;
  /** The posts (src/shared/posts.ts) that use the scenario, the one it comes from first. */
  posts: PostId[];
  features: { feature: ScenarioFeature; when?: Condition }[];
  /** What a unit of throughput is ('rows', 'slot updates'). */
  unit?: string;
  parameters: ParamSpec[];
  deploy?: Step[];
  cleanup?: Step[];
  /**
   * nativeWhen: the parameter values under which the workload's transactions run inside natively compiled
   * procedures (which SQL Server's Transactions/sec counter does not count); absent: never.
   */
  workload?: { serverLoop: ProcedureSpec; clientLoop: ProcedureSpec; rowsPerCall: ByParam<number>; nativeWhen?: Condition };
  progress?: { tables: string[]; operations: ('inserts' | 'updates' | 'deletes')[] };
}

export class ParamError extends SpinlabError {
  constructor(readonly problems: string[]) {
    super('user-input', problems.join('\n'));
  }
}

// ---- numbers ----

const SUFFIX: Record<string, number> = { k: 1e3, m: 1e6, g: 1e9, b: 1e9 };

/**
 * An integer as people write counts: '1000000', '1_000_000', '1e6', '10k', '2M', '1.5M', '-3'. k = thousand,
 * m/M = million (never milli: these are counts), g/G or b/B = billion. Throws ParamError with the reason.
 */
export function parseInteger(text: string): number {
  const s = String(text).trim().replace(/_/g, '');
  const m = /^([+-]?)(\d+(?:\.\d+)?(?:e\d+)?)([kmgb]?)$/i.exec(s);
  if (!m) throw new ParamError([`"${text}" is not a whole number (write e.g. 1000000, 1e6, 10k or 2M)`]);
  const value = Number(m[2]) * (m[3] ? SUFFIX[m[3].toLowerCase()] : 1) * (m[1] === '-' ? -1 : 1);
  if (!Number.isInteger(value)) throw new ParamError([`"${text}" is ${value}, not a whole number`]);
  if (!Number.isSafeInteger(value)) throw new ParamError([`"${text}" is too large (at most ${Number.MAX_SAFE_INTEGER})`]);
  return value === 0 ? 0 : value; // no -0
}

/** A positive row count: '1e6', '1000000', '10k', '2M'. */
export function parseRowCount(text: string): number {
  const n = parseInteger(text);
  if (n < 1) throw new ParamError([`row count "${text}" must be at least 1`]);
  return n;
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A duration in ms: '250ms', '30s', '1.5s', '5m', '1h', or pairs like '1m30s'. A bare number is refused: '30' could
 * be seconds or ms. Zero only with allowZero (a warm-up of '0s').
 */
export function parseDuration(text: string, options: { allowZero?: boolean } = {}): number {
  const s = String(text).trim().toLowerCase();
  const pair = /(\d+(?:\.\d+)?)\s*(ms|s|m|h)/y;
  let ms = 0;
  let pos = 0;
  let pairs = 0;
  while (pos < s.length) {
    pair.lastIndex = pos;
    const m = pair.exec(s);
    if (!m) break;
    ms += Number(m[1]) * DURATION_UNITS[m[2]];
    pos = pair.lastIndex;
    pairs++;
    while (s[pos] === ' ') pos++;
  }
  if (pairs === 0 || pos !== s.length) {
    const hint = /^\d+(\.\d+)?$/.test(s) ? ' (add a unit)' : '';
    throw new ParamError([`"${text}" is not a duration${hint}: write e.g. 30s, 5m, 250ms, 1h or 1m30s`]);
  }
  ms = Math.round(ms);
  if (!Number.isSafeInteger(ms)) throw new ParamError([`duration "${text}" is too long`]);
  if (ms === 0 && !options.allowZero) throw new ParamError([`duration "${text}" is zero: give a positive duration such as 30s`]);
  return ms;
}

export const MAX_THREADS = 1024;

/**
 * Session counts to run, in the order given: '1,2,4,8', '1-4' (= 1,2,3,4), or both ('1-4,8,16'). Each is 1..1024 and
 * appears once. No step syntax: list the values.
 */
export function parseThreadList(text: string): number[] {
  const out: number[] = [];
  const seen = new Set<number>();
  const items = String(text).split(',');
  for (const raw of items) {
    const item = raw.trim();
    const m = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(item);
    if (!m) throw new ParamError([`thread list "${text}": "${item}" is not a number or range (write e.g. 1,2,4,8 or 1-4)`]);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) throw new ParamError([`thread list "${text}": the range ${a}-${b} runs backwards; write ${b}-${a}`]);
    for (const n of [a, b]) {
      if (n < 1 || n > MAX_THREADS) throw new ParamError([`thread list "${text}": ${n} is outside 1..${MAX_THREADS}`]);
    }
    for (let n = a; n <= b; n++) {
      if (seen.has(n)) throw new ParamError([`thread list "${text}": ${n} appears more than once`]);
      seen.add(n);
      out.push(n);
    }
  }
  return out;
}

// ---- parameter values ----

/** What a parameter accepts, in words: 'a whole number from 1 to 1000 (rows)'. */
export function describeAllowed(p: ParamSpec): string {
  switch (p.type) {
    case 'int': {
      const unit = p.unit ? ` (${p.unit})` : '';
      if (p.min !== undefined && p.max !== undefined) return `a whole number from ${p.min} to ${p.max}${unit}`;
      if (p.min !== undefined) return `a whole number of at least ${p.min}${unit}`;
      if (p.max !== undefined) return `a whole number of at most ${p.max}${unit}`;
      return `a whole number${unit}`;
    }
    case 'enum':
      return `one of ${(p.values ?? []).join(', ')}`;
    case 'bool':
      return 'true or false';
  }
}

const TRUE = new Set(['true', 'yes', 'on', '1']);
const FALSE = new Set(['false', 'no', 'off', '0']);

/** Checks one value (a string from --set, or any JSON value) against its spec; returns the typed value. */
export function coerceParam(p: ParamSpec, raw: unknown): ParamValue {
  const shown = typeof raw === 'string' ? `"${raw}"` : (JSON.stringify(raw) ?? String(raw));
  const fail = (why: string): never => {
    throw new ParamError([`Parameter ${p.name} (${p.label}): ${why}; allowed: ${describeAllowed(p)}. Given: ${shown}.`]);
  };
  switch (p.type) {
    case 'int': {
      let n: number;
      if (typeof raw === 'number') n = raw;
      else if (typeof raw === 'string') {
        try {
          n = parseInteger(raw);
        } catch (e) {
          return fail((e as Error).message);
        }
      } else return fail('not a number');
      if (!Number.isSafeInteger(n)) return fail('not a whole number');
      if (p.min !== undefined && n < p.min) return fail(`${n} is too small`);
      if (p.max !== undefined && n > p.max) return fail(`${n} is too large`);
      return n;
    }
    case 'enum': {
      if (typeof raw !== 'string') return fail('not text');
      const values = p.values ?? [];
      const exact = values.find((v) => v === raw.trim());
      const loose = values.find((v) => v.toLowerCase() === raw.trim().toLowerCase());
      return exact ?? loose ?? fail('not one of the choices');
    }
    case 'bool': {
      if (typeof raw === 'boolean') return raw;
      const s = String(raw).trim().toLowerCase();
      if ((typeof raw === 'string' || typeof raw === 'number') && TRUE.has(s)) return true;
      if ((typeof raw === 'string' || typeof raw === 'number') && FALSE.has(s)) return false;
      return fail('not a yes/no value');
    }
  }
}

/** 'k=v' strings into pairs. Values may contain '='; keys may not be empty or repeated. */
export function parseSetArgs(sets: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const problems: string[] = [];
  for (const s of sets) {
    const i = s.indexOf('=');
    const key = i < 0 ? '' : s.slice(0, i).trim();
    if (i < 0 || !key) {
      problems.push(`--set "${s}" is not name=value (write e.g. --set batch_size=2)`);
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(out, key)) problems.push(`--set gives ${key} more than once`);
    out[key] = s.slice(i + 1).trim();
  }
  if (problems.length) throw new ParamError(problems);
  return out;
}

/**
 * The parameter values for a run: defaults, then `json` (a settings file or the UI), then `--set` strings, each
 * validated. Every problem is collected, so one error lists them all; unknown names list the known ones.
 */
export function resolveParams(
  specs: readonly ParamSpec[],
  input: { json?: Record<string, unknown>; set?: readonly string[] } = {},
): Record<string, ParamValue> {
  const byName = new Map(specs.map((p) => [p.name, p]));
  const values: Record<string, ParamValue> = Object.fromEntries(specs.map((p) => [p.name, p.default]));
  const problems: string[] = [];
  const known = specs.length ? specs.map((p) => p.name).join(', ') : '(this scenario takes none)';
  const apply = (source: string, entries: [string, unknown][]) => {
    for (const [name, raw] of entries) {
      const p = byName.get(name);
      if (!p) {
        problems.push(`Unknown parameter ${name} (from ${source}); known parameters: ${known}.`);
        continue;
      }
      try {
        values[name] = coerceParam(p, raw);
      } catch (e) {
        problems.push(...(e instanceof ParamError ? e.problems : [(e as Error).message]));
      }
    }
  };
  if (input.json !== undefined) {
    if (input.json === null || typeof input.json !== 'object' || Array.isArray(input.json)) {
      problems.push('Parameters from JSON must be an object such as {"batch_size": 2}.');
    } else apply('JSON', Object.entries(input.json));
  }
  if (input.set) {
    try {
      apply('--set', Object.entries(parseSetArgs(input.set)));
    } catch (e) {
      problems.push(...(e as ParamError).problems);
    }
  }
  if (problems.length) throw new ParamError(problems);
  return values;
}

/** Problems in a manifest's own parameter list (so a broken manifest.json fails at load, not mid-run). */
export function checkParamSpecs(specs: readonly ParamSpec[], where: string): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const p of specs) {
    const at = `${where}: parameter ${p.name}`;
    if (!/^[a-z_][a-z0-9_]*$/.test(p.name)) problems.push(`${at}: names are lower_snake_case`);
    if (seen.has(p.name)) problems.push(`${at} is declared twice`);
    seen.add(p.name);
    if (p.type === 'enum' && !(p.values && p.values.length)) problems.push(`${at}: an enum needs values`);
    if (p.type === 'int' && p.min !== undefined && p.max !== undefined && p.min > p.max) {
      problems.push(`${at}: min ${p.min} is above max ${p.max}`);
    }
    if (!['int', 'enum', 'bool'].includes(p.type)) problems.push(`${at}: unknown type ${String(p.type)}`);
    else {
      try {
        coerceParam(p, p.default);
      } catch (e) {
        problems.push(`${where}: the default is not valid: ${(e as Error).message}`);
      }
    }
  }
  return problems;
}
