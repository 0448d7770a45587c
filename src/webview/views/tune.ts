// The "Find the best settings" section: the form, and the search it shows: the one running (or last run) here, or a
// saved tune opened from the history and picked for the analysis.
import { html, nothing, type TemplateResult } from 'lit';
import type { TuneInfo } from '../../shared/tune';
import type { ViewContext } from './context';
import { section } from './common';
import { tuneFormView } from './tuneForm';
import { tuneBoardView } from './tuneBoard';
import { ACTIVE } from '../model/viewState';

interface ShownTune {
  tune: TuneInfo;
  title: string;
  scenarioId: string;
  running: boolean;
  opened: boolean;
}

function shownTune(app: ViewContext): ShownTune | null {
  const picked = app.view.analysis !== ACTIVE ? app.experiments.get(app.view.analysis) : undefined;
  if (picked?.tune) return { tune: picked.tune, title: picked.title, scenarioId: picked.scenario.id, running: false, opened: true };
  const live = app.tune.live;
  const active = app.state?.active;
  if (!live || !active || active.experimentId !== live.experimentId) return null;
  const running = active.status === 'running' || active.status === 'starting';
  return { tune: live.tune, title: active.title, scenarioId: active.scenarioId, running, opened: false };
}

/** The search shown, read again on every render (a tuneProgress renders this region alone). */
function shownView(app: ViewContext): TemplateResult | typeof nothing {
  const shown = shownTune(app);
  if (!shown) return nothing;
  const unit = app.state?.scenarios.find((x) => x.id === shown.scenarioId)?.unit ?? null;
  return html`<h3 class="subhead" id="tune-shown">${shown.opened ? 'Opened: ' : ''}${shown.title}</h3>
    ${tuneBoardView(app, shown.tune, shown.running, unit)}`;
}

export function tuneView(app: ViewContext): TemplateResult {
  return section(
    app,
    'tune',
    'Find the best settings',
    () => {
      const s = app.state;
      if (!s) return html`<p class="empty">Loading…</p>`;
      return html`
        <p class="muted small">A budgeted search of the knobs Spinlock Lab controls (CPU affinity, sessions, rows per transaction,
          and delayed durability only when allowed) for the settings that serve an objective best on this server, with how
          sure it is and why.</p>
        ${tuneFormView(app)}
        ${app.region('tune', () => html`${shownView(app)}`)}`;
    },
    { id: 'section-tune' },
  );
}
