// The Now view: what is wrong on the connected server right now, in words first. The findings of the last minute (the
// host's: features/now), each with its evidence and its next steps as one click (watch it, capture its stacks, open
// the preset that tests the fix, read the post); then the top spinlocks, waits and latches with their trend. Every
// figure is server-wide and per second. Before the first delta it says it is reading; with nothing loud, that the
// server is quiet and by which thresholds.
import { html, nothing, type TemplateResult } from 'lit';
import { ToHost } from '../../shared/protocol';
import type { NowFinding, NowItemView, NowView } from '../../shared/nowMessages';
import type { NowStep } from '../../shared/nowSteps';
import { quantityText } from '../../shared/units';
import type { ViewContext } from './context';
import type { PanelView } from '../../shared/panelViews';
import { ask as askWhy } from './stacks';

const TREND_MARK: Record<NowItemView['trend'], string> = { rising: '▲', falling: '▼', steady: '▬', new: '●', unknown: '' };

/** Shows the view that holds a section, opens the section and brings `focus` into view once it is drawn. */
function openAt(app: ViewContext, view: PanelView, key: string, section: string, focus: string): void {
  app.showView(view);
  app.setView({ open: { ...app.view.open, [key]: true } });
  requestAnimationFrame(() => {
    document.getElementById(section)?.scrollIntoView({ block: 'start' });
    document.querySelector<HTMLElement>(focus)?.focus({ preventScroll: true });
  });
}

function stepButton(app: ViewContext, f: NowFinding, s: NowStep): TemplateResult {
  const connected = app.state?.connection.status === 'connected';
  switch (s.kind) {
    case 'watch': {
      const watching = app.state?.watch?.status === 'running' || app.state?.watch?.status === 'starting';
      return html`<button class="chip" data-step="watch" ?disabled=${!connected}
        title=${watching ? 'A watch is running: shows it' : `Starts a read-only watch of the server (1 s), to follow ${f.name} over time`}
        @click=${() => {
          if (!watching) app.post(ToHost.watchStart, { intervalMs: 1000, showBenign: false });
          openAt(app, 'watch', 'watch', 'section-watch', '#section-watch > summary');
        }}>${watching ? 'Show the watch' : s.label}</button>`;
    }
    case 'stacks':
      return html`<button class="chip" data-step="stacks" ?disabled=${!connected || app.stacks.phase === 'running'}
        title=${`Says what a capture does first: the call stacks of ${s.spinlock}'s backoffs for a few seconds`}
        @click=${() => askWhy(app, s.spinlock, 'now')}>${s.label}</button>`;
    case 'preset':
      return html`<button class="chip" data-step="preset" title="Opens the preset with its plan for this server; nothing runs until you press Run"
        @click=${() => {
          app.pickPreset(s.presetId);
          openAt(app, 'experiment', 'presets', 'section-presets', '#preset');
        }}>${s.label}</button>`;
    case 'post':
      return html`<a class="chip now-post" data-step="post" href=${s.url} title=${`${s.cite}: opens the blog's search for its title`}>${s.label}</a>`;
  }
}

function findingView(app: ViewContext, f: NowFinding): TemplateResult {
  return html`<li class="now-finding" data-finding=${f.key}>
    <p class="now-finding-text">${f.text}</p>
    <p class="muted now-evidence">${f.evidence}</p>
    <div class="toolbar now-steps" role="group" aria-label=${`Next steps for ${f.name}`}>${f.steps.map((s) => stepButton(app, f, s))}</div>
  </li>`;
}

function rankTable(id: string, title: string, rows: readonly NowItemView[], spin: boolean): TemplateResult {
  return html`<table class="data-table now-rank" id=${id}>
    <caption>${title}</caption>
    <thead><tr><th scope="col">Name</th><th scope="col" class="num">${spin ? 'Spins/s' : 'Wait ms/s'}</th>${spin ? html`<th scope="col" class="num">Backoffs/s</th>` : nothing}<th scope="col">Trend</th></tr></thead>
    <tbody>${
      rows.length
        ? rows.map(
            (r) => html`<tr data-name=${r.name} data-trend=${r.trend}><th scope="row">${r.name}</th>
            <td class="num">${quantityText(r.perSec, r.unit, { inTable: true })}</td>
            ${spin ? html`<td class="num">${r.backoffsPerSec === null ? '-' : quantityText(r.backoffsPerSec, 'backoffs/s', { inTable: true })}</td>` : nothing}
            <td><span aria-hidden="true" class="now-trend">${TREND_MARK[r.trend]}</span> ${r.trendText}</td></tr>`,
          )
        : html`<tr><td colspan=${spin ? 4 : 3} class="muted">none moved</td></tr>`
    }</tbody>
  </table>`;
}

function errorView(app: ViewContext): TemplateResult | typeof nothing {
  const e = app.now.view.error;
  if (!e) return nothing;
  return html`<div class="now-error" id="now-error" role="alert">
    <p>${e.message}</p>
    ${
      e.grant
        ? html`<p>To allow it, run as an administrator:</p><pre id="now-grant" tabindex="0"><code>${e.grant}</code></pre>
          <button class="chip" id="btn-now-copy-grant" @click=${() => app.post(ToHost.clipboardCopy, { text: e.grant! })}>Copy the GRANT</button>`
        : nothing
    }
  </div>`;
}

const clock = (iso: string | null) => (iso ? new Date(iso).toTimeString().slice(0, 8) : '');

/** What the trends were measured against, said once under the tables. */
function trendBasis(v: NowView): string {
  const rows = [...v.spinlocks, ...v.waits, ...v.latches];
  if (rows.length && rows.every((r) => r.trend === 'unknown'))
    return `no trend yet: history since ${clock(v.since)}, trends from two minutes on`;
  return v.fullHour
    ? "trends against the hour's median minute"
    : `trends against the minute before, or the median minute since ${clock(v.since)}`;
}

/** The Now view (its own region: redrawn alone at each reading). */
export function nowView(app: ViewContext): TemplateResult {
  const v = app.now.view;
  const ranks = v.windowSec > 0;
  return html`<section class="now" id="now" data-status=${v.status} aria-labelledby="now-title">
    <h2 id="now-title">Now${v.serverName ? html` <span class="muted">on ${v.serverName}</span>` : nothing}</h2>
    <p class="now-headline" id="now-headline" role="status">${v.headline}</p>
    ${app.now.dropped ? html`<p class="muted" id="now-dropped">${app.now.dropped}</p>` : nothing}
    ${errorView(app)}
    ${v.findings.length ? html`<ol class="now-findings" id="now-findings">${v.findings.map((f) => findingView(app, f))}</ol>` : nothing}
    ${
      ranks
        ? html`<div class="now-ranks" id="now-ranks">
          ${rankTable('now-spinlocks', 'Top spinlocks', v.spinlocks, true)}${rankTable('now-waits', 'Top waits (benign left out)', v.waits, false)}${rankTable('now-latches', 'Top latches', v.latches, false)}
        </div>
        <p class="muted" id="now-basis">Server-wide, per second, over the ${v.windowSec >= 59 ? 'last minute' : `last ${Math.round(v.windowSec)} s`};
          ${trendBasis(v)}.
          Read at ${clock(v.updatedAt)}${v.status === 'paused' ? ' (paused)' : ''}.</p>`
        : nothing
    }
  </section>`;
}
