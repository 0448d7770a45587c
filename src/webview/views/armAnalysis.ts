// The analysis views of the shown experiment (the live one, or one opened from the history): the A/B comparison
// between arms (the verdict on throughput with its interval first; each figure of A and B over their repetitions with
// its 95% interval and B/A with its interval per thread count; the throughput of both arms on one chart), "doing the math" (the inputs, the sum written out, cycles per spin and per
// row), and the WRITELOG diagnosis (each figure beside the WRITELOG post's threshold, with its verdict).
import { html, nothing, type TemplateResult } from 'lit';
import { formatNumber } from '../../shared/analysis';
import { ACTIVE } from '../model/viewState';
import type { ViewContext } from './context';
import {
  abViews,
  mathRows,
  pctText,
  runLabel,
  showsWritelog,
  writelogOthers,
  writelogRows,
  type AbView,
  type ShownExperiment,
} from '../model/armViews';
import { WRITELOG_OTHERS } from '../../shared/customHeadline';
import {
  comparisonMethodText,
  estimateText,
  LEVEL,
  levelText,
  methodText,
  ratioIntervalText,
  type FigureEstimate,
  type RepeatedFigure,
} from '../../shared/repeats';
import { exactNumber } from '../model/format';
import { options, section, type Choice } from './common';
import { citeHtml } from './cite';
import { thousands } from '../../shared/numberText';
import { quantityText } from '../../shared/units';
import { comparedLabel } from '../model/results';

const num = (v: number | null | undefined): string => (v === null || v === undefined || !Number.isFinite(v) ? '–' : formatNumber(v));

/** B against A as a change with its interval: "+12.0% [+8.0% to +16%]"; a pair of single runs has no interval. */
function changeCell(f: RepeatedFigure): TemplateResult {
  const r = f.ratio;
  // Better or worse only when called different (a secondary figure after Holm's adjustment; one run each cannot tell).
  const better = !f.differs || r.ratio === null ? '' : r.ratio > 1 === (f.direction === 'higher-better') ? 'better' : 'worse';
  const point = pctText(r.ratio === null ? null : (r.ratio - 1) * 100);
  return html`<td class="num change ${better}" data-meaning=${better || 'neutral'}>${point}${r.interval ? html`<br><span class="small interval">[${ratioIntervalText(r)}]${r.level !== LEVEL ? ` ${levelText(r.level)}` : ''}</span>` : nothing}</td>`;
}

function abTable(v: AbView): TemplateResult {
  const keys = v.at[v.at.length - 1].comparison.figures;
  const side = (e: FigureEstimate, f: RepeatedFigure) =>
    e.value === null && f.note ? html`<span title=${f.note}>n/a</span>` : estimateText(e, { unit: f.unit, inTable: true });
  return html`<div class="table-wrap"><table class="data-table ab-table" aria-label=${`${v.label}: figures per thread count`}>
    <thead>
      <tr><th scope="col" rowspan="2">Figure</th>${v.at.map((x) => html`<th scope="colgroup" colspan="3" class="num">${x.threads} thread${x.threads === 1 ? '' : 's'}</th>`)}</tr>
      <tr>${v.at.map((x) => {
        const tp = x.comparison.figures[0];
        return html`<th scope="col" class="num">A <span class="muted small">n=${tp.a.n}</span></th><th scope="col" class="num">B <span class="muted small">n=${tp.b.n}</span></th><th scope="col" class="num">B/A change</th>`;
      })}</tr>
    </thead>
    <tbody>${keys.map(
      (k) => html`<tr data-figure=${k.key}>
      <th scope="row">${comparedLabel(k).label}${comparedLabel(k).unit ? html` <span class="muted">${comparedLabel(k).unit}</span>` : nothing}</th>
      ${v.at.map((x) => {
        const f = x.comparison.figures.find((y) => y.key === k.key);
        if (!f) return html`<td class="num">–</td><td class="num">–</td><td class="num">–</td>`;
        return html`<td class="num">${side(f.a, f)}</td><td class="num">${side(f.b, f)}</td>${changeCell(f)}`;
      })}</tr>`,
    )}</tbody>
  </table></div>
  <p class="small muted ab-method">Each figure: ${methodText(v.at[v.at.length - 1].comparison.figures[0].a)}; the change is B over A with its interval. ${comparisonMethodText(v.at[v.at.length - 1].comparison.figures)}</p>`;
}

