// --assert for every kind of run: gates parsed before anything connects (a typo fails at once, not after the run),
// judged against the finished experiment; a failed gate turns a successful run's exit code into 1 and is named.
import type { Experiment } from '../shared/experiment';
import { evaluateGates, parseGate, type Gate } from '../shared/gates';

export function parseGates(texts: string[] | undefined): Gate[] {
  return (texts ?? []).map(parseGate);
}

/** The exit code after the gates: `code` unchanged when there are none or all hold; 1 when one fails. */
export function applyGates(gates: Gate[], e: Experiment, code: number, out: (s: string) => void, err: (s: string) => void): number {
  if (!gates.length) return code;
  const results = evaluateGates(gates, e.runs);
  const failed = results.filter((r) => !r.ok);
  out(`\nGates\n${results.map((r) => `  ${r.ok ? 'pass' : 'FAIL'}  ${r.gate}  at ${r.run}: ${r.actual}`).join('\n')}\n`);
  if (!failed.length) return code;
  const names = [...new Set(failed.map((f) => f.gate))];
  err(
    `spinlab: gate${names.length > 1 ? 's' : ''} failed: ${names.map((n) => `"${n}"`).join(', ')} (${failed.map((f) => `${f.gate} at ${f.run}: ${f.actual}`).join('; ')})\n`,
  );
  return code === 0 ? 1 : code;
}
