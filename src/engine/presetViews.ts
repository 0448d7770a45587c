// The analysis views of a preset's experiment as tables and sentences, computed from the record alone: its runs by
// arm, each arm and thread count over its repetitions (when repeated), the A/B comparisons between arms
// (presetViews/ab.ts), the scaling curves overlaid (scaling.ts), the noise (repeats.ts), doing the math, and the
// WRITELOG diagnosis. The terminal report (presetReport.ts) prints them as text; the notebook writer renders them as
// HTML and text tables.
import { runFigures, type RunFigures } from '../shared/analysis';
import { figureText } from '../shared/numberText';
import { isRepeated, oneRunPerCell } from '../shared/repeats';
import { coresFor, cycleMath, runCycleMath } from '../shared/cycleMath';
import type { Experiment, PresetInfo, RunRecord } from '../shared/experiment';
import { threadsPerCore } from '../shared/affinity';
import { diagnoseWritelog } from '../shared/writelogDiagnosis';
import { getPreset } from './presets';
import { abView } from './presetViews/ab';
import { noiseView, repeatsView } from './presetViews/repeats';
import { scalingView } from './presetViews/scaling';
import { num, small, type ViewTable } from './presetViews/table';
import { plural } from '../shared/plural';

export type { ViewTable } from './presetViews/table';

function knobsText(r: RunRecord): string {
  const k = r.arm.knobs;
  return [
    k.delayedDurability ? `DD ${k.delayedDurability}` : 'DD unchanged',
    k.affinity ? `affinity ${k.affinity.spec}` : 'affinity unchanged',
  ].join(', ');
}

/** The value of a watched name in a run's figures: spins per row, else wait ms per row, else latch ms per row. */
function watched(f: RunFigures, name: string): string {
  if (name in f.spinsPerRow) return `${small(f.spinsPerRow[name])} spins/row`;
  if (name in f.waitMsPerRow) return `${small(f.waitMsPerRow[name])} ms/row`;
  if (name in f.latchMsPerRow) return `${small(f.latchMsPerRow[name])} ms/row`;
  return '0';
}

/** The preset facts the views need; records from before comparisons were kept fall back to the preset's definition. */
function presetFacts(p: PresetInfo): Required<Pick<PresetInfo, 'views' | 'watch' | 'comparisons'>> {
  let def: ReturnType<typeof getPreset> | undefined;
  try {
    def = getPreset(p.id);
  } catch {
    def = undefined;
  }
  return {
    views: p.views ?? def?.views ?? ['ab', 'scaling', 'math'],
    watch: p.watch ?? def?.watch ?? [],
    comparisons: p.comparisons ?? [],
  };
}

