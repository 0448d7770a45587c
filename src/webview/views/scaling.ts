// The scaling curve of a sweep: throughput and spins per row against thread count, for the current experiment and
// any opened experiments the user overlays from the history.
import { html, type TemplateResult } from 'lit';
import { scalingCurve, summarizeScaling, type ScalingCurve } from '../../shared/analysis';
import type { App } from '../app';
import { section } from './common';

export function scalingCurves(app: App): ScalingCurve[] {
  const curves: ScalingCurve[] = [];
  const runs = app.live.ordered();
  if (runs.length) {
    const inputs = runs.map((r) => r.record ?? { threads: r.threads, status: r.status, totals: r.totals, latency: null });
    curves.push(scalingCurve({ id: app.state?.active?.experimentId ?? 'active', title: app.state?.active?.title ?? 'Current', runs: inputs }));
  }
  for (const id of app.view.scaling) {
    const e = app.experiments.get(id);
    if (e && e.id !== app.state?.active?.experimentId) curves.push(scalingCurve(e));
  }
  return curves;
}

export function scalingView(app: App): TemplateResult {
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
