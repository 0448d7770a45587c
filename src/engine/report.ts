// Plain-text views of an experiment for the terminal: the results table printed at the end of a run.
import { isBenignWait } from '../shared/benign';
import type { Experiment, RunRecord } from '../shared/experiment';
import { topN } from './topN';
import { coresFor, runCycleMath } from '../shared/cycleMath';
import { runFigures } from '../shared/analysis';
import { figureText } from '../shared/numberText';
import { describeSpread } from '../shared/sessionSpread';
import { isRepeated } from '../shared/repeats';
import { scenarioRepeatSection } from './repeatReport';
import { table } from './textTable';
import { othersBusy, SHARE_PERMISSION } from '../shared/ownShare';
import { plural } from '../shared/plural';
import { customReport, sessionWaitsSection } from './custom/report';
import { ownedServer, perCallNa, OWNED_SHARE, shareCell as ownShareCell } from '../shared/customHeadline';

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** A latency with no sample (no call completed, or the server loop) is '-', never 0. */
const latencyCell = (us: number | null | undefined) => (us === null || us === undefined ? '-' : fmt(us));

/** The plain-text table, here for the modules that print with the report. */
export { table };

function runLabel(r: RunRecord): string {
  return `${r.threads}${r.status === 'completed' ? '' : ` (${r.status})`}`;
}

/** The run's repetition, for the tables of repeated runs. */
const rep = (repeated: boolean, r: RunRecord) => (repeated ? [String(r.repetition ?? 1)] : []);
/** A run in a sentence: "8 threads", and its arm and repetition when the runs were repeated. */
const runName = (repeated: boolean, r: RunRecord) =>
  repeated
    ? `${r.arm.id !== 'main' ? `${r.arm.label}, ` : ''}${plural(r.threads, 'thread')}, repetition ${r.repetition ?? 1}`
    : plural(r.threads, 'thread');

/** The run's own share of the server's CPU and waits ("13%, 0%"), '-' when not read. */
function shareCell(r: RunRecord): string {
  return ownShareCell(r.share);
}

/** What the share column means, and what it says about the server-wide figures below when others were busy. */
function shareNote(runs: readonly RunRecord[]): string {
  const busy = runs.filter((r) => othersBusy(r.share));
  const what =
    "own share: the workload's own sessions' CPU and waits over the server's totals, Spinlock Lab's monitor left out (sys.dm_exec_sessions, sys.dm_exec_requests, sys.dm_exec_session_wait_stats, each tick)";
  if (!runs.some((r) => r.share)) return `${what}: not read (it needs ${SHARE_PERMISSION}; older records lack it)`;
  return busy.length
    ? `${what}.\n  Others busy: other sessions did a meaningful part of the server's work in ${busy.length} of ${runs.length} run${runs.length === 1 ? '' : 's'}; the spinlock, wait and latch figures below are server-wide and include their work.`
    : what;
}

/**
 * A custom workload's server-wide heading: its figures are every session's, per second; per call only in a run where
 * the workload owned the server (shared/customHeadline.ts), and the reason in a run where it did not.
 */
function serverWideHeading(runs: readonly RunRecord[], repeated: boolean): string {
  const lines = [
    `\nServer-wide (every session on the server), per second: not the workload's alone. Per call only where the workload owned the server (its own share ${Math.round(OWNED_SHARE * 100)}% or more).`,
  ];
  for (const r of runs) if (!ownedServer(r.share)) lines.push(`  ${runName(repeated, r)}: per call: ${perCallNa(r.share)}`);
  return lines.join('\n');
}