function abCompare(app: ViewContext, e: ShownExperiment): TemplateResult | typeof nothing {
  const views = abViews(e);
  if (!views.length) {
    app.abChart.update(null, null);
    return nothing;
  }
  const charted = views.find((v) => v.timelines) ?? null;
  app.abChart.update(
    charted?.timelines ? { label: `A: ${charted.a.label}`, ticks: charted.timelines.a } : null,
    charted?.timelines ? { label: `B: ${charted.b.label}`, ticks: charted.timelines.b } : null,
  );
  return html`<div id="ab-compare" class="analysis-block">
    <h3 class="subhead">A/B comparison</h3>
    ${views.map(
      (v, i) => html`<div class="ab-pair" data-comparison=${i} data-a=${v.a.id} data-b=${v.b.id}>
      <p><strong>${v.label}</strong><br><span class="muted small">A: ${v.a.label} · B: ${v.b.label}</span></p>
      ${
        v.at.length === 0
          ? html`<p class="empty">No thread count has completed in both arms yet.</p>`
          : html`
        <p class="ab-verdict" data-kind=${v.at[v.at.length - 1].comparison.verdict.kind}><strong>At ${v.at[v.at.length - 1].threads} thread${v.at[v.at.length - 1].threads === 1 ? '' : 's'}:</strong> ${v.at[v.at.length - 1].comparison.verdict.text}</p>
        <ul class="summary ab-summary">${v.at[v.at.length - 1].summary.slice(1).map((s) => html`<li>${s}</li>`)}</ul>
        ${v.at.slice(0, -1).map((x) => html`<p class="small muted">At ${x.threads} thread${x.threads === 1 ? '' : 's'}: ${x.summary.join(' ')}</p>`)}
        ${abTable(v)}`
      }
    </div>`,
    )}
    ${charted ? html`<p class="small muted">Throughput over time at ${charted.timelines!.threads} threads: ${charted.label}</p>` : nothing}
    ${app.abChart.element}
  </div>`;
}

function cycleMathView(e: ShownExperiment): TemplateResult | typeof nothing {
  const rows = mathRows(e);
  if (!rows.length) return nothing;
  return html`<div id="cycle-math" class="analysis-block">
    <h3 class="subhead">Doing the math</h3>
    <p class="small">Cycles the run had = elapsed seconds × CPUs used × measured clock rate (Δ cpu_ticks ÷ Δ ms_ticks × 1000); divided by each
      spinlock's spins and by the rows written. Few cycles per spin means the spinlock takes a large share of the CPU.</p>
    <div class="table-wrap"><table class="data-table" aria-label="Doing the math: inputs per run">
      <thead><tr><th scope="col">Run</th><th scope="col" class="num">Elapsed</th><th scope="col" class="num">CPUs used</th>
        <th scope="col" class="num">Δ cpu_ticks</th><th scope="col" class="num">Δ ms_ticks</th><th scope="col" class="num">Clock</th>
        <th scope="col" class="num">Cycles</th><th scope="col" class="num">Rows</th><th scope="col" class="num">Cycles per row</th></tr></thead>
      <tbody>${rows.map(
        (r) => html`<tr data-run=${String(r.run.index)}>
        <th scope="row">${runLabel(r.run, e)}</th>
        <td class="num">${quantityText(r.math.inputs.elapsedSec, 's')}</td><td class="num">${r.math.inputs.cpus}</td>
        <td class="num">${r.math.inputs.clock ? exactNumber(r.math.inputs.clock.cpuTicksDelta) : '–'}</td>
        <td class="num">${r.math.inputs.clock ? exactNumber(r.math.inputs.clock.msTicksDelta) : '–'}</td>
        <td class="num">${r.math.inputs.clockHz ? `${(r.math.inputs.clockHz / 1e9).toFixed(2)} GHz` : '–'}</td>
        <td class="num">${r.math.cycles === null ? '–' : exactNumber(r.math.cycles)}</td>
        <td class="num">${exactNumber(r.math.inputs.rows)}</td>
        <td class="num">${num(r.math.cyclesPerRow)}</td></tr>`,
      )}</tbody>
    </table></div>
    ${rows.map(
      (r) => html`<div class="math-run" data-run=${String(r.run.index)}>
      <p class="formula"><strong>${runLabel(r.run, e)}:</strong> <code>${r.math.formula}</code></p>
      ${r.cores ? html`<p class="formula small">On physical cores, as the post counts them: <code>${r.cores.formula}</code></p>` : nothing}
      ${r.math.measured ? html`<p class="formula small">Measured, from the schedulers' busy time: <code>${r.math.measured.formula}</code>; ${r.math.measured.cyclesPerRow === null ? 'cycles per row unknown' : `${thousands(r.math.measured.cyclesPerRow)} cycles per row`}</p>` : nothing}
      ${
        r.spinlocks.length
          ? html`<ul class="summary">${r.spinlocks.map(
              (s) => html`<li data-spinlock=${s.name}><strong>${s.name}</strong>: ${exactNumber(s.spins)} spins,
        ${num(s.cyclesPerSpin)} cycles per spin, ${num(s.spinsPerRow)} spins per row</li>`,
            )}</ul>`
          : html`<p class="muted small">No spinlock spun.</p>`
      }
    </div>`,
    )}
  </div>`;
}

