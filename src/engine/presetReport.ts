// Plain-text views of a preset's experiment for the terminal: how it adapted, the arms and their runs, and the
// analysis views the preset asks for: A/B comparison between arms (each figure's change in percent and a summary
// built from the numbers), the scaling curves overlaid, doing the math, and the WRITELOG diagnosis.
import { formatNumber, runFigures } from '../shared/analysis';
import { compareArms, overlayScaling } from '../shared/armAnalysis';
import { coresFor, cycleMath } from '../shared/cycleMath';
import type { Experiment, RunRecord } from '../shared/experiment';
import { threadsPerCore } from '../shared/affinity';
import { diagnoseWritelog } from '../shared/writelogDiagnosis';
import type { Preset, PresetPlan } from './presets';
import { table } from './report';

const num = (v: number | null | undefined, digits = 0): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '-' : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
const small = (v: number | null | undefined): string => (v === null || v === undefined ? '-' : formatNumber(v));
const pct = (v: number | null): string => (v === null ? '-' : `${v > 0 ? '+' : ''}${v.toFixed(1)}%`);

function knobsText(r: RunRecord): string {
  const k = r.arm.knobs;
  const parts = [k.delayedDurability ? `DD ${k.delayedDurability}` : 'DD unchanged', k.affinity ? `affinity ${k.affinity.spec}` : 'affinity unchanged'];
  return parts.join(', ');
}

/** The value of a watched name in a run: spins per row, else wait ms per row, else latch ms per row. */
function watched(r: RunRecord, name: string): string {
  const f = runFigures(r);
  if (name in f.spinsPerRow) return `${small(f.spinsPerRow[name])} spins/row`;
  if (name in f.waitMsPerRow) return `${small(f.waitMsPerRow[name])} ms/row`;
  if (name in f.latchMsPerRow) return `${small(f.latchMsPerRow[name])} ms/row`;
  return '0';
}

export function presetReport(e: Experiment, preset: Preset, plan: Pick<PresetPlan, 'arms' | 'comparisons'>, unit = 'rows'): string {
  const out: string[] = [];
  if (e.simulated) out.push('SIMULATED: these numbers come from the Spinlock Lab simulator, not from a SQL Server.\n');
  out.push(`${e.title}\npreset ${preset.id} (seed ${preset.seed}); server ${e.server.serverName} (${e.server.productVersion}, ${e.server.edition}); lab database [${e.labDatabase}]`);
  out.push(`Question: ${preset.question}`);
  const notes = e.preset?.notes ?? [];
  if (notes.length) {
    out.push('\nHow it adapted to this server');
    for (const n of notes) out.push(`  - ${n}`);
  }

  out.push('\nRuns');
  out.push(table(['arm', 'threads', `${unit}/s`, unit, 'elapsed s', 'knobs', ...preset.watch],
    e.runs.map((r) => [r.arm.label + (r.status === 'completed' ? '' : ` (${r.status})`), String(r.threads), num(r.derived.rowsPerSec), num(r.rows), num(r.elapsedMs / 1000, 1),
      knobsText(r), ...preset.watch.map((w) => watched(r, w))])));

  if (preset.views.includes('ab')) {
    for (const c of plan.comparisons) {
      const at = compareArms(e.runs, c.a, c.b);
      out.push(`\nA/B: ${c.label}`);
      if (!at.length) {
        out.push('  (no thread count completed in both arms)');
        continue;
      }
      const last = at[at.length - 1];
      out.push(`at ${last.threads} threads:`);
      out.push(table(['figure', 'A', 'B', 'change'], last.comparison.figures.filter((f) => f.key !== 'threads')
        .map((f) => [`${f.label}${f.unit ? ` (${f.unit})` : ''}`, small(f.a), small(f.b), pct(f.changePct)])));
      for (const s of last.summary) out.push(`  ${s}`);
      for (const other of at.slice(0, -1)) out.push(`  at ${other.threads} threads: ${other.summary.join(' ')}`);
    }
  }

  if (preset.views.includes('scaling') && plan.arms.some((a) => a.threads.length > 1)) {
    const ov = overlayScaling(e.id, plan.arms, e.runs);
    out.push('\nScaling: throughput, spins per row (all spinlocks) and wait ms per row (benign excluded) by thread count');
    const headers = ['threads', ...ov.arms.flatMap((a) => [`${a.id} ${unit}/s`, `${a.id} spins/row`, `${a.id} wait ms/row`])];
    out.push(table(headers, ov.threads.map((t) => [String(t), ...ov.arms.flatMap((a) => {
      const p = a.curve.points.find((x) => x.threads === t);
      return p ? [num(p.rowsPerSec), small(p.spinsPerRow), small(a.waitMsPerRow[t] ?? 0)] : ['-', '-', '-'];
    })])));
    for (const a of ov.arms) out.push(`  ${a.label}: ${a.summary}`);
  }

  if (preset.views.includes('math')) {
    out.push('\nDoing the math: cycles = elapsed s x CPUs x measured clock rate; per spin and per row');
    const tpc = threadsPerCore(e.topology);
    for (const r of e.runs.filter((x) => x.status === 'completed')) {
      const spins = Object.fromEntries(Object.entries(r.totals.spinlocks).map(([k, s]) => [k, s.spins]));
      const m = cycleMath({ elapsedSec: r.derived.elapsedSec, cpus: r.derived.cpusUsed, cpuBasis: 'logical CPUs', clockHz: r.derived.clockHz, clock: r.derived.clock, spins, rows: r.rows });
      const clock = r.derived.clock ? ` (clock: ${num(r.derived.clock.cpuTicksDelta)} cpu_ticks over ${num(r.derived.clock.msTicksDelta)} ms_ticks)` : '';
      out.push(`${r.arm.label}, ${r.threads} threads: ${m.formula}${clock}; ${small(m.cyclesPerRow)} cycles per row`);
      if (tpc > 1) {
        const cores = cycleMath({ ...m.inputs, cpus: coresFor(r.derived.cpusUsed, tpc), cpuBasis: 'physical cores' });
        out.push(`  on physical cores, as the seed counts them: ${cores.formula}`);
      }
      const names = new Set([...preset.watch.filter((w) => spins[w]), ...m.perSpinlock.slice(0, 3).map((s) => s.name)]);
      for (const s of m.perSpinlock.filter((x) => names.has(x.name))) {
        out.push(`  ${s.name}: ${num(s.spins)} spins, ${small(s.cyclesPerSpin)} cycles per spin, ${small(s.spinsPerRow)} spins per row`);
      }
    }
  }

  if (preset.views.includes('writelog')) {
    out.push("\nWRITELOG diagnosis (seed 003's figures and thresholds)");
    for (const r of e.runs.filter((x) => x.status === 'completed')) {
      const d = diagnoseWritelog({ totals: r.totals, timeline: r.timeline, majorVersion: e.server.majorVersion });
      out.push(`${r.arm.label}, ${r.threads} threads: ${d.summary}`);
      out.push(table(['figure', 'verdict', 'seed 003'], d.lines.map((l) => [l.label, l.verdict, l.threshold])));
    }
  }

  const problems = e.events.filter((x) => x.level !== 'info');
  if (problems.length) {
    out.push('\nWhat happened');
    for (const p of problems) out.push(`  ${p.level}: ${p.message}`);
  }
  return out.join('\n');
}