export function presetViews(e: Experiment, unit = 'rows'): ViewTable[] {
  if (!e.preset) return [];
  const { views, watch, comparisons } = presetFacts(e.preset);
  const out: ViewTable[] = [];
  const repeated = isRepeated(e.runs);
  out.push({
    kind: 'runs',
    title: 'Runs',
    lines: repeated ? [] : [oneRunPerCell(true)],
    headers: ['arm', 'threads', ...(repeated ? ['repetition'] : []), `${unit}/s`, unit, 'elapsed s', 'knobs', ...watch],
    rows: e.runs.map((r) => {
      const f = runFigures(r);
      return [
        r.arm.label + (r.status === 'completed' ? '' : ` (${r.status})`),
        String(r.threads),
        ...(repeated ? [String(r.repetition ?? 1)] : []),
        figureText(f.rowsPerSec),
        figureText(f.rows),
        num(r.elapsedMs / 1000, 1),
        knobsText(r),
        ...watch.map((w) => watched(f, w)),
      ];
    }),
  });

  if (repeated) out.push(repeatsView(e.runs, unit, watch));
  if (views.includes('ab')) for (const c of comparisons) out.push(abView(e.runs, c, repeated));
  if (views.includes('scaling') && new Set(e.runs.map((r) => r.threads)).size > 1) out.push(scalingView(e, unit, repeated));
  if (repeated) out.push(noiseView(e.runs));

  const completed = e.runs.filter((x) => x.status === 'completed');
  // Repeated runs: each row says its repetition, and a sentence the same for several repetitions is said once.
  const rep = (r: RunRecord) => (repeated ? [String(r.repetition ?? 1)] : []);
  const who = (r: RunRecord) => `${r.arm.label}, ${plural(r.threads, 'thread')}${repeated ? `, repetition ${r.repetition ?? 1}` : ''}`;
  if (views.includes('math')) {
    const tpc = threadsPerCore(e.topology);
    const rows: string[][] = [];
    const lines: string[] = [];
    for (const r of completed) {
      const spins = Object.fromEntries(Object.entries(r.totals.spinlocks).map(([k, s]) => [k, s.spins]));
      const m = runCycleMath(r.derived, spins, r.rows);
      const clock = r.derived.clock
        ? ` (clock: ${num(r.derived.clock.cpuTicksDelta)} cpu_ticks over ${num(r.derived.clock.msTicksDelta)} ms_ticks)`
        : '';
      lines.push(`${who(r)}: ${m.formula}${clock}; ${small(m.cyclesPerRow)} cycles per row.`);
      if (tpc > 1)
        lines.push(
          `  On physical cores, as the post counts them: ${cycleMath({ ...m.inputs, cpus: coresFor(r.derived.cpusUsed, tpc), cpuBasis: 'physical cores' }).formula}.`,
        );
      if (m.measured) lines.push(`  Measured: ${m.measured.formula}; ${small(m.measured.cyclesPerRow)} cycles per row.`);
      const names = new Set([...watch.filter((w) => spins[w]), ...m.perSpinlock.slice(0, 3).map((s) => s.name)]);
      for (const s of m.perSpinlock.filter((x) => names.has(x.name))) {
        rows.push([
          r.arm.label,
          String(r.threads),
          ...rep(r),
          s.name,
          num(s.spins),
          small(s.cyclesPerSpin),
          small(s.spinsPerRow),
          small(m.cyclesPerRow),
        ]);
      }
    }
    out.push({
      kind: 'math',
      title: 'Doing the math: cycles = elapsed s x CPUs x measured clock rate, per spin and per row',
      headers: [
        'arm',
        'threads',
        ...(repeated ? ['repetition'] : []),
        'spinlock',
        'spins',
        'cycles per spin',
        'spins per row',
        'cycles per row',
      ],
      rows,
      lines,
    });
  }

  if (views.includes('writelog')) {
    const rows: string[][] = [];
    const said = new Map<string, string[]>();
    const shown = new Set<string>();
    for (const r of completed) {
      const d = diagnoseWritelog({ totals: r.totals, timeline: r.timeline, majorVersion: e.server.majorVersion, share: r.share });
      const key = JSON.stringify([`${r.arm.label}, ${plural(r.threads, 'thread')}`, d.summary]);
      said.set(key, [...(said.get(key) ?? []), String(r.repetition ?? 1)]);
      // The post's figure for each line is the same for every run: said on its first row only.
      for (const l of d.lines)
        rows.push([r.arm.label, String(r.threads), ...rep(r), l.label, l.verdict, shown.has(l.label) ? '' : l.threshold]);
      for (const l of d.lines) shown.add(l.label);
    }
    const lines = [...said].map(([key, reps]) => {
      const [where, summary] = JSON.parse(key) as [string, string];
      const which = repeated ? `, ${reps.length > 1 ? `repetitions ${reps.join(', ')}` : `repetition ${reps[0]}`}` : '';
      return `${where}${which}: ${summary}`;
    });
    out.push({
      kind: 'writelog',
      title: "WRITELOG diagnosis (the WRITELOG post's figures and thresholds)",
      headers: ['arm', 'threads', ...(repeated ? ['repetition'] : []), 'figure', 'verdict', 'WRITELOG post'],
      rows,
      lines,
    });
  }
  return out;
}
