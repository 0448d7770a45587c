// The results: each cell (an arm at a thread count) over its repetitions with its interval, spread and run count, and
// the noise warnings naming their runs; then the table of totals and per-row figures for each run of the shown
// experiment, sortable by any column (buttons in the headers, aria-sort), copied as TSV through the host's clipboard.
import { html, nothing, type TemplateResult } from 'lit';
import { runFigures } from '../../shared/analysis';
import { describeMonitorCost, type MonitorCostSummary } from '../../shared/monitorCost';
import { ToHost } from '../../shared/protocol';
import { ACTIVE, type RunRef } from '../model/viewState';
import { armName } from '../model/panelRuns';
import type { ViewContext } from './context';
import { experimentRows, formatCell, nextSort, resultColumns, sortRows, toTsv, type ResultRow } from '../model/results';
import { options, section, type Choice } from './common';
import { describeSpread } from '../../shared/sessionSpread';
import { cellResultsOf, cellText, spreadText } from '../model/cellResults';
import { methodText } from '../../shared/repeats';
import { shareView } from './ownShare';
import { customHeadline } from '../../shared/customHeadline';
import { customHeadlineView } from './customHeadline';
import { columnChooser } from './columnChooser';
import { shownColumns } from '../model/columnChoice';

/** The shown experiment's runs as every view names them (arm letter and label), by run index. */
function namedRuns(app: ViewContext): Map<number, RunRef> {
  const which = app.view.results;
  const key = which === ACTIVE || which === app.state?.active?.experimentId ? ACTIVE : which;
  return new Map(
    app
      .allRuns()
      .filter((r) => r.experimentKey === key)
      .map((r) => [r.index, r] as const),
  );
}

/** "Run 3 (B: the other node · 8 sessions)": a run of the shown experiment as the lists under the table name it. */
function runName(named: Map<number, RunRef>, index: number, threads: number): string {
  const r = named.get(index);
  const sessions = `${threads} session${threads === 1 ? '' : 's'}`;
  return `Run ${index + 1} (${r ? `${armName(r)} · ` : ''}${sessions})`;
}

/** Rows of the experiment the table shows: the active one (live totals), or one opened from the history. */
export function resultRows(app: ViewContext): { title: string; rows: ResultRow[]; unit: 'row' | 'call' } {
  const which = app.view.results;
  const opened = which !== ACTIVE ? app.experiments.get(which) : undefined;
  const named = namedRuns(app);
  const lettered = (row: ResultRow): ResultRow => {
    const r = named.get(row.run);
    return r?.armLetter ? { ...row, arm: armName(r) } : row;
  };
  if (opened) return { title: opened.title, rows: experimentRows(opened).map(lettered), unit: opened.custom ? 'call' : 'row' };
  const rows = app.live
    .ordered()
    .filter((r) => r.store.length > 0 || r.record)
    .map((r) => ({
      run: r.index,
      ...(r.arm ? { arm: r.arm.label } : {}),
      ...(r.repetition !== null ? { repetition: r.repetition } : {}),
      share: r.record?.share ?? null,
      ...(r.record && app.state?.active?.scenarioId === 'custom' ? { own: customHeadline(r.record) } : {}),
      figures: runFigures(
        r.record ?? { threads: r.threads, status: r.status, totals: r.totals, latency: null, ...(r.derived ? { derived: r.derived } : {}) },
      ),
    }))
    .map(lettered);
  return { title: app.state?.active?.title ?? '', rows, unit: app.state?.active?.scenarioId === 'custom' ? 'call' : 'row' };
}

/** Runs that ended on a row count with sessions finishing unevenly: the tail and both rates (shared/sessionSpread). */
function spreadView(app: ViewContext): TemplateResult | typeof nothing {
  const which = app.view.results;
  const opened = which !== ACTIVE ? app.experiments.get(which) : undefined;
  const records = opened ? opened.runs : app.live.ordered().flatMap((r) => (r.record ? [r.record] : []));
  const spread = records.filter((r) => r.sessionSpread);
  if (!spread.length) return nothing;
  const named = namedRuns(app);
  return html`<ul id="results-spread" class="summary">${spread.map(
    (r) =>
      html`<li data-run=${String(r.index)}>${runName(named, r.index, r.threads)}: ${describeSpread(
        r.sessionSpread!,
        runFigures(r).rowsPerSec,
      )}.</li>`,
  )}</ul>`;
}

