// The panel's runs as the views read them: the experiment the analysis views show (the live one, or one opened from
// the history) and every run the panel has. Pure derivations of App's state (no DOM), apart from app.ts so the
// controller keeps to events and intents.
import type { Experiment } from '../../shared/experiment';
import type { ArmRef, PanelState, PresetAnalysisInfo } from '../../shared/protocol';
import { threadsPerCore } from '../../shared/affinity';
import type { ShownExperiment } from './armViews';
import type { LiveRuns } from './liveRuns';
import { ACTIVE, type RunRef } from './viewState';

/** What the derivations read of the panel. */
export interface PanelRunsSource {
  readonly state: PanelState | null;
  readonly live: LiveRuns;
  readonly experiments: ReadonlyMap<string, Experiment>;
  /** The preset views and comparisons the host sent with an opened experiment. */
  readonly experimentPresets: ReadonlyMap<string, PresetAnalysisInfo | null>;
}

/** The live experiment, or the one opened from the history named by `which` (ACTIVE: the live one). */
export function shownExperimentOf(src: PanelRunsSource, which: string): ShownExperiment | null {
  const opened = which !== ACTIVE ? src.experiments.get(which) : undefined;
  if (opened) {
    return {
      key: opened.id,
      title: opened.title,
      preset: src.experimentPresets.get(opened.id) ?? null,
      custom: !!opened.custom,
      majorVersion: opened.server.majorVersion,
      threadsPerCore: threadsPerCore(opened.topology),
      runs: opened.runs.map((r) => ({
        index: r.index,
        threads: r.threads,
        status: r.status,
        arm: { id: r.arm.id, label: r.arm.label },
        totals: r.totals,
        timeline: r.timeline,
        derived: r.derived,
        latency: r.latency,
        rows: r.rows,
        nativeProcedures: r.nativeProcedures,
        share: r.share ?? null,
        sessionWaits: r.sessionWaits ?? null,
        ...(r.repetition !== undefined ? { repetition: r.repetition } : {}),
        ...(r.steady ? { steady: r.steady } : {}),
        ...(r.block !== undefined ? { block: r.block } : {}),
      })),
    };
  }
  const a = src.state?.active;
  if (!a) return null;
  const topo = src.state?.server?.topology;
  return {
    key: a.experimentId ?? 'active',
    title: a.title,
    preset: a.preset ?? null,
    custom: a.scenarioId === 'custom',
    majorVersion: a.majorVersion ?? src.state?.server?.identity.majorVersion ?? null,
    threadsPerCore: topo ? threadsPerCore(topo) : 1,
    runs: src.live.ordered().map((r) => ({
      index: r.index,
      threads: r.threads,
      status: r.status,
      arm: r.arm ?? { id: 'main', label: a.scenarioId },
      totals: r.totals,
      // A getter: hours of ticks are decoded only if a view reads the timeline.
      get timeline() {
        return r.ticks;
      },
      derived: r.derived,
      latency: r.record?.latency ?? null,
      rows: r.record?.rows,
      nativeProcedures: r.record?.nativeProcedures,
      share: r.record?.share ?? null,
      sessionWaits: r.record?.sessionWaits ?? null,
      ...(r.repetition !== null ? { repetition: r.repetition } : {}),
      ...(r.record?.steady ? { steady: r.record.steady } : {}),
      ...(r.record?.block !== undefined ? { block: r.record.block } : {}),
    })),
  };
}

/** The arms' letters (A, B, ...) in the preset's order, then as they ran; none for an experiment of one arm. */
function lettersOf(preset: readonly ArmRef[] | undefined, ran: readonly string[]): Map<string, string> {
  const ids = [...new Set([...(preset ?? []).map((a) => a.id), ...ran])];
  return new Map(ids.length > 1 ? ids.map((id, i) => [id, String.fromCharCode(65 + i)] as const) : []);
}

/** A run's arm as the views name it: "B: workers on the log writer's node" (the letter when there are several). */
export function armName(r: Pick<RunRef, 'arm' | 'armLetter'>): string {
  return r.armLetter ? `${r.armLetter}: ${r.arm.label}` : r.arm.label;
}

/** A run as every view names it: "B: workers on the log writer's node · run 2 · 10 sessions". */
export function runRefLabel(r: Pick<RunRef, 'arm' | 'armLetter' | 'index' | 'threads' | 'repetition'>): string {
  const arm = armName(r);
  const rep = r.repetition !== undefined ? ` · repetition ${r.repetition}` : '';
  return `${arm} · run ${r.index + 1}${rep} · ${r.threads} session${r.threads === 1 ? '' : 's'}`;
}

/** Every run the panel has, active experiment first. */
export function allRunsOf(src: PanelRunsSource): RunRef[] {
  const out: RunRef[] = [];
  const active = src.state?.active;
  const activeTitle = active?.title ?? 'Current experiment';
  const live = src.live.ordered();
  const mainArm = { id: 'main', label: active?.scenarioId ?? 'main' };
  const liveLetters = lettersOf(
    active?.preset?.arms,
    live.map((r) => (r.arm ?? mainArm).id),
  );
  const liveRepeated = live.some((r) => (r.repetition ?? 1) > 1);
  for (const r of live) {
    const arm = r.arm ?? mainArm;
    out.push({
      key: `${ACTIVE}#${r.index}`,
      experimentKey: ACTIVE,
      experimentTitle: activeTitle,
      index: r.index,
      threads: r.threads,
      status: r.status,
      get ticks() {
        return r.ticks;
      },
      record: r.record,
      run: r,
      arm,
      armLetter: liveLetters.get(arm.id) ?? null,
      ...(liveRepeated && r.repetition !== null ? { repetition: r.repetition } : {}),
      workload: r.record ? { scenarioId: r.record.arm.scenarioId, parameters: r.record.arm.parameters, mode: r.record.arm.mode } : null,
    });
  }
  for (const e of src.experiments.values()) {
    if (active?.experimentId === e.id) continue;
    const letters = lettersOf(
      e.preset ? (src.experimentPresets.get(e.id)?.arms ?? []) : [],
      e.runs.map((r) => r.arm.id),
    );
    const repeated = e.runs.some((r) => (r.repetition ?? 1) > 1);
    const custom = e.custom ? { database: e.custom.database, statements: e.custom.statements.map((s) => s.text) } : null;
    for (const r of e.runs) {
      out.push({
        key: `${e.id}#${r.index}`,
        experimentKey: e.id,
        experimentTitle: e.title,
        index: r.index,
        threads: r.threads,
        status: r.status,
        ticks: r.timeline,
        record: r,
        run: null,
        arm: { id: r.arm.id, label: r.arm.label },
        armLetter: letters.get(r.arm.id) ?? null,
        ...(repeated && r.repetition !== undefined ? { repetition: r.repetition } : {}),
        workload: { scenarioId: r.arm.scenarioId, parameters: r.arm.parameters, mode: r.arm.mode, custom },
      });
    }
  }
  return out;
}

/** The comparisons of an experiment the panel has (the live one under ACTIVE), for the default pair. */
export function comparisonsOf(src: PanelRunsSource, key: string): readonly { a: string; b: string }[] {
  if (key === ACTIVE) return src.state?.active?.preset?.comparisons ?? [];
  return src.experimentPresets.get(key)?.comparisons ?? src.experiments.get(key)?.preset?.comparisons ?? [];
}
