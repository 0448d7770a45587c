// The History view's trend: this server's experiments of one workload over time at one cell (an arm at a thread
// count), each experiment's throughput with its 95% interval, the levels between change points and the change points
// marked with their shift, as a chart and as the table `spinlab history` prints (the host computes the figures with
// shared/regressionHistory.ts). The chart is a picture with a text alternative; the table carries every figure and
// opens an experiment from its row, so the keyboard reaches all of it.
import { html, nothing, svg, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { changePointText, shiftText, type CellHistory } from '../../shared/regressionHistory';
import { estimateText } from '../../shared/repeats';
import { figureText } from '../../shared/numberText';
import type { ViewContext } from './context';
import { options, plural } from './common';

const W = 640;
const H = 190;
const PAD = { left: 64, right: 16, top: 22, bottom: 26 };

const date = (iso: string) => iso.replace('T', ' ').slice(0, 16);
const gmean = (v: number[]) => Math.exp(v.reduce((s, x) => s + Math.log(x), 0) / v.length);

/** The chart's text alternative: what it shows and where the level moved. */
function chartLabel(c: CellHistory): string {
  const moved = c.changes.map((x) => `at ${x.experimentId}, ${x.ratio < 1 ? 'slower' : 'faster'} ${shiftText(x)}`).join('; ');
  return `Throughput of ${plural(c.points.length, 'experiment')} at ${c.name}, oldest first. ${c.changes.length ? `Change points: ${moved}.` : 'No change point.'}`;
}

function chart(c: CellHistory): TemplateResult {
  const pts = c.points.map((p, i) => ({
    i,
    v: p.throughput.value ?? NaN,
    lo: p.throughput.interval?.low,
    hi: p.throughput.interval?.high,
  }));
  const all = pts.flatMap((p) => [p.v, p.lo ?? p.v, p.hi ?? p.v]).filter((v) => Number.isFinite(v));
  if (!all.length) return html``;
  let lo = Math.min(...all);
  let hi = Math.max(...all);
  const pad = (hi - lo || hi || 1) * 0.08;
  lo = Math.max(0, lo - pad);
  hi += pad;
  const n = pts.length;
  const x = (i: number) => PAD.left + (n === 1 ? (W - PAD.left - PAD.right) / 2 : (i * (W - PAD.left - PAD.right)) / (n - 1));
  const y = (v: number) => PAD.top + ((hi - v) * (H - PAD.top - PAD.bottom)) / (hi - lo);
  const ticks = [lo, (lo + hi) / 2, hi];
  // The levels: the geometric mean of the experiments between neighbouring change points (what each shift compares).
  const bounds = [0, ...c.changes.map((ch) => ch.index), n];
  const levels = bounds.slice(0, -1).map((from, k) => {
    const to = bounds[k + 1];
    const vs = pts
      .slice(from, to)
      .map((p) => p.v)
      .filter((v) => v > 0);
    return { from, to, v: vs.length ? gmean(vs) : NaN };
  });
  return html`<svg id="history-trend-chart" class="trend-chart" viewBox="0 0 ${W} ${H}" role="img" aria-label=${chartLabel(c)}>
    ${ticks.map(
      (t) => svg`<line class="trend-grid" x1=${PAD.left} x2=${W - PAD.right} y1=${y(t)} y2=${y(t)}></line>
        <text class="trend-axis" x=${PAD.left - 6} y=${y(t) + 4} text-anchor="end">${figureText(t)}</text>`,
    )}
    <text class="trend-axis" x=${PAD.left} y=${H - 6}>${date(c.points[0].startedAt).slice(0, 10)}</text>
    ${n > 1 ? svg`<text class="trend-axis" x=${W - PAD.right} y=${H - 6} text-anchor="end">${date(c.points[n - 1].startedAt).slice(0, 10)}</text>` : nothing}
    ${levels.map((l) =>
      Number.isFinite(l.v) ? svg`<line class="trend-level" x1=${x(l.from)} x2=${x(l.to - 1)} y1=${y(l.v)} y2=${y(l.v)}></line>` : nothing,
    )}
    ${c.changes.map((ch) => {
      const cx = (x(ch.index - 1) + x(ch.index)) / 2;
      return svg`<g class="trend-change" data-change=${ch.experimentId}>
        <line x1=${cx} x2=${cx} y1=${PAD.top - 4} y2=${H - PAD.bottom}></line>
        <text x=${cx + 3} y=${PAD.top - 8}>${ch.ratio < 1 ? '▼' : '▲'} ${shiftText(ch).split(' [')[0]}</text>
      </g>`;
    })}
    ${pts.map((p) =>
      Number.isFinite(p.v)
        ? svg`${p.lo !== undefined && p.hi !== undefined ? svg`<line class="trend-interval" x1=${x(p.i)} x2=${x(p.i)} y1=${y(p.lo)} y2=${y(p.hi)}></line>` : nothing}
          <circle class="trend-point" data-point=${c.points[p.i].experimentId} cx=${x(p.i)} cy=${y(p.v)} r="3.5"></circle>`
        : nothing,
    )}
  </svg>`;
}

function table(app: ViewContext, c: CellHistory): TemplateResult {
  const at = new Map(c.changes.map((ch) => [ch.index, ch] as const));
  return html`<div class="table-wrap"><table class="data-table" id="history-trend-table">
    <caption class="visually-hidden">${chartLabel(c)}</caption>
    <thead><tr><th scope="col">Started</th><th scope="col">Experiment</th><th scope="col" class="num">Rows/s [95% interval]</th><th scope="col" class="num">Runs</th><th scope="col">Change point</th></tr></thead>
    <tbody>
      ${c.points.map((p, i) => {
        const ch = at.get(i);
        return html`<tr class=${ch ? 'trend-change-row' : ''} data-trend-row=${p.experimentId}>
          <td>${date(p.startedAt)}</td>
          <th scope="row"><button class="link" title=${`Open ${p.title}`} @click=${() => app.questions.openExperiment(p.experimentId)}>${p.experimentId}</button></th>
          <td class="num">${estimateText({ ...p.throughput, cv: null, values: [] })}</td>
          <td class="num">${p.throughput.n}</td>
          <td class=${ch ? `change ${ch.ratio < 1 ? 'worse' : 'better'}` : ''}>${ch ? `${ch.ratio < 1 ? '▼' : '▲'} ${changePointText(ch)}` : ''}</td>
        </tr>`;
      })}
    </tbody>
  </table></div>`;
}

export function historyTrendView(app: ViewContext): TemplateResult {
  const t = app.questions.trend;
  const toggle = html`<button class="chip" id="history-trend-toggle" aria-expanded=${String(t.open)} aria-controls="history-trend"
    @click=${() => app.questions.toggleTrend(app.state)}>Over time: change points</button>`;
  if (!t.open) return html`<div class="toolbar">${toggle}</div>`;
  const h = t.history();
  const c = t.shownCell();
  const body = (() => {
    if (t.error)
      return html`<p class="field-error" role="alert" id="history-trend-error">Could not line up the experiments: ${t.error}</p>`;
    if (!t.answer) return html`<p class="muted" role="status">Reading this server's experiments…</p>`;
    if (!h || !c) return html`<p class="empty">No saved experiment of this server has a completed run to line up yet.</p>`;
    return html`
      <div class="toolbar">
        <label class="inline" for="history-trend-workload">Workload
          <select id="history-trend-workload" .value=${live(h.workload)} @change=${(e: Event) => {
            t.pick({ workload: (e.target as HTMLSelectElement).value });
            app.requestRender();
          }}>${options(
            h.workload,
            t.answer.histories.map((x) => [x.workload, `${x.workload} (${plural(x.experiments, 'experiment')})`] as const),
          )}</select></label>
        <label class="inline" for="history-trend-cell">At
          <select id="history-trend-cell" .value=${live(c.name)} @change=${(e: Event) => {
            t.pick({ cell: (e.target as HTMLSelectElement).value });
            app.requestRender();
          }}>${options(
            c.name,
            h.cells.map((x) => [x.name, `${x.name} (${plural(x.points.length, 'experiment')})`] as const),
          )}</select></label>
      </div>
      <p id="history-trend-summary" role="status">${
        c.changes.length
          ? `${plural(c.changes.length, 'change point')}: ${c.changes.map((x) => `${x.experimentId} ${x.ratio < 1 ? 'slower' : 'faster'} ${shiftText(x)}`).join('; ')}`
          : `No change point: the level held over ${plural(c.points.length, 'experiment')}.`
      }</p>
      ${h.note ? html`<p class="muted" id="history-trend-note">${h.note}</p>` : nothing}
      ${h.servers.length > 1 ? html`<p class="muted">Ran on ${h.servers.length} servers (${h.servers.join(', ')}): a change may be the server's.</p>` : nothing}
      ${chart(c)}
      ${table(app, c)}
      <p class="muted small">Each experiment's throughput is the geometric mean of its runs [95% interval]; a change point (E-divisive, permutation test at 1%) marks where the level moved, with the new level against the old [95% interval].</p>
      ${t.answer.skipped.length ? html`<p class="muted small" id="history-trend-skipped">Skipped: ${t.answer.skipped.join('; ')}</p>` : nothing}`;
  })();
  return html`<div class="toolbar">${toggle}</div>
    <div id="history-trend" aria-busy=${String(t.pending)}>${body}</div>`;
}
