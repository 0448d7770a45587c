// Side-by-side comparison of any two runs the panel has (the current experiment and any opened from the history):
// each figure in A and B with the change in %, a summary in words from those numbers, and both throughputs over time.
// By default the experiment's own pair (shared/runPairing); two runs of different workloads get their figures side by
// side and no verdict.
import { html, nothing, type TemplateResult } from 'lit';
import { compareRuns, runFigures, type ComparedFigure } from '../../shared/analysis';
import { defaultPair, NO_VERDICT, runsDiffer } from '../../shared/runPairing';
import { comparedLabel, comparedText } from '../model/results';
import { runRefLabel } from '../model/panelRuns';
import { changeText } from '../../shared/units';
import { changeMeaningOf, pairNoise, type PairNoise } from '../../shared/compareNoise';
import type { RunRef } from '../model/viewState';
import type { ViewContext } from './context';
import { section } from './common';

const label = runRefLabel;

function figuresOf(r: RunRef) {
  const record = r.record ?? r.run?.record;
  if (record) return runFigures(record);
  if (r.run)
    return runFigures({
      threads: r.threads,
      status: r.status,
      totals: r.run.totals,
      latency: null,
      ...(r.run.derived ? { derived: r.run.derived } : {}),
    });
  return runFigures({ threads: r.threads, status: r.status, ticks: r.ticks });
}

function picker(app: ViewContext, id: string, which: 'compareA' | 'compareB', runs: RunRef[], value: string | null): TemplateResult {
  return html`<label class="inline">${which === 'compareA' ? 'Run A' : 'Run B'}
    <select id=${id} @change=${(e: Event) => app.setView({ [which]: (e.target as HTMLSelectElement).value || null })}>
      <option value="" ?selected=${value === null}>Pick a run</option>
      ${[...new Set(runs.map((r) => r.experimentKey))].map((key) => {
        const of = runs.filter((r) => r.experimentKey === key);
        return html`<optgroup label=${of[0].experimentTitle}>${of.map(
          (r) => html`<option value=${r.key} ?selected=${value === r.key}>${label(r)}</option>`,
        )}</optgroup>`;
      })}
    </select></label>`;
}

/**
 * What a change means, for its colour: better or worse past the noise; neutral ('') inside it (under 5%, or for
 * a single pair of runs whose noise is unknown beyond that) and for the knob the comparison varies (the thread count
 * of a sweep is its input, not its outcome).
 */
export function changeMeaning(f: Pick<ComparedFigure, 'key' | 'changePct' | 'direction'>, knobs: readonly string[] = ['threads']): string {
  if (f.changePct === null || Math.abs(f.changePct) < 5 || knobs.includes(f.key)) return '';
  return f.changePct > 0 === (f.direction === 'higher-better') ? 'better' : 'worse';
}

/** Each figure of A and B with its change (green when better, red when worse): runs here, a watch's windows too. */
export function figuresTable(
  figures: readonly ComparedFigure[],
  o: { id: string; label: string; a: string; b: string; noChange?: boolean; noise?: PairNoise },
): TemplateResult {
  return html`<table class="data-table" id=${o.id} aria-label=${o.label}>
    <thead><tr><th scope="col">Figure</th><th scope="col" class="num">${o.a}</th><th scope="col" class="num">${o.b}</th>${
      o.noChange ? nothing : html`<th scope="col" class="num">Change</th>`
    }</tr></thead>
    <tbody>${figures.map((f) => {
      // Two runs: coloured only past what their noise can do (shared/compareNoise.ts).
      const meaning = o.noise ? changeMeaningOf(f, o.noise) : changeMeaning(f);
      const head = comparedLabel(f);
      return html`<tr data-figure=${f.key}><th scope="row">${head.label}${head.unit ? html` <span class="muted">${head.unit}</span>` : nothing}</th>
        <td class="num" title=${f.a === null && f.note ? f.note : nothing}>${comparedText(f, 'a')}</td><td class="num" title=${f.b === null && f.note ? f.note : nothing}>${comparedText(f, 'b')}</td>
        ${o.noChange ? nothing : html`<td class="num change ${meaning}" data-meaning=${meaning || 'neutral'}>${f.changePct === null ? '–' : changeText(f.changePct)}</td>`}</tr>`;
    })}</tbody>
  </table>`;
}

export function compareView(app: ViewContext): TemplateResult {
  return section(app, 'compare', 'Compare two runs', () => {
    const runs = app.allRuns();
    if (runs.length < 2) {
      app.compareChart.update(null, null);
      return html`<div id="compare"><p class="empty">Comparing needs two runs: run a sweep, or open an earlier experiment from the history.</p></div>`;
    }
    // Defaults: the experiment's own pair (A against B of its preset, a run against its repetition, a sweep's ends).
    const pair = defaultPair(
      runs.map((r) => ({ ...r, armId: r.arm.id })),
      (key) => app.comparisonsOf(key),
    );
    const aKey = app.view.compareA ?? pair?.a ?? null;
    const bKey = app.view.compareB ?? pair?.b ?? null;
    const a = runs.find((r) => r.key === aKey) ?? null;
    const b = runs.find((r) => r.key === bKey) ?? null;
    const apart = a && b ? runsDiffer(a, b) : null;
    app.compareChart.update(a && { label: `Run A: ${label(a)}`, ticks: a.ticks }, b && { label: `Run B: ${label(b)}`, ticks: b.ticks });
    const cmp = a && b ? compareRuns(figuresOf(a), figuresOf(b)) : null;
    const noise = a && b ? pairNoise({ ...a, armId: a.arm.id }, { ...b, armId: b.arm.id }) : null;
    const chosen =
      !app.view.compareA && !app.view.compareB && pair
        ? html`<p class="small muted" id="compare-default">Compared by default: ${pair.why}.</p>`
        : nothing;
    const sameExperiment = a && b && a.experimentKey === b.experimentKey;
    return html`<div id="compare">
      <div class="toolbar">${picker(app, 'compare-a', 'compareA', runs, aKey)} ${picker(app, 'compare-b', 'compareB', runs, bKey)}</div>
      ${chosen}
      ${
        cmp && a && b
          ? html`
        ${sameExperiment ? nothing : html`<p class="small muted" id="compare-experiments">A from ${a.experimentTitle}; B from ${b.experimentTitle}.</p>`}
        ${
          apart
            ? html`<div class="notes warn-note" id="compare-different" role="note"><strong>Different workloads.</strong> ${apart} ${NO_VERDICT}</div>`
            : html`${noise ? html`<p class="small muted" id="compare-noise" role="note" data-same-settings=${String(noise.sameSettings)}>${noise.note}</p>` : nothing}
              <ul class="summary" id="compare-summary">${cmp.summary.map((s) => html`<li>${s}</li>`)}</ul>`
        }
        <div class="compare-grid">
          <div class="table-wrap">
            ${figuresTable(cmp.figures, { id: 'compare-table', label: 'Figures of run A and run B', a: 'A', b: 'B', noChange: apart !== null, ...(noise ? { noise } : {}) })}
          </div>
          ${app.compareChart.element}
        </div>`
          : html`<p class="empty">Pick two runs${pair ? '' : ': no experiment here has two runs of its own to compare, so none is chosen for you'}.</p>`
      }
    </div>`;
  });
}
