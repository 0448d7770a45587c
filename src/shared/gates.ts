// CI gates: "p99<5ms", "rows_per_sec>20000", "LOGCACHE_ACCESS.spins_per_row<50". A small pure parser and evaluator:
// each gate holds for every run of the experiment, or the command fails naming the gate, the run and the value.
import type { RunRecord } from './experiment';
import { SpinlabError } from './spinlabError';

export type GateOp = '<' | '<=' | '>' | '>=' | '=' | '!=';
export type GateMetric =
  | { kind: 'latency'; stat: 'p50' | 'p90' | 'p99' | 'p999' | 'max' | 'mean' }
  | { kind: 'rate'; stat: 'rows_per_sec' | 'calls_per_sec' }
  | { kind: 'errors'; stat: 'errors' | 'error_rate' }
  | { kind: 'per-row'; name: string; stat: 'spins_per_row' | 'backoffs_per_row' | 'wait_ms_per_row' };
export interface Gate {
  text: string;
  metric: GateMetric;
  op: GateOp;
  /** In the metric's base unit: microseconds for latency, plain numbers otherwise. */
  value: number;
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
  'write METRIC OP VALUE, e.g. "p99<5ms", "rows_per_sec>20000", "LOGCACHE_ACCESS.spins_per_row<50" ' +
  `(metrics: ${[...LATENCY, ...RATES, ...ERRORS].join(', ')}, NAME.${PER_ROW.join(', NAME.')}; ops: < <= > >= = !=)`;

export function parseGate(text: string): Gate {
  const m =
    /^\s*([A-Za-z_][\w$#]*(?:\.[A-Za-z_]\w*)?)\s*(<=|>=|!=|==|<|>|=)\s*(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-zµ%]*)\s*$/.exec(
      text,
    );
  if (!m) throw new GateError(`--assert "${text}": not a gate; ${HELP}.`);
  const [, name, rawOp, num, unit] = m;
  const op = (rawOp === '==' ? '=' : rawOp) as GateOp;
  const n = Number(num);
  if (!Number.isFinite(n)) throw new GateError(`--assert "${text}": ${num} is not a finite number.`);
  const lower = name.toLowerCase();
  const dot = name.lastIndexOf('.');
  const stat = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  const known = [...LATENCY, ...RATES, ...ERRORS].includes(lower as never) || (dot > 0 && (PER_ROW as readonly string[]).includes(stat));
  if (!known) throw new GateError(`--assert "${text}": unknown metric '${name}'; ${HELP}.`);
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

export function holds(op: GateOp, actual: number, limit: number): boolean {
  switch (op) {
    case '<':
      return actual < limit;
    case '<=':
      return actual <= limit;
    case '>':
      return actual > limit;
    case '>=':
      return actual >= limit;
    case '=':
      return actual === limit;
    case '!=':
      return actual !== limit;
  }
}

export interface GateResult {
  gate: string;
  ok: boolean;
  /** Which run, by thread count (and arm in a preset). */
  run: string;
  actual: string;
}

function show(metric: GateMetric, v: number): string {
  if (metric.kind === 'latency')
    return v >= 1e6 ? `${+(v / 1e6).toPrecision(4)}s` : v >= 1000 ? `${+(v / 1000).toPrecision(4)}ms` : `${+v.toPrecision(4)}us`;
  return String(+v.toPrecision(6));
}

/** Every gate against every run that completed; a gate with no runs to judge fails, and so does a failed run. */
export function evaluateGates(gates: Gate[], runs: RunRecord[]): GateResult[] {
  const judged = runs.filter((r) => r.status === 'completed' || r.status === 'failed');
  const out: GateResult[] = [];
  for (const g of gates) {
    if (judged.length === 0) {
      out.push({ gate: g.text, ok: false, run: '-', actual: 'no completed run to judge' });
      continue;
    }
    for (const r of judged) {
      const label = `${r.threads} thread${r.threads === 1 ? '' : 's'}${r.arm && r.arm.id !== 'main' ? ` (${r.arm.label})` : ''}`;
      // Its figures describe work that did not happen: no gate holds on them.
      if (r.status === 'failed') {
        out.push({ gate: g.text, ok: false, run: label, actual: `the run failed${r.failedReason ? ` (${r.failedReason})` : ''}` });
        continue;
      }
      const v = gateValue(g.metric, r);
      if (typeof v !== 'number') out.push({ gate: g.text, ok: false, run: label, actual: v.missing });
      else out.push({ gate: g.text, ok: holds(g.op, v, g.value), run: label, actual: show(g.metric, v) });
    }
  }
  return out;
}
