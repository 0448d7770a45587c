// This server's earlier experiments: open one (a question: the host answers with the whole experiment), show it in
// the results and the analysis, overlay it on the scaling chart, reveal its folder, save it as a notebook, export it;
// and each workload's experiments over time with their change points (historyTrend.ts).
import { html, type TemplateResult } from 'lit';
import { ToHost } from '../../shared/protocol';
import type { ViewContext } from './context';
import { exactNumber } from '../model/format';
import { plural, section } from './common';
import { historyTrendView } from './historyTrend';

/** Results and Analysis pick what the Results and compare view shows, and go there. */
function show(app: ViewContext, patch: { results?: string; analysis?: string }): void {
  app.setView(patch);
  app.showView('results');
}

export function historyView(app: ViewContext): TemplateResult {
  const history = app.state?.history ?? [];
  return section(
    app,
    'history',
    'History',
    () => html`
    <div id="history">
      ${history.length ? historyTrendView(app) : ''}
      ${
        history.length === 0
          ? html`<p class="empty">No saved experiments for this server yet. Each run you start here is saved and listed.</p>`
          : html`
      <ul class="history-list">
        ${history.map((h) => {
          const loaded = app.experiments.get(h.id);
          const best = h.runs.reduce((m, r) => Math.max(m, r.rowsPerSec), 0);
          // Its arms by letter, as the results and the comparison name its runs.
          const arms = [...new Map(h.runs.flatMap((r) => (r.arm ? [[r.arm.id, r.arm.label] as const] : []))).values()];
          // The row the analysis shows is the current one; a reveal from the Activity Bar focuses it (tabindex -1).
          return html`<li data-experiment=${h.id} tabindex="-1" aria-current=${app.view.analysis === h.id ? 'true' : 'false'}>
            <div class="history-main">
              <strong>${h.title}</strong>
              <span class="muted">${new Date(h.createdAt).toLocaleString()} · ${h.kind === 'tune' ? 'find the best settings · ' : ''}${h.presetId ? `preset ${h.presetId}` : h.scenarioId} · ${h.kind === 'tune' ? plural(h.runs.length, 'trial') : `threads ${h.threads.join(',')}`} · ${h.status}
                ${best ? ` · best ${exactNumber(best)} rows/s` : ''}${h.simulated ? ' · simulator' : ''}</span>
              ${
                arms.length > 1 && h.kind !== 'tune'
                  ? html`<span class="muted small history-arms">${arms.map((l, i) => `${String.fromCharCode(65 + i)}: ${l}`).join(' · ')}</span>`
                  : ''
              }
            </div>
            <div class="history-actions">
              ${
                loaded
                  ? html`
                <button class="chip" @click=${() => show(app, { results: h.id })} aria-pressed=${String(app.view.results === h.id)}
                  title="Show its results in the Results and compare view">Results</button>
                <button class="chip" data-analysis=${h.id} @click=${() => show(app, { analysis: h.id })} aria-pressed=${String(app.view.analysis === h.id)}
                  title="Show its analysis in the Results and compare view">Analysis</button>
                <button class="chip" aria-pressed=${String(app.view.scaling.includes(h.id))}
                  @click=${() => app.setView({ scaling: app.view.scaling.includes(h.id) ? app.view.scaling.filter((x) => x !== h.id) : [...app.view.scaling, h.id] })}>Scaling</button>`
                  : html`<button class="chip" data-open=${h.id}
                      @click=${() => app.questions.openExperiment(h.id, h.kind === 'tune' ? () => app.setView({ analysis: h.id, results: h.id }) : undefined)}>Open</button>`
              }
              <button class="chip" @click=${() => app.post(ToHost.experimentSaveNotebook, { id: h.id })} title="Save as a Jupyter notebook">Notebook</button>
              <button class="chip" @click=${() => app.post(ToHost.experimentExport, { id: h.id, kind: 'csv' })} title="Export the samples as CSV">CSV</button>
              <button class="chip" @click=${() => app.post(ToHost.experimentExport, { id: h.id, kind: 'tsql' })} title="Export the scenario's T-SQL">T-SQL</button>
              <button class="chip" @click=${() => app.post(ToHost.experimentReveal, { id: h.id })} title="Show the experiment's folder">Reveal</button>
            </div>
          </li>`;
        })}
      </ul>`
      }
    </div>`,
  );
}
