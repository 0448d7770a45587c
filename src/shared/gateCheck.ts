// Whether each --assert gate can be judged by the run asked for, checked before anything connects: a gate on a
// figure the run never measures (a latency in server-loop, calls of a scenario) or on a misspelt spinlock or wait
// would otherwise fail or pass on nothing after the whole run.
import type { Gate } from './gates';
import { benignWaitProblem, knownName, nameProblem } from './names';

export interface GateContext {
  /** What runs: a built-in scenario, a preset (its scenarios), or a custom workload (--sql). */
  kind: 'scenario' | 'preset' | 'custom';
  mode: 'server-loop' | 'client-loop';
  /** Accept a well-formed spinlock or wait name the catalogue lacks. */
  anyName: boolean;
}

/** Every reason the gates cannot be judged in this context, each naming the gate and what to write instead. */
export function gateProblems(gates: readonly Gate[], ctx: GateContext): string[] {
  const problems: string[] = [];
  for (const g of gates) {
    const what = `--assert "${g.text}"`;
    const m = g.metric;
    if (m.kind === 'latency' && ctx.kind !== 'custom' && ctx.mode === 'server-loop') {
      problems.push(
        `${what}: a server-loop run has no per-call latency (each session runs its whole loop inside one procedure call); add --mode client-loop, or gate on rows_per_sec.`,
      );
    } else if (m.kind === 'rate' && m.stat === 'calls_per_sec' && ctx.kind !== 'custom') {
      problems.push(
        `${what}: calls_per_sec counts the calls of a custom workload (--sql); a ${ctx.kind} counts rows: gate on rows_per_sec.`,
      );
    } else if (m.kind === 'per-row') {
      const kind = m.stat === 'wait_ms_per_row' ? 'wait' : 'spinlock';
      const p = nameProblem(kind, m.name, what, ctx.anyName) ?? (kind === 'wait' ? benignWaitProblem(m.name, what) : null);
      if (p) problems.push(p);
    }
  }
  return problems;
}

/** The gates with each known name spelled as the server spells it (LCK_M_RIn_NL, not LCK_M_RIN_NL). */
export function canonicalGates(gates: readonly Gate[]): Gate[] {
  return gates.map((g) => {
    if (g.metric.kind !== 'per-row') return g;
    const spelled = knownName(g.metric.stat === 'wait_ms_per_row' ? 'wait' : 'spinlock', g.metric.name);
    return spelled ? { ...g, metric: { ...g.metric, name: spelled } } : g;
  });
}