export function resultsReport(e: Experiment, unit = 'rows'): string {
  // A custom workload counts calls, whatever unit its caller guessed (the notebook asks the scenario catalogue).
  if (e.custom) unit = 'calls';
  const custom = !!e.custom;
  const out: string[] = [];
  if (e.simulated) out.push('SIMULATED: these numbers come from the Spinlock Lab simulator, not from a SQL Server.\n');
  out.push(
    `${e.title}\nserver ${e.server.serverName} (${e.server.productVersion}, ${e.server.edition}); lab database [${e.labDatabase}]; ${e.load.mode}`,
  );
  out.push('');
  const repeated = isRepeated(e.runs);
  const one = unit.replace(/s$/, '');
  // Arms are named in the tables of repeated runs; a record of one run each prints as it always did.
  const armed = repeated && e.runs.some((r) => r.arm.id !== 'main');
  const arm = (r: RunRecord) => (armed ? [r.arm.label] : []);
  // A custom workload's headline is its own sessions' work; the server-wide figures follow under their own heading.
  if (custom) out.push(customReport(e));
  else
    out.push(
      table(
        [
          ...(armed ? ['arm'] : []),
          'threads',
          ...(repeated ? ['repetition'] : []),
          `${unit}/s`,
          unit,
          'elapsed s',
          'p50 µs',
          'p99 µs',
          e.load.mode === 'client-loop' ? 'client CPU µs/call' : 'client CPU µs/row',
          'sessions failed',
          'own share of server CPU, waits',
        ],
        e.runs.map((r) => [
          ...arm(r),
          runLabel(r),
          ...rep(repeated, r),
          figureText(runFigures(r).rowsPerSec),
          figureText(runFigures(r).rows),
          fmt(r.elapsedMs / 1000, 1),
          latencyCell(r.latency?.p50Us),
          latencyCell(r.latency?.p99Us),
          r.client.cpuUsPerCall === null ? '-' : fmt(r.client.cpuUsPerCall, 1),
          String(r.sessionFailures.length),
          shareCell(r),
        ]),
      ),
    );
  out.push(shareNote(e.runs));
  out.push(
    `${unit}/s: ${unit} over the measured time on the server's clock (the same figure in experiment.json, the notebook and the panel)`,
  );
  if (!custom) out.push(scenarioRepeatSection(e.runs, unit));
  for (const r of e.runs)
    if (r.sessionSpread) out.push(`  ${runName(repeated, r)}: ${describeSpread(r.sessionSpread, runFigures(r).rowsPerSec, unit)}`);
  const names = (pick: (r: RunRecord) => Record<string, number>, n: number) => {
    const merged: Record<string, { v: number }> = {};
    for (const r of e.runs) for (const [k, v] of Object.entries(pick(r))) merged[k] = { v: (merged[k]?.v ?? 0) + v };
    return topN(merged, 'v', n).map((x) => x.name);
  };
  const section = (title: string, pick: (r: RunRecord) => Record<string, number>, perRow: (r: RunRecord, name: string) => string) => {
    const top = names(pick, 5);
    if (!top.length) return;
    out.push(`\n${title}`);
    out.push(
      table(
        [...(armed ? ['arm'] : []), 'threads', ...(repeated ? ['repetition'] : []), ...top],
        e.runs.map((r) => [...arm(r), runLabel(r), ...rep(repeated, r), ...top.map((name) => perRow(r, name))]),
      ),
    );
  };
  // Per unit only where the workload's figures are its own: every built-in scenario's, a custom one's that owned the server.
  const perUnit = (r: RunRecord) => !custom || ownedServer(r.share);
  const anyPerUnit = e.runs.some(perUnit);
  if (custom) out.push(serverWideHeading(e.runs, repeated));
  section(
    `Top spinlocks, server-wide (every session on the server): spins per second${anyPerUnit ? ` (spins per ${one})` : ''}`,
    (r) => Object.fromEntries(Object.entries(r.totals.spinlocks).map(([k, v]) => [k, v.spins])),
    (r, name) => {
      const s = r.totals.spinlocks[name]?.spins ?? 0;
      const perSec = fmt(s / Math.max(r.elapsedMs / 1000, 1e-9));
      if (!anyPerUnit) return perSec;
      return `${perSec} (${perUnit(r) ? figureText(runFigures(r).spinsPerRow[name] ?? 0) : 'n/a'})`;
    },
  );
  section(
    'Top waits, server-wide (every session on the server), benign excluded: ms per second',
    (r) =>
      Object.fromEntries(
        Object.entries(r.totals.waits)
          .filter(([k]) => !isBenignWait(k))
          .map(([k, v]) => [k, v.waitMs]),
      ),
    (r, name) => fmt((r.totals.waits[name]?.waitMs ?? 0) / Math.max(r.elapsedMs / 1000, 1e-9), 1),
  );
  section(
    'Top latches, server-wide (every session on the server): wait ms per second',
    (r) => Object.fromEntries(Object.entries(r.totals.latches).map(([k, v]) => [k, v.waitMs])),
    (r, name) => fmt((r.totals.latches[name]?.waitMs ?? 0) / Math.max(r.elapsedMs / 1000, 1e-9), 1),
  );
  if (custom) {
    const waits = sessionWaitsSection(e.runs);
    if (waits) out.push(waits);
  }
  mathSection(e, out, (r) => runName(repeated, r), one, perUnit);
  const costed = e.runs.filter((r) => r.monitorCost);
  if (costed.length) {
    out.push('\nWhat Spinlock Lab cost the server (its monitor session, per tick)');
    out.push(
      table(
        [
          ...(armed ? ['arm'] : []),
          'threads',
          ...(repeated ? ['repetition'] : []),
          'CPU ms',
          'logical reads',
          'page writes',
          'scheduled ms',
          'recompiles (server)',
          'server CPU ms',
          'batches',
        ],
        costed.map((r) => {
          const c = r.monitorCost!;
          return [
            ...arm(r),
            runLabel(r),
            ...rep(repeated, r),
            fmt(c.cpuMsPerTick, 2),
            fmt(c.logicalReadsPerTick),
            fmt(c.writesPerTick),
            fmt(c.scheduledMsPerTick, 2),
            c.recompilesPerTick === null ? '-' : fmt(c.recompilesPerTick, 2),
            fmt(c.serverCpuMsPerTick),
            fmt(c.batchRequestsPerTick),
          ];
        }),
      ),
    );
  }
  const problems = e.events.filter((x) => x.level !== 'info');
  if (problems.length) {
    out.push('\nWhat happened');
    for (const p of problems) out.push(`  ${p.level}: ${p.message}`);
  }
  return out.join('\n');
}

