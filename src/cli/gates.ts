// --assert for every kind of run: gates parsed before anything connects (a typo fails at once, not after the run),
// judged against the finished experiment cell by cell on the intervals of its repetitions (src/shared/gates.ts); a
// failed gate turns a successful run's exit code into 1, an undecided one (and none failed) into 7, each named.
import type { Experiment } from '../shared/experiment';
import { evaluateGates, parseGate, type Gate, type GateResult } from '../shared/gates';
import { againstBaseline } from '../shared/experimentCompare';
import { NO_VERDICT } from '../shared/runPairing';
import { EXIT } from './exitCodes';
import { FIRST_LOOK, type SequentialDesign } from '../shared/sequential';
import type { SequentialOption } from '../engine/sequentialStop';

export function parseGates(texts: string[] | undefined): Gate[] {
  return (texts ?? []).map(parseGate);
}

const MARK = { pass: 'pass', fail: 'FAIL', inconclusive: 'INCONCLUSIVE' } as const;

/** `pass  rows_per_sec>=20000  at 8 threads: 24,100 [23,500, 24,700] (5 runs)`. */
export function gateLine(r: GateResult): string {
  return `${MARK[r.outcome]}  ${r.gate}  at ${r.run}: ${r.actual}${r.note ? ` (${r.note})` : ''}${r.settle ? `: ${r.settle}` : ''}`;
}

/** The "Against the baseline" section: each matched cell's throughput verdict, and what the baseline lacks. */
export function baselineSection(e: Experiment, baseline: Experiment, dir: string): string {
  const a = againstBaseline(e, baseline);
  const lines = [`\nAgainst the baseline (${dir})`];
  // A different workload is neither faster nor slower: the note, and no verdict per cell.
  if (a.note) lines.push(`  Note: ${a.note}`, `  ${NO_VERDICT}`);
  else for (const v of a.verdicts) lines.push(`  at ${v.cell}: ${v.verdict.text}`);
  if (!a.verdicts.length && !a.note) lines.push('  no cell (arm and thread count) of this experiment completed in the baseline too');
  if (a.unmatched.length) lines.push(`  not in the baseline: ${a.unmatched.join('; ')}`);
  return lines.join('\n') + '\n';
}

/** A saved experiment the run is judged against, and where it was read from. */
export interface Baseline {
  experiment: Experiment;
  dir: string;
}

/** The sequential design a saved experiment's gates are judged in (null: its repetitions were fixed). */
export function gateDesign(e: Pick<Experiment, 'design'>): SequentialDesign | null {
  const s = e.design?.sequential;
  return s ? { maxRepeat: s.maxRepeat, firstLook: s.firstLook } : null;
}

/** --repeat auto: a group of arms stops repeating once every gate on its cells is decided. */
export function sequentialGates(gates: readonly Gate[], baseline: Baseline | null, maxRepeat: number): SequentialOption {
  const design = { maxRepeat, firstLook: FIRST_LOOK };
  return {
    firstLook: FIRST_LOOK,
    decided: (runs, armIds) => {
      const mine = runs.filter((r) => armIds.includes(r.arm.id));
      return evaluateGates(gates, mine, baseline?.experiment.runs ?? null, design).every((r) => r.outcome !== 'inconclusive');
    },
  };
}

/**
 * The exit code after the gates: `code` unchanged when there are none or all pass; 1 when one fails; 7 when one
 * could not be decided and none failed. With a baseline, its section is printed first.
 */
export function applyGates(
  gates: Gate[],
  e: Experiment,
  code: number,
  out: (s: string) => void,
  err: (s: string) => void,
  baseline: Baseline | null = null,
  section = true,
): number {
  if (baseline && section) out(baselineSection(e, baseline.experiment, baseline.dir));
  if (!gates.length) return code;
  const results = evaluateGates(gates, e.runs, baseline ? baseline.experiment.runs : null, gateDesign(e));
  out(`\nGates\n${results.map((r) => `  ${gateLine(r)}`).join('\n')}\n`);
  const failed = results.filter((r) => r.outcome === 'fail');
  const open = results.filter((r) => r.outcome === 'inconclusive');
  const names = (rs: GateResult[]) => [...new Set(rs.map((f) => f.gate))];
  const list = (rs: GateResult[]) =>
    names(rs)
      .map((n) => `"${n}"`)
      .join(', ');
  // Where, not why: the Gates lines just printed say why, and saying it twice read as two failures.
  const where = (rs: GateResult[]) => [...new Set(rs.map((f) => f.run))].join(', ');
  if (failed.length) {
    err(`spinlab: gate${names(failed).length > 1 ? 's' : ''} failed: ${list(failed)} at ${where(failed)} (why: the Gates section above)\n`);
    return code === 0 || code === EXIT.inconclusive ? EXIT.failed : code;
  }
  if (open.length) {
    err(
      `spinlab: gate${names(open).length > 1 ? 's' : ''} inconclusive at this noise: ${list(open)} at ${where(open)} (what would settle it: the Gates section above)\n`,
    );
    return code === 0 ? EXIT.inconclusive : code;
  }
  return code;
}