function writelogView(e: ShownExperiment): TemplateResult | typeof nothing {
  if (writelogOthers(e)) return html`<p id="writelog-others" class="small muted">${WRITELOG_OTHERS}</p>`;
  if (!showsWritelog(e)) return nothing;
  const rows = writelogRows(e);
  return html`<div id="writelog-diagnosis" class="analysis-block">
    <h3 class="subhead">WRITELOG diagnosis</h3>
    <p class="small">The figures of ${citeHtml('writelog-at-scale')} for each run beside the values it names: a WRITELOG wait well above the log's write stall means commits wait on more
      than the storage; pending log I/O at the log writer's limit of outstanding writes means its queue is full.</p>
    ${
      rows.length === 0
        ? html`<p class="empty">The diagnosis appears as runs complete.</p>`
        : rows.map(
            (r) => html`<div class="writelog-run" data-run=${String(r.run.index)}>
      <p><strong>${runLabel(r.run, e)}:</strong> ${r.diagnosis.summary}</p>
      <div class="table-wrap"><table class="data-table" aria-label=${`WRITELOG diagnosis, ${runLabel(r.run, e)}`}>
        <thead><tr><th scope="col">Figure</th><th scope="col">This run</th><th scope="col">The post</th></tr></thead>
        <tbody>${r.diagnosis.lines.map(
          (l) => html`<tr data-line=${l.key} data-flag=${l.flag}>
          <th scope="row"><span class="flag flag-${l.flag}" aria-hidden="true"></span>${l.label}</th><td>${l.verdict}</td><td class="muted">${l.threshold}</td></tr>`,
        )}</tbody>
      </table></div>
    </div>`,
          )
    }
  </div>`;
}

export function armAnalysisView(app: ViewContext): TemplateResult {
  return section(
    app,
    'analysis',
    'Analysis',
    () => {
      const e = app.shownExperiment();
      const choices = [...app.experiments.values()];
      const picker = choices.length
        ? html`<label class="inline">Experiment
      <select id="analysis-experiment" @change=${(ev: Event) => app.setView({ analysis: (ev.target as HTMLSelectElement).value })}>
        ${options(app.view.analysis, [[ACTIVE, `Current: ${app.state?.active?.title ?? 'none'}`], ...choices.map((x): Choice => [x.id, x.title])])}
      </select></label>`
        : nothing;
      if (!e || e.runs.length === 0) {
        app.abChart.update(null, null);
        return html`<div class="toolbar">${picker}</div><p class="empty" id="analysis-empty">Run a preset (or any experiment), or open one from the history: its A/B comparison, doing the math and WRITELOG diagnosis appear here.</p>`;
      }
      return html`<div class="toolbar">${picker}<span class="muted">${e.title}${e.preset ? html` · preset ${e.preset.id}, reproducing ${citeHtml(e.preset.post)}` : ''}</span></div>
      ${
        e.preset
          ? html`<p class="question small"><strong>Question:</strong> ${e.preset.question}</p>
        ${e.preset.notes.length ? html`<ul class="summary small">${e.preset.notes.map((n) => html`<li>${n}</li>`)}</ul>` : nothing}`
          : nothing
      }
      ${abCompare(app, e)}
      ${cycleMathView(e)}
      ${writelogView(e)}`;
    },
    { id: 'section-analysis' },
  );
}
