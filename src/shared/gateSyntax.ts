// CI gates: "p99<5ms", "rows_per_sec>20000", "LOGCACHE_ACCESS.spins_per_row<50", "rows_per_sec >= baseline - 5%".
// A small pure parser, and the value of a gate's metric in one run; gates.ts judges them on each cell's repetitions.
import type { RunRecord } from './experiment';
import { SpinlabError } from './spinlabError';
import type { GateOp } from './gateDecision';

export type { GateOp } from './gateDecision';

export type GateMetric =
  | { kind: 'latency'; stat: 'p50' | 'p90' | 'p99' | 'p999' | 'max' | 'mean' }
  | { kind: 'rate'; stat: 'rows_per_sec' | 'calls_per_sec' }
  | { kind: 'errors'; stat: 'errors' | 'error_rate' }
  | { kind: 'per-row'; name: string; stat: 'spins_per_row' | 'backoffs_per_row' | 'wait_ms_per_row' };
export interface Gate {
  text: string;
  metric: GateMetric;
  op: GateOp;
  /**
   * In the metric's base unit: microseconds for latency, plain numbers otherwise. For a gate against the baseline,
   * the factor the baseline's figure is multiplied by: "baseline - 5%" is 0.95.
   */
  value: number;
  /** Present when the gate compares with a saved experiment (--baseline DIR) instead of a number. */
  against?: 'baseline';
  /** An equivalence gate (op '~=': "within 5% of", "~= ... ± 5%"): the margin, 0.05; the band is value/1.05 to value*1.05. */
  margin?: number;
}

export class GateError extends SpinlabError {
  constructor(message: string) {
    super('user-input', message);
  }
}

const LATENCY = ['p50', 'p90', 'p99', 'p999', 'max', 'mean'] as const;
const RATES = ['rows_per_sec', 'calls_per_sec'] as const;
const ERRORS = ['errors', 'error_rate'] as const;
const PER_ROW = ['spins_per_row', 'backoffs_per_row', 'wait_ms_per_row'] as const;
const TIME_UNITS: Record<string, number> = { us: 1, µs: 1, ms: 1000, s: 1_000_000 };
const SCALE: Record<string, number> = { '': 1, k: 1e3, K: 1e3, m: 1e6, M: 1e6, g: 1e9, G: 1e9 };
const HELP =
  'write METRIC OP VALUE, e.g. "p99<5ms", "rows_per_sec>20000", "LOGCACHE_ACCESS.spins_per_row<50", ' +
  '"rows_per_sec >= baseline - 5%", "rows_per_sec within 5% of baseline" ' +
  `(metrics: ${[...LATENCY, ...RATES, ...ERRORS].join(', ')}, NAME.${PER_ROW.join(', NAME.')}; ops: < <= > >= = !=; ` +
  'VALUE: a number, or baseline, baseline + N%, baseline - N% with --baseline DIR; or METRIC within N% of VALUE, ' +
  'METRIC ~= VALUE ± N%)';
const NUMBER = '-?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?';
const GATE = new RegExp(
  `^\\s*([A-Za-z_][\\w$#]*(?:\\.[A-Za-z_]\\w*)?)\\s*(<=|>=|!=|==|<|>|=)\\s*(?:(${NUMBER})\\s*([A-Za-zµ%]*)|(baseline)(?:\\s*([-+])\\s*(${NUMBER})\\s*%)?)\\s*$`,
);