/** Each cell over its repetitions (a record of one run per cell shows "1 run: no interval"), and the noise warnings. */
function cellsView(app: ViewContext, unit: 'row' | 'call'): TemplateResult | typeof nothing {
  const Unit = unit === 'row' ? 'Rows' : 'Calls';
  const e = app.shownExperiment(app.view.results);
  if (!e) return nothing;
  const c = cellResultsOf(e);
  if (!c.rows.length) return nothing;
  const most = c.rows.reduce((m, r) => (r.rowsPerSec.n > m.rowsPerSec.n ? r : m), c.rows[0]);
  return html`<div id="results-cells">
    <div class="table-wrap"><table class="data-table" aria-label="Results per arm and thread count, over the repetitions">
      <thead><tr>
        ${c.arms ? html`<th scope="col">Arm</th>` : nothing}<th scope="col" class="num">Threads</th><th scope="col" class="num">Runs</th>
        <th scope="col" class="num">${Unit}/s</th><th scope="col" class="num">Spread (CV)</th>
        <th scope="col" class="num" title=${`Scheduler CPU time per ${unit}, server-wide`}>CPU/${unit}</th>
        ${c.spinlocks.map((s) => html`<th scope="col" class="num" title=${`${s}: spins per ${unit}, server-wide`}>${s} spins/${unit}</th>`)}
      </tr></thead>
      <tbody>${c.rows.map(
        (r) => html`<tr data-arm=${r.armId} data-threads=${String(r.threads)} data-n=${String(r.n)}>
        ${c.arms ? html`<th scope="row">${r.armLabel}</th>` : nothing}<td class="num">${r.threads}</td><td class="num">${r.n}</td>
        <td class="num" data-figure="rowsPerSec">${cellText(r.rowsPerSec)}</td><td class="num spread">${spreadText(r.rowsPerSec)}</td>
        <td class="num">${cellText(r.cpuMsPerRow, 'ms')}</td>${r.spins.map((s) => html`<td class="num">${cellText(s)}</td>`)}</tr>`,
      )}</tbody>
    </table></div>
    <p class="small muted">Each figure: ${methodText(most.rowsPerSec)}.</p>
    ${
      c.warnings.length
        ? html`<div id="results-noise" class="notes" role="note"><strong class="small">Noise</strong>
      <ul class="summary">${c.warnings.map((w) => html`<li>${w}</li>`)}</ul></div>`
        : nothing
    }
  </div>`;
}

function costView(app: ViewContext, notes: ReturnType<typeof costNotes>): TemplateResult | typeof nothing {
  if (!notes.length) return nothing;
  const named = namedRuns(app);
  return html`<h3>What Spinlock Lab cost the server</h3>
    <ul id="results-cost">${notes.map(
      (n) => html`<li data-run=${String(n.run)}>${runName(named, n.run, n.threads)}: ${describeMonitorCost(n.cost, n.simulated)}</li>`,
    )}</ul>`;
}

/** What the monitor session cost the server in each run that says (delta ticks; older records have none). */
function costNotes(app: ViewContext): { run: number; threads: number; cost: MonitorCostSummary; simulated: boolean }[] {
  const which = app.view.results;
  const opened = which !== ACTIVE ? app.experiments.get(which) : undefined;
  if (opened)
    return opened.runs.flatMap((r) =>
      r.monitorCost ? [{ run: r.index, threads: r.threads, cost: r.monitorCost, simulated: opened.simulated }] : [],
    );
  const simulated = app.state?.server?.identity.simulated ?? false;
  return app.live
    .ordered()
    .flatMap((r) => (r.record?.monitorCost ? [{ run: r.index, threads: r.threads, cost: r.record.monitorCost, simulated }] : []));
}

export function resultsView(app: ViewContext): TemplateResult {
  return section(app, 'results', 'Results', () => {
    const { title, rows, unit } = resultRows(app);
    const all = resultColumns(rows, 3, 3, unit);
    // At most 8 columns by default, so the table fits the panel; the chooser shows any other, the TSV has them all.
    const cols = shownColumns(all, app.view.columns);
    const sorted = sortRows(rows, all, app.view.sort);
    const sort = app.view.sort;
    const choices = [...app.experiments.values()];
    return html`
      <div class="toolbar">
        ${
          choices.length
            ? html`<label class="inline">Experiment
          <select id="results-experiment" @change=${(e: Event) => app.setView({ results: (e.target as HTMLSelectElement).value })}>
            ${options(app.view.results, [[ACTIVE, `Current: ${app.state?.active?.title ?? 'none'}`], ...choices.map((x): Choice => [x.id, x.title])])}
          </select></label>`
            : html`<span class="muted">${title}</span>`
        }
        <span class="spacer"></span>
        ${columnChooser(app, 'results-columns', all, cols)}
        <vscode-button id="btn-copy-results" secondary ?disabled=${rows.length === 0} title="Every column, shown or not"
          @click=${() => app.post(ToHost.clipboardCopy, { text: toTsv(all, sorted) })}>Copy as TSV</vscode-button>
      </div>
      ${unit === 'call' ? customHeadlineView(rows) : cellsView(app, unit)}
      ${shareView(rows, unit)}
      ${rows.length === 0 ? html`<p class="empty" id="results-empty">No runs yet. Results appear here as each run measures: rows/s, and per row the spins, backoffs, waits and CPU.</p>` : nothing}
      <div class="table-wrap table-scroll" tabindex="0" role="region" aria-label="Results per run (scrolls)">
        <table id="results-table" class="data-table" aria-label="Results per run">
          <thead><tr>${cols.map((c) => {
            const ariaSort = sort?.key === c.key ? sort.dir : 'none';
            return html`<th scope="col" aria-sort=${ariaSort} class=${c.numeric ? 'num' : ''}>
              <button class="sort" data-sort=${c.key} title=${`Sort by ${c.title}`}
                @click=${() => app.setView({ sort: nextSort(app.view.sort, c.key) })}>${c.label}<span class="sort-mark" aria-hidden="true">${
                  ariaSort === 'ascending' ? '▲' : ariaSort === 'descending' ? '▼' : ''
                }</span></button></th>`;
          })}</tr></thead>
          <tbody>${sorted.map((r) => html`<tr data-run=${String(r.run)}>${cols.map((c) => html`<td class=${c.numeric ? 'num' : ''}>${formatCell(c.value(r), c.unit)}</td>`)}</tr>`)}</tbody>
        </table>
      </div>
      ${spreadView(app)}
      ${costView(app, costNotes(app))}`;
  });
}
