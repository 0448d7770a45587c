// The results table: totals and per-row figures for each run of the shown experiment, sortable by any column
// (buttons in the headers, aria-sort), copied as TSV through the host's clipboard.
import { html, nothing, type TemplateResult } from 'lit';
import { runFigures } from '../../shared/analysis';
import { describeMonitorCost, type MonitorCostSummary } from '../../shared/monitorCost';
import { ToHost } from '../../shared/protocol';
import { ACTIVE } from '../model/viewState';
import type { ViewContext } from './context';
import { experimentRows, formatCell, nextSort, resultColumns, sortRows, toTsv, type ResultRow } from '../model/results';
import { section } from './common';
import { describeSpread } from '../../shared/sessionSpread';

/** Rows of the experiment the table shows: the active one (live totals), or one opened from the history. */
export function resultRows(app: ViewContext): { title: string; rows: ResultRow[] } {
  const which = app.view.results;
  const opened = which !== ACTIVE ? app.experiments.get(which) : undefined;
  if (opened) return { title: opened.title, rows: experimentRows(opened) };
  const rows = app.live
    .ordered()
    .filter((r) => r.ticks.length > 0 || r.record)
    .map((r) => ({
      run: r.index,
      figures: runFigures(
        r.record ?? { threads: r.threads, status: r.status, totals: r.totals, latency: null, ...(r.derived ? { derived: r.derived } : {}) },
      ),
    }));
  return { title: app.state?.active?.title ?? '', rows };
}

/** Runs that ended on a row count with sessions finishing unevenly: the tail and both rates (shared/sessionSpread). */
function spreadView(app: ViewContext): TemplateResult | typeof nothing {
  const which = app.view.results;
  const opened = which !== ACTIVE ? app.experiments.get(which) : undefined;
  const records = opened ? opened.runs : app.live.ordered().flatMap((r) => (r.record ? [r.record] : []));
  const spread = records.filter((r) => r.sessionSpread);
  if (!spread.length) return nothing;
  return html`<ul id="results-spread" class="summary">${spread.map(
    (r) =>
      html`<li data-run=${String(r.index)}>Run ${r.index + 1} (${r.threads} threads): ${describeSpread(
        r.sessionSpread!,
        runFigures(r).rowsPerSec,
      )}.</li>`,
  )}</ul>`;
}

function costView(notes: ReturnType<typeof costNotes>): TemplateResult | typeof nothing {
  if (!notes.length) return nothing;
  return html`<h3>What Spinlock Lab cost the server</h3>
    <ul id="results-cost">${notes.map((n) => html`<li data-run=${String(n.run)}>Run ${n.run + 1}: ${describeMonitorCost(n.cost, n.simulated)}</li>`)}</ul>`;
}

/** What the monitor session cost the server in each run that says (delta ticks; older records have none). */
function costNotes(app: ViewContext): { run: number; cost: MonitorCostSummary; simulated: boolean }[] {
  const which = app.view.results;
  const opened = which !== ACTIVE ? app.experiments.get(which) : undefined;
  if (opened)
    return opened.runs.flatMap((r) => (r.monitorCost ? [{ run: r.index, cost: r.monitorCost, simulated: opened.simulated }] : []));
  const simulated = app.state?.server?.identity.simulated ?? false;
  return app.live.ordered().flatMap((r) => (r.record?.monitorCost ? [{ run: r.index, cost: r.record.monitorCost, simulated }] : []));
}

export function resultsView(app: ViewContext): TemplateResult {
  return section(app, 'results', 'Results', () => {
    const { title, rows } = resultRows(app);
    const cols = resultColumns(rows);
    const sorted = sortRows(rows, cols, app.view.sort);
    const sort = app.view.sort;
    const choices = [...app.experiments.values()];
    return html`
      <div class="toolbar">
        ${
          choices.length
            ? html`<label class="inline">Experiment
          <select id="results-experiment" @change=${(e: Event) => app.setView({ results: (e.target as HTMLSelectElement).value })}>
            <option value=${ACTIVE} ?selected=${app.view.results === ACTIVE}>Current: ${app.state?.active?.title ?? 'none'}</option>
            ${choices.map((x) => html`<option value=${x.id} ?selected=${app.view.results === x.id}>${x.title}</option>`)}
          </select></label>`
            : html`<span class="muted">${title}</span>`
        }
        <span class="spacer"></span>
        <vscode-button id="btn-copy-results" secondary ?disabled=${rows.length === 0}
          @click=${() => app.post(ToHost.clipboardCopy, { text: toTsv(cols, sorted) })}>Copy as TSV</vscode-button>
      </div>
      ${rows.length === 0 ? html`<p class="empty" id="results-empty">No runs yet. Results appear here as each run measures: rows/s, and per row the spins, backoffs, waits and CPU.</p>` : nothing}
      <div class="table-wrap">
        <table id="results-table" class="data-table" aria-label="Results per run">
          <thead><tr>${cols.map((c) => {
            const ariaSort = sort?.key === c.key ? sort.dir : 'none';
            return html`<th scope="col" aria-sort=${ariaSort} class=${c.numeric ? 'num' : ''}>
              <button class="sort" data-sort=${c.key} title=${`Sort by ${c.title}`}
                @click=${() => app.setView({ sort: nextSort(app.view.sort, c.key) })}>${c.label}<span class="sort-mark" aria-hidden="true">${
                  ariaSort === 'ascending' ? '▲' : ariaSort === 'descending' ? '▼' : ''
                }</span></button></th>`;
          })}</tr></thead>
          <tbody>${sorted.map((r) => html`<tr data-run=${String(r.run)}>${cols.map((c) => html`<td class=${c.numeric ? 'num' : ''}>${formatCell(c.value(r))}</td>`)}</tr>`)}</tbody>
        </table>
      </div>
      ${spreadView(app)}
      ${costView(costNotes(app))}`;
  });
}
