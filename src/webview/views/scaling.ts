// The scaling curve of a sweep: throughput and spins per row against thread count, for the current experiment and
// any opened experiments the user overlays from the history.
import { html, type TemplateResult } from 'lit';
import { scalingCurve, summarizeScaling } from '../../shared/analysis';
import { overlayScaling, type ArmRun } from '../../shared/armAnalysis';
import type { ViewContext } from './context';
import type { ChartCurve } from './analysisCharts';
import { section } from './common';
import { bandedCurve } from '../model/scalingBands';
import type { CellRun } from '../../shared/repeats';

/**
 * One curve per experiment, or one per arm (with wait ms per row) for an experiment of several arms; a thread count
 * run several times is one point (over its repetitions) with its throughput interval as a band.
 */
function curvesOf(id: string, title: string, runs: (ArmRun & CellRun)[]): ChartCurve[] {
  const arms: { id: string; label: string }[] = [];
  for (const r of runs) if (!arms.some((a) => a.id === r.arm.id)) arms.push(r.arm);
  if (arms.length < 2) return [bandedCurve(scalingCurve({ id, title, runs }), runs)];
  const overlay = overlayScaling(id, arms, runs);
  return overlay.arms.map((a) => {
    const c = bandedCurve(
      a.curve,
      runs.filter((r) => r.arm.id === a.id),
    );
    return { ...c, experimentId: `${id}:${a.id}`, title: a.label, waitMsPerRow: c.cellWaitMsPerRow ?? a.waitMsPerRow };
  });
}

export function scalingCurves(app: ViewContext): ChartCurve[] {
  const curves: ChartCurve[] = [];
  const runs = app.live.ordered();
  if (runs.length) {
    const fallback = { id: 'main', label: app.state?.active?.scenarioId ?? 'main' };
    const inputs: (ArmRun & CellRun)[] = runs.map((r) => ({
      index: r.index,
      ...(r.repetition !== null ? { repetition: r.repetition } : {}),
      threads: r.threads,
      status: r.status,
      totals: r.totals,
      latency: r.record?.latency ?? null,
      arm: r.arm ?? fallback,
    }));
    curves.push(...curvesOf(app.state?.active?.experimentId ?? 'active', app.state?.active?.title ?? 'Current', inputs));
  }
  for (const id of app.view.scaling) {
    const e = app.experiments.get(id);
    if (e && e.id !== app.state?.active?.experimentId) curves.push(...curvesOf(e.id, e.title, e.runs));
  }
  return curves;
}

export function scalingView(app: ViewContext): TemplateResult {
  return section(app, 'scaling', 'Scaling', () => {
    const curves = scalingCurves(app);
    app.scalingChart.update(curves);
    const enough = curves.some((c) => c.points.length > 1);
    return html`
      ${enough ? '' : html`<p class="empty">The scaling curve needs a sweep: give several thread counts (e.g. 1,2,4,8) and Run, or overlay earlier experiments from the history.</p>`}
      <ul class="summary">${curves.map((c) => html`<li><strong>${c.title}:</strong> ${summarizeScaling(c)}</li>`)}</ul>
      ${app.scalingChart.element}`;
  });
}