/** "Doing the math" per completed run: the CPUs the run used (with their inputs), and the measured basis beside it. */
function mathSection(e: Experiment, out: string[], name: (r: RunRecord) => string, one: string, perUnit: (r: RunRecord) => boolean): void {
  // Cycles per call of a custom workload that did not own the server would be the server's cycles over its calls.
  const runs = e.runs.filter((r) => r.status === 'completed' && r.rows > 0 && perUnit(r));
  if (!runs.length) return;
  out.push('\nDoing the math: cycles = elapsed s x CPUs used x measured clock rate');
  for (const r of runs) {
    const spins = Object.fromEntries(Object.entries(r.totals.spinlocks).map(([k, s]) => [k, s.spins]));
    const m = runCycleMath(r.derived, spins, r.rows);
    const perRow = (v: number | null) => (v === null ? 'unknown' : fmt(v));
    out.push(`  ${name(r)}: ${m.formula}; ${perRow(m.cyclesPerRow)} cycles per ${one}`);
    const tpc = r.derived.cpuCount?.threadsPerCore ?? 1;
    if (tpc > 1) out.push(`    physical cores, as the posts count them: ${coresFor(r.derived.cpusUsed, tpc)}`);
    if (m.measured) out.push(`    measured: ${m.measured.formula}; ${perRow(m.measured.cyclesPerRow)} cycles per ${one}`);
  }
}