export function parseGate(text: string): Gate {
  if (/\bwithin\b|~=/i.test(text)) return parseWithin(text);
  const m = GATE.exec(text);
  if (!m) throw new GateError(`--assert "${text}": not a gate; ${HELP}.`);
  const [, name, rawOp, num, unit, base, sign, pctText] = m;
  const op = (rawOp === '==' ? '=' : rawOp) as GateOp;
  const lower = name.toLowerCase();
  const dot = name.lastIndexOf('.');
  const stat = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  const known = [...LATENCY, ...RATES, ...ERRORS].includes(lower as never) || (dot > 0 && (PER_ROW as readonly string[]).includes(stat));
  if (!known) throw new GateError(`--assert "${text}": unknown metric '${name}'; ${HELP}.`);
  if (base !== undefined) return baselineGate(text, name, op, sign, pctText);
  const n = Number(num);
  if (!Number.isFinite(n)) throw new GateError(`--assert "${text}": ${num} is not a finite number.`);
  if ((LATENCY as readonly string[]).includes(lower)) {
    const f = TIME_UNITS[unit];
    if (f === undefined) throw new GateError(`--assert "${text}": a latency needs a unit: us, ms or s (e.g. ${lower}<5ms).`);
    return {
      text,
      metric: { kind: 'latency', stat: lower as GateMetric & { kind: 'latency' } extends { stat: infer S } ? S : never },
      op,
      value: n * f,
    };
  }
  const scale = SCALE[unit];
  if (scale === undefined) throw new GateError(`--assert "${text}": '${unit}' is not a unit here; a count takes k, M or G, or none.`);
  if ((RATES as readonly string[]).includes(lower))
    return { text, metric: { kind: 'rate', stat: lower as 'rows_per_sec' }, op, value: n * scale };
  if ((ERRORS as readonly string[]).includes(lower))
    return { text, metric: { kind: 'errors', stat: lower as 'errors' }, op, value: n * scale };
  if (dot > 0 && (PER_ROW as readonly string[]).includes(stat)) {
    return {
      text,
      metric: { kind: 'per-row', name: name.slice(0, dot).toUpperCase(), stat: stat as 'spins_per_row' },
      op,
      value: n * scale,
    };
  }
  throw new GateError(`--assert "${text}": unknown metric '${name}'; ${HELP}.`);
}

const WITHIN_HELP =
  'write METRIC within N% of VALUE or METRIC ~= VALUE ± N% (also +- or +/-), e.g. "rows_per_sec within 5% of baseline", ' +
  '"p99 ~= 5ms ± 10%"; VALUE: baseline (with --baseline DIR) or a number with its unit';
const NAME = '([A-Za-z_][\\w$#]*(?:\\.[A-Za-z_]\\w*)?)';
const VALUE = `(baseline|${NUMBER}\\s*[A-Za-zµ]*)`;
const MARGIN = `(${NUMBER})\\s*%`;
const WITHIN = new RegExp(`^\\s*${NAME}\\s+within\\s+${MARGIN}\\s+of\\s+${VALUE}\\s*$`, 'i');
const APPROX = new RegExp(`^\\s*${NAME}\\s*~=\\s*${VALUE}\\s*(?:±|\\+-|\\+/-)\\s*${MARGIN}\\s*$`, 'i');

/**
 * An equivalence gate: the figure (or its ratio to the baseline) within a margin either way, judged by two one-sided
 * tests on the 90% interval (inside the band passes, wholly outside fails). The band is symmetric on the ratio scale:
 * within 5% is 1/1.05 to 1.05, so this run against the baseline and the baseline against this run say the same.
 */
function parseWithin(text: string): Gate {
  const w = WITHIN.exec(text);
  const a = w ? null : APPROX.exec(text);
  if (!w && !a) {
    const approxNoMargin = /~=/.test(text) && !/(±|\+-|\+\/-)/.test(text);
    throw new GateError(
      `--assert "${text}": ${approxNoMargin ? 'an equivalence needs its margin (a figure is never exactly a value), e.g. "rows_per_sec ~= baseline ± 5%"' : 'not an equivalence gate'}; ${WITHIN_HELP}.`,
    );
  }
  const [, name, first, second] = w ?? a!;
  const [pctText, valueText] = w ? [first, second] : [second, first];
  const lower = name.toLowerCase();
  const dot = name.lastIndexOf('.');
  const known =
    [...LATENCY, ...RATES, ...ERRORS].includes(lower as never) ||
    (dot > 0 && (PER_ROW as readonly string[]).includes(name.slice(dot + 1).toLowerCase()));
  if (!known) throw new GateError(`--assert "${text}": unknown metric '${name}'; ${HELP}.`);
  const metric = metricOf(name);
  if (metric.kind === 'errors')
    throw new GateError(`--assert "${text}": ${metric.stat} is judged run by run against a number (e.g. errors=0), not within a margin.`);
  const pct = Number(pctText);
  if (!(pct > 0 && pct <= 100))
    throw new GateError(`--assert "${text}": the margin must be a percentage above 0 and at most 100, e.g. within 5% of baseline.`);
  const margin = pct / 100;
  if (/^baseline$/i.test(valueText)) return { text, metric, op: '~=', value: 1, against: 'baseline', margin };
  // The value as a plain gate would read it ("p99<5ms" for the units), so both forms accept the same numbers.
  let plain: Gate;
  try {
    plain = parseGate(`${name}<=${valueText.replace(/\s+/g, '')}`);
  } catch (e) {
    throw new GateError(`--assert "${text}": ${(e as Error).message.replace(/^--assert "[^"]*": /, '')}`);
  }
  if (!(plain.value > 0))
    throw new GateError(
      `--assert "${text}": a margin in percent needs a value above 0; ${valueText} is not (write e.g. "${name} <= ${valueText}").`,
    );
  return { text, metric, op: '~=', value: plain.value, margin };
}

