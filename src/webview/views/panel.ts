// The whole panel: banners, the set-up column (connection, server, scenario, knobs, run), the presets, the tune, the live
// charts, the Watch mode, "Why is it spinning?", results, and the analysis (arms, history, comparison, scaling).
import { html, nothing, type TemplateResult } from 'lit';
import type { ViewContext } from './context';
import { bannersView } from './banners';
import { section, sectionOpen } from './common';
import { compareView } from './compare';
import { connectionView } from './connection';
import { historyView } from './history';
import { knobsView } from './knobs';
import { resultsView } from './results';
import { runView } from './run';
import { scalingView } from './scaling';
import { presetsView } from './presets';
import { tuneView } from './tune';
import { armAnalysisView } from './armAnalysis';
import { scenarioView } from './scenario';
import { serverView } from './server';
import { watchView } from './watch';
import { outlineView } from './outline';
import { spinlockRowsView, stacksView } from './stacks';
import { liveSpinlockRows, spinlockRowsOfRuns } from '../model/stacks';
import { ACTIVE } from '../model/viewState';
import { nowView } from './now';

function chartsView(app: ViewContext): TemplateResult {
  // The charts element is built once and kept: lit places the same node on every render. A closed section hides it
  // (CSS) rather than removing it, so the buffered data and the canvases survive.
  const sec = sectionOpen(app, 'charts');
  return html`<details class="section" id="section-charts" .open=${sec.bind} @toggle=${sec.onToggle}>
    <summary><span class="section-title">Live charts</span></summary>
    <div class="section-body">${app.charts.element}${app.region('liveSpinlocks', () => html`${liveSpinlocks(app)}`)}</div>
  </details>`;
}

/** The regions a tick of the active experiment changes (rendered alone after one; the Watch's is 'watch'). */
export const TICK_REGIONS = ['run', 'liveSpinlocks', 'results', 'armAnalysis', 'compare', 'scaling'] as const;

/** "Why is it spinning?" on the current run's spinlocks, under the charts (keyboard-reachable, unlike the legend). */
function liveSpinlocks(app: ViewContext): TemplateResult | typeof nothing {
  const idx = app.live.currentIndex;
  const run = idx === null ? null : app.live.runs.get(idx);
  return run ? spinlockRowsView(app, liveSpinlockRows(run), 'live', 'live-spin-rows') : nothing;
}

/** The saved experiment the analysis views show (not the live one): its spinlocks, to capture again now. */
function savedSpinlocks(app: ViewContext) {
  const e = app.view.analysis === ACTIVE ? null : app.shownExperiment();
  return e ? spinlockRowsOfRuns(e.runs) : [];
}

export function panelTemplate(app: ViewContext): TemplateResult {
  const check = app.check();
  void section;
  return html`
    <header class="panel-header">
      <h1>Spinlock Lab</h1>
      <span class="muted">${app.state?.server ? `${app.state.server.identity.serverName}${app.state.server.identity.simulated ? ' (simulator)' : ''}` : 'not connected'}</span>
    </header>
    ${outlineView(app)}
    ${bannersView(app)}
    ${app.region('now', () => nowView(app))}
    <div class="setup-grid">
      <div class="column">${connectionView(app)}${serverView(app)}</div>
      <div class="column">${scenarioView(app, check)}${knobsView(app, check)}${app.region('run', () => runView(app, check))}</div>
    </div>
    ${presetsView(app)}
    ${tuneView(app)}
    ${chartsView(app)}
    ${app.region('watch', () => watchView(app))}
    ${stacksView(app, savedSpinlocks(app))}
    ${app.region('results', () => resultsView(app))}
    ${app.region('armAnalysis', () => armAnalysisView(app))}
    ${historyView(app)}
    ${app.region('compare', () => compareView(app))}
    ${app.region('scaling', () => scalingView(app))}
  `;
}
