// The Watch mode: a read-only watch of the connected server (the host runs it: src/host/features/watch). Start with an
// interval, the live charts of its deltas (the experiments' chart view, a second instance), named marks, Stop, Save
// as notebook, what stands out so far, who is waiting now (the last tick's requests), and two windows compared.
import { clockLabel } from './chartPlugins';
import { html, nothing, type TemplateResult } from 'lit';
import { ToHost, type WatchView } from '../../shared/protocol';
import { watchStatusWords, type WatchRequest } from '../../shared/watch';
import type { ViewContext } from './context';
import { checkedOf, inputValue, options, plural, sectionOpen, type Choice } from './common';
import { spinlockRowsView } from './stacks';
import { spinlockRows } from '../model/stacks';
import { watchCompareView } from './watchCompare';
import { describeMonitorCost } from '../../shared/monitorCost';
import { describeGap } from '../../shared/watchGaps';

const INTERVALS = [
  [1000, '1 s'],
  [500, '500 ms'],
  [250, '250 ms'],
] as const;

function requestsTable(rows: readonly WatchRequest[]): TemplateResult {
  if (!rows.length) return html`<p class="muted" id="watch-requests-empty">No request was running or waiting at the last tick.</p>`;
  // Scrolls inside itself (sticky header) rather than widening the panel; the statement text wraps.
  return html`<div class="table-wrap table-scroll" tabindex="0" role="region" aria-label="Who is waiting"><table class="data-table" id="watch-requests">
    <caption class="muted">Who is waiting: the requests of the last tick (statement text cut short, never parameter values)</caption>
    <thead><tr><th scope="col">Session</th><th scope="col">Wait</th><th scope="col">Wait ms</th><th scope="col">Command</th><th scope="col">Database</th><th scope="col">Query hash</th><th scope="col">Text</th></tr></thead>
    <tbody>${rows.map(
      (r) => html`<tr>
      <td>${r.sessionId}${r.blockingSessionId ? html` <span class="muted">(blocked by ${r.blockingSessionId})</span>` : nothing}</td>
      <td>${r.waitType ?? html`<span class="muted">running</span>`}</td><td>${r.waitType ? r.waitMs : ''}</td>
      <td>${r.command}</td><td>${r.database ?? ''}</td><td><code>${r.queryHash ?? ''}</code></td><td class="wrap-text"><code>${r.text ?? ''}</code></td>
    </tr>`,
    )}</tbody>
  </table></div>`;
}

/** When the watch started, on this machine's clock (null when its start is not a time). */
function startOf(w: WatchView): number | null {
  // Without it (a state from an older host), a mark's clock time and its t place the start.
  const mark = w.marks[0];
  const ms = w.startedAt ? Date.parse(w.startedAt) : mark ? Date.parse(mark.at) - mark.t : NaN;
  return Number.isFinite(ms) ? ms : null;
}

/** A mark's time of day, with its seconds into the watch. */
function markTime(w: WatchView, t: number): string {
  const start = startOf(w);
  return start === null ? `${(t / 1000).toFixed(1)} s` : `${clockLabel(t / 1000, start)}, ${(t / 1000).toFixed(1)} s in`;
}

/** A watch's charts read the time of day on their x axis, and carry its marks as annotations. */
function timeAxis(app: ViewContext, w: WatchView | null): typeof nothing {
  app.watchCharts.setTimeAxis(w ? startOf(w) : null, w ? w.marks.map((m) => ({ x: m.t / 1000, label: m.name })) : []);
  return nothing;
}

