// The panel's runs as the views read them: the experiment the analysis views show (the live one, or one opened from
// the history) and every run the panel has. Pure derivations of App's state (no DOM), apart from app.ts so the
// controller keeps to events and intents.
import type { Experiment } from '../../shared/experiment';
import type { PanelState, PresetAnalysisInfo } from '../../shared/protocol';
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
        ...(r.repetition !== undefined ? { repetition: r.repetition } : {}),
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
    majorVersion: a.majorVersion ?? src.state?.server?.identity.majorVersion ?? null,
    threadsPerCore: topo ? threadsPerCore(topo) : 1,
    runs: src.live.ordered().map((r) => ({
      index: r.index,
      threads: r.threads,
      status: r.status,
      arm: r.arm ?? { id: 'main', label: a.scenarioId },
      totals: r.totals,
      timeline: r.ticks,
      derived: r.derived,
      latency: r.record?.latency ?? null,
      rows: r.record?.rows,
      nativeProcedures: r.record?.nativeProcedures,
      share: r.record?.share ?? null,
      ...(r.repetition !== null ? { repetition: r.repetition } : {}),
    })),
  };
}

/** Every run the panel has, active experiment first. */
export function allRunsOf(src: PanelRunsSource): RunRef[] {
  const out: RunRef[] = [];
  const activeTitle = src.state?.active?.title ?? 'Current experiment';
  for (const r of src.live.ordered()) {
    out.push({
      key: `${ACTIVE}#${r.index}`,
      experimentKey: ACTIVE,
      experimentTitle: activeTitle,
      index: r.index,
      threads: r.threads,
      status: r.status,
      ticks: r.ticks,
      record: r.record,
      run: r,
    });
  }
  for (const e of src.experiments.values()) {
    if (src.state?.active?.experimentId === e.id) continue;
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
      });
    }
  }
  return out;
}