/** The metric of a known name (checked by the caller): latency, rate, errors, or NAME.per-row. */
function metricOf(name: string): GateMetric {
  const lower = name.toLowerCase();
  const dot = name.lastIndexOf('.');
  if ((LATENCY as readonly string[]).includes(lower)) return { kind: 'latency', stat: lower as 'p99' };
  if ((RATES as readonly string[]).includes(lower)) return { kind: 'rate', stat: lower as 'rows_per_sec' };
  if ((ERRORS as readonly string[]).includes(lower)) return { kind: 'errors', stat: lower as 'errors' };
  return { kind: 'per-row', name: name.slice(0, dot).toUpperCase(), stat: name.slice(dot + 1).toLowerCase() as 'spins_per_row' };
}

/** "rows_per_sec >= baseline - 5%": the figure against the baseline's, as a factor on it. */
function baselineGate(text: string, name: string, op: GateOp, sign: string | undefined, pctText: string | undefined): Gate {
  const metric = metricOf(name);
  if (metric.kind === 'errors')
    throw new GateError(
      `--assert "${text}": ${metric.stat} is judged run by run against a number (e.g. errors=0), not against the baseline.`,
    );
  if (op === '=' || op === '!=')
    throw new GateError(
      `--assert "${text}": a figure is never exactly the baseline's; compare with < <= > >= (e.g. "${name} <= baseline + 10%").`,
    );
  const pct = pctText === undefined ? 0 : Number(pctText);
  // Less than the whole figure below it (baseline - 100% is no gate at all); any margin above it.
  if (!Number.isFinite(pct) || pct < 0 || (sign === '-' && pct >= 100) || (pctText !== undefined && pctText.startsWith('-')))
    throw new GateError(`--assert "${text}": write the margin as a percentage, e.g. baseline - 5% (below 100%) or baseline + 10%.`);
  const factor = sign === '-' ? 1 - pct / 100 : 1 + pct / 100;
  return { text, metric, op, value: factor, against: 'baseline' };
}

/** The metric's value for one run, or a reason it has none. */
export function gateValue(metric: GateMetric, run: RunRecord): number | { missing: string } {
  switch (metric.kind) {
    case 'latency': {
      if (!run.latency || run.latency.count === 0)
        return { missing: 'no per-call latency (it is measured in --mode client-loop and for custom workloads)' };
      const l = run.latency;
      const v = { p50: l.p50Us, p90: l.p90Us, p99: l.p99Us, p999: l.p999Us, max: l.maxUs, mean: l.meanUs }[metric.stat];
      // No sample is no latency: it must fail "p99<5ms", not pass it as 0.
      return v ?? { missing: 'no call completed, so there is no latency' };
    }
    case 'rate':
      if (metric.stat === 'calls_per_sec' && run.custom)
        return run.elapsedMs > 0 ? run.custom.calls / (run.elapsedMs / 1000) : run.derived.rowsPerSec;
      return run.derived.rowsPerSec;
    case 'errors': {
      const failed = run.custom ? run.custom.failedCalls : run.sessionFailures.length;
      if (metric.stat === 'errors') return failed;
      const total = run.custom ? run.custom.calls + run.custom.failedCalls : run.threads;
      return total > 0 ? failed / total : 0;
    }
    case 'per-row': {
      // A spinlock or wait that did not move is absent from the per-row maps: zero per row. Names match in any case
      // (the server spells a few in mixed case, LCK_M_RIn_NL; a gate's name is upper-cased).
      const map =
        metric.stat === 'spins_per_row'
          ? run.derived.spinsPerRow
          : metric.stat === 'backoffs_per_row'
            ? run.derived.backoffsPerRow
            : run.derived.waitMsPerRow;
      const key = metric.name in map ? metric.name : Object.keys(map).find((k) => k.toUpperCase() === metric.name.toUpperCase());
      return key === undefined ? 0 : map[key];
    }
  }
}
