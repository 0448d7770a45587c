// The whole panel: a sticky header (the server, the views' tabs), the banners, and one tab panel per view, each
// answering one question (shared/panelViews.ts): Now (the connection and the server), Experiment (scenario, knobs,
// run, presets, live charts), Results and compare (results, arms, comparison, scaling), Watch, Stacks ("Why is it
// spinning?"), Best settings (the tune) and History. Every view is drawn and the hidden ones kept, so none loses state.
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
import { tabPanel, tabsView } from './tabs';
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
export const TICK_REGIONS = ['run', 'liveSpinlocks', 'stacksLive', 'results', 'armAnalysis', 'compare', 'scaling'] as const;

/**
 * "Why is it spinning?" on the current run's spinlocks, under the charts (keyboard-reachable, unlike the legend), and
 * in the Stacks view when it shows the live experiment (`id` tells the two lists apart).
 */
function liveSpinlocks(app: ViewContext, id = 'live-spin-rows'): TemplateResult | typeof nothing {
  const idx = app.live.currentIndex;
  const run = idx === null ? null : app.live.runs.get(idx);
  return run ? spinlockRowsView(app, liveSpinlockRows(run), 'live', id) : nothing;
}

/** The saved experiment the analysis views show (not the live one): its spinlocks, to capture again now. */
function savedSpinlocks(app: ViewContext) {
  const e = app.view.analysis === ACTIVE ? null : app.shownExperiment();
  return e ? spinlockRowsOfRuns(e.runs) : [];
}

/** The header's compact connection line: the server and how it is connected, or "not connected". */
function connectionLine(app: ViewContext): TemplateResult {
  const s = app.state;
  const server = s?.server?.identity;
  const status = s?.connection.status ?? 'disconnected';
  const text = server
    ? `${server.serverName}${server.simulated ? ' (simulator)' : ''}`
    : status === 'connected'
      ? 'connected'
      : status === 'connecting'
        ? 'connecting...'
        : 'not connected';
  return html`<span class="muted conn-line" id="header-connection" data-status=${status}>${text}</span>`;
}

export function panelTemplate(app: ViewContext): TemplateResult {
  const check = app.check();
  void section;
  return html`
    <header class="panel-header" id="panel-header">
      <div class="panel-title"><h1>Spinlock Lab</h1>${connectionLine(app)}</div>
      ${tabsView(app)}
    </header>
    ${bannersView(app)}
    ${tabPanel(
      app,
      'now',
      html`${app.region('now', () => nowView(app))}<div class="setup-grid"><div class="column">${connectionView(app)}</div><div class="column">${serverView(app)}</div></div>`,
    )}
    ${tabPanel(
      app,
      'experiment',
      html`<div class="experiment-grid">
        <div class="column">${scenarioView(app, check)}${knobsView(app, check)}${app.region('run', () => runView(app, check))}${presetsView(app)}</div>
        <div class="column experiment-live">${chartsView(app)}</div>
      </div>`,
    )}
    ${tabPanel(
      app,
      'results',
      html`${app.region('results', () => resultsView(app))}${app.region('armAnalysis', () => armAnalysisView(app))}${app.region(
        'compare',
        () => compareView(app),
      )}${app.region('scaling', () => scalingView(app))}`,
    )}
    ${tabPanel(app, 'watch', html`${app.region('watch', () => watchView(app))}`)}
    ${tabPanel(
      app,
      'stacks',
      html`${stacksView(app, savedSpinlocks(app))}${app.region('stacksLive', () =>
        app.view.analysis === ACTIVE ? html`${liveSpinlocks(app, 'stacks-live-rows')}` : html``,
      )}`,
    )}
    ${tabPanel(app, 'tune', tuneView(app))}
    ${tabPanel(app, 'history', historyView(app))}
  `;
}