function controls(app: ViewContext, w: WatchView | null): TemplateResult {
  const connected = app.state?.connection.status === 'connected';
  const running = !!w && (w.status === 'starting' || w.status === 'running');
  const mark = () => {
    const name = app.watch.markName.trim();
    if (!name) return;
    app.post(ToHost.watchMark, { name });
    app.watch.markName = '';
    app.requestRender();
  };
  return html`<div class="toolbar">
      <label class="inline" for="watch-interval">Interval
        <select id="watch-interval" ?disabled=${running}
          @change=${(e: Event) => {
            app.watch.intervalMs = Number((e.target as HTMLSelectElement).value) as 1000 | 500 | 250;
            app.requestRender();
          }}>
          ${options(
            String(running ? w.intervalMs : app.watch.intervalMs),
            INTERVALS.map(([ms, label]): Choice => [String(ms), label]),
          )}
        </select>
      </label>
      <vscode-checkbox id="watch-benign" ?checked=${w?.showBenign ?? false}
        @change=${(e: Event) => (w ? app.post(ToHost.watchBenign, { show: checkedOf(e) }) : undefined)}>Show benign waits</vscode-checkbox>
      <vscode-button id="btn-watch-start" ?disabled=${!connected || running}
        @click=${() => app.post(ToHost.watchStart, { intervalMs: app.watch.intervalMs, showBenign: w?.showBenign ?? false })}>Start watch</vscode-button>
      <vscode-button id="btn-watch-stop" secondary ?disabled=${!running} @click=${() => app.post(ToHost.watchStop, {})}>Stop</vscode-button>
      <vscode-button id="btn-watch-notebook" secondary ?disabled=${!w || w.status === 'starting'}
        @click=${() => app.post(ToHost.watchSaveNotebook, {})}>Save as notebook</vscode-button>
    </div>
    <div class="toolbar">
      <vscode-textfield id="watch-mark-name" aria-label="Mark name" placeholder="index rebuilt" .value=${app.watch.markName} ?disabled=${!running}
        @input=${(e: Event) => {
          app.watch.markName = inputValue(e);
        }}
        @keydown=${(e: KeyboardEvent) => {
          if (e.key === 'Enter') mark();
        }}></vscode-textfield>
      <vscode-button id="btn-watch-mark" secondary ?disabled=${!running} @click=${mark}>Drop mark</vscode-button>
    </div>`;
}

export function watchView(app: ViewContext): TemplateResult {
  const w = app.state?.watch ?? null;
  const sec = sectionOpen(app, 'watch');
  const connected = app.state?.connection.status === 'connected';
  const status = w
    ? `${w.title}${w.simulated ? ' (simulator: every number is synthetic)' : ''}: ${watchStatusWords(w.status)}, ${plural(Math.max(w.ticks, app.watch.run?.ticks.length ?? 0), 'tick')} every ${w.intervalMs} ms. ${w.message}`
    : connected
      ? 'Watch the connected server, read-only: it creates nothing and needs only VIEW SERVER STATE.'
      : 'Connect to a server to watch it.';
  // Like the experiment charts, the charts element is built once and kept; a closed section hides it (CSS).
  return html`<details class="section" id="section-watch" .open=${sec.bind} @toggle=${sec.onToggle}>
    <summary><span class="section-title">Watch</span></summary>
    <div class="section-body">
      <p id="watch-status" aria-live="polite">${status}</p>
      ${controls(app, w)}
      ${w?.marks.length ? html`<p id="watch-marks" class="muted">Marks (drawn on the charts): ${w.marks.map((m) => `${m.name} (${markTime(w, m.t)})`).join('; ')}</p>` : nothing}
      ${w?.coverage ? html`<p id="watch-coverage">${w.coverage[0].toUpperCase()}${w.coverage.slice(1)}.</p>` : nothing}
      ${
        w?.gaps?.length
          ? html`<ul id="watch-gaps" aria-label="Gaps in the watch">${w.gaps.map(
              (g) =>
                html`<li>${(g.fromT / 1000).toFixed(1)}-${(g.toT / 1000).toFixed(1)} s: ${describeGap(g)} <span class="muted">(${g.detail})</span></li>`,
            )}</ul>`
          : nothing
      }
      ${
        w?.warnings?.length
          ? html`<details id="watch-warnings"><summary>${plural(w.warnings.length, 'warning')} (each said once, repeats counted)</summary>
        <ul>${w.warnings.map((m) => html`<li>${m}</li>`)}</ul></details>`
          : nothing
      }
      ${timeAxis(app, w)}<div id="watch-charts" ?hidden=${!w}>${app.watchCharts.element}</div>
      ${w ? spinlockRowsView(app, spinlockRows(app.watch.run?.ticks.slice(-240) ?? []), 'watch', 'watch-spin-rows') : nothing}
      ${
        w
          ? html`<h3>What stands out</h3>
        ${
          w.diagnosis.length
            ? html`<ul id="watch-diagnosis">${w.diagnosis.map((d) => html`<li>${d}</li>`)}</ul>`
            : html`<p class="muted" id="watch-diagnosis">Nothing stands out yet.</p>`
        }
        ${w.cost ? html`<h3>What the watch costs the server</h3><p id="watch-cost">${describeMonitorCost(w.cost, w.simulated)}</p>` : nothing}
        ${requestsTable(app.watch.last?.requests ?? w.requests)}
        ${watchCompareView(app, w)}`
          : nothing
      }
    </div>
  </details>`;
}
