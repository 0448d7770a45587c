// "Why is it spinning?": a button on each spinlock the panel shows (the live experiment, the watch, a saved
// experiment), the statement of what a capture does before it runs (an Extended Events session, its permission and
// cost, dropped afterwards) with the length picked, its progress and Cancel, and the answer first: the top stacks
// with their counts and share, the flame view (stacksFlame.ts), then the notes on reading the counts. Simulated
// captures say so first.
import { html, nothing, type TemplateResult } from 'lit';
import { ToHost } from '../../shared/protocol';
import { STACK_DURATIONS_MS, type StackDurationMs } from '../../shared/stacksMessages';
import { lossSummary, lostAny, stackNames, type StackCapture } from '../../shared/stacks';
import { frameText, pct, type SpinlockRow, type StacksSource } from '../model/stacks';
import { exactNumber } from '../model/format';
import type { ViewContext } from './context';
import { flameView } from './stacksFlame';
import { options, sectionOpen, type Choice } from './common';

const SOURCE_WORDS: Record<StacksSource, string> = {
  live: 'the live experiment',
  watch: 'the watch',
  saved: 'a saved experiment (captured again now)',
  now: 'the Now view',
};

/** Opens the statement of what a capture does in the Stacks view, and moves the keyboard focus there. */
export function ask(app: ViewContext, name: string, source: StacksSource): void {
  app.stacks.ask(name, source, source === 'saved' ? app.view.analysis : null);
  app.setView({ open: { ...app.view.open, stacks: true } });
  app.showView('stacks');
  requestAnimationFrame(() => {
    const el = document.getElementById('stacks-duration');
    el?.scrollIntoView({ block: 'nearest' });
    el?.focus();
  });
}

/** The button on one spinlock. */
export function whyButton(app: ViewContext, name: string, source: StacksSource): TemplateResult {
  const connected = app.state?.connection.status === 'connected';
  const running = app.stacks.phase === 'running';
  return html`<button class="chip why-spinning" data-why=${name} aria-label=${`Why is it spinning? (${name})`} ?disabled=${!connected || running}
    title=${!connected ? 'Connect to a server to capture call stacks' : running ? 'A capture is running' : `Capture the call stacks of ${name}'s backoffs`}
    @click=${() => ask(app, name, source)}>Why is it spinning?</button>`;
}

/** A small table of the spinlocks that spun, each with its button. */
export function spinlockRowsView(
  app: ViewContext,
  rows: readonly SpinlockRow[],
  source: StacksSource,
  id: string,
): TemplateResult | typeof nothing {
  if (!rows.length) return nothing;
  return html`<table class="data-table spin-rows" id=${id}>
    <caption class="muted">Spinlocks that backed off most: ask why one spins (captures its call stacks for a few seconds)</caption>
    <thead><tr><th scope="col">Spinlock</th><th scope="col" class="num">Backoffs</th><th scope="col" class="num">Spins</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
    <tbody>${rows.map(
      (r) => html`<tr data-spinlock=${r.name}><th scope="row">${r.name}</th><td class="num">${exactNumber(r.backoffs)}</td>
      <td class="num">${exactNumber(r.spins)}</td><td>${whyButton(app, r.name, source)}</td></tr>`,
    )}</tbody>
  </table>`;
}

function confirmView(app: ViewContext): TemplateResult {
  const m = app.stacks;
  const name = m.spinlock ?? '';
  const server = app.state?.server?.identity.serverName ?? 'the connected server';
  const start = () => {
    const req = m.start();
    if (req) app.post(ToHost.stacksCapture, req);
    app.requestRender();
  };
  return html`<div class="stacks-confirm" id="stacks-confirm" role="region" aria-labelledby="stacks-confirm-title">
    <h3 id="stacks-confirm-title">Why is ${name} spinning?</h3>
    <p id="stacks-summary">Records the call stack of every ${name} backoff on ${server} for the time you pick, with a short-lived
      Extended Events session dropped afterwards. Needs <code>ALTER ANY EVENT SESSION</code> and <code>VIEW SERVER STATE</code>;
      costs a call stack per backoff while it runs.</p>
    <details class="confirm-details" id="stacks-details"><summary>Show details</summary>
    <p>Asked from ${SOURCE_WORDS[m.source]}.</p>
    <ul id="stacks-what">
      <li>It creates a short-lived Extended Events session named <code>SpinlockLab_…</code>: the <code>sqlos.spinlock_backoff</code> event for ${name} only,
        with the <code>package0.callstack</code> action, into a histogram target.</li>
      <li>It needs <code>ALTER ANY EVENT SESSION</code> (or, on SQL Server 2022 and later, the finer <code>CREATE ANY EVENT SESSION</code>,
        <code>ALTER ANY EVENT SESSION ENABLE</code> and <code>DROP ANY EVENT SESSION</code>), and <code>VIEW SERVER STATE</code>
        (2022 and later: <code>VIEW SERVER PERFORMANCE STATE</code>) to read the target.</li>
      <li>It costs a call stack per backoff event while it runs: keep it short on a busy production server.</li>
      <li>It drops the session afterwards, when you cancel, and when the panel closes. An experiment or a watch running now goes on.</li>
    </ul>
    </details>
    <div class="toolbar">
      <label class="inline" for="stacks-duration">Capture for
        <select id="stacks-duration" @change=${(e: Event) => {
          m.durationMs = Number((e.target as HTMLSelectElement).value) as StackDurationMs;
        }}>
          ${options(
            String(m.durationMs),
            STACK_DURATIONS_MS.map((ms): Choice => [String(ms), `${ms / 1000} s`]),
          )}
        </select>
      </label>
      <button class="chip chip-primary" id="btn-stacks-capture" @click=${start}>Capture stacks</button>
      <button class="chip" id="btn-stacks-dismiss" @click=${() => {
        m.dismiss();
        app.requestRender();
      }}>Not now</button>
    </div>
  </div>`;
}

function progressView(app: ViewContext): TemplateResult {
  const m = app.stacks;
  const { elapsedMs, durationMs } = m.progress;
  return html`<div id="stacks-running">
    <p aria-live="polite">Capturing the backoff call stacks of <strong>${m.spinlock}</strong>: ${Math.round(elapsedMs / 1000)} of ${Math.round(durationMs / 1000)} s.</p>
    <progress id="stacks-progress" max=${String(Math.max(durationMs, 1))} .value=${Math.min(elapsedMs, durationMs)} aria-label="Capture progress"></progress>
    <button class="chip" id="btn-stacks-cancel" @click=${() => app.post(ToHost.stacksCancel, {})}>Cancel capture</button>
  </div>`;
}

function errorView(app: ViewContext): TemplateResult | typeof nothing {
  const e = app.stacks.error;
  if (!e) return nothing;
  return html`<div id="stacks-error" class=${e.cancelled ? 'stacks-cancelled' : 'stacks-failed'} role=${e.cancelled ? 'status' : 'alert'}>
    <p>${e.message}</p>
    ${
      e.grant
        ? html`<p>To allow it, run as an administrator:</p><pre id="stacks-grant" tabindex="0"><code>${e.grant}</code></pre>
      <button class="chip" id="btn-stacks-copy-grant" @click=${() => app.post(ToHost.clipboardCopy, { text: e.grant! })}>Copy the GRANT</button>`
        : nothing
    }
  </div>`;
}

/** The top stacks as text: one stack per block, innermost frame first (module+offset lines, as the server gave them). */
export function stacksAsText(c: StackCapture): string {
  return c.buckets
    .map((b, i) => `-- stack ${i + 1}: ${b.count} backoff events (${pct(b.share)})\n${b.frames.map((f) => f.raw).join('\n')}`)
    .join('\n\n');
}

/** The drop counters beside the counts: a warning when the session lost events (nothing for an older capture). */
function lossView(c: StackCapture): TemplateResult | typeof nothing {
  const loss = lossSummary(c);
  if (!loss) return nothing;
  return lostAny(c)
    ? html`<p class="stacks-lost" id="stacks-loss" role="alert" data-lost="true"><strong>Events were lost:</strong> ${loss}. The counts below are low.</p>`
    : html`<p class="small muted" id="stacks-loss" data-lost="false">${loss}.</p>`;
}

function resultView(app: ViewContext, c: StackCapture): TemplateResult {
  // Two stacks that end at the same leaf are named by the caller that parts them (shared/stacks.ts).
  const names = stackNames(c.buckets);
  const started = new Date(c.startedAt);
  return html`<div id="stacks-result" data-spinlock=${c.spinlock} data-simulated=${String(c.simulated)}>
    ${
      c.simulated
        ? html`<p class="stacks-simulated" id="stacks-simulated"><span class="badge badge-sim">SIMULATED</span>
      These frames are the simulator's synthetic, labelled frames: no call stack was read from a SQL Server.</p>`
        : nothing
    }
    <h3>Why ${c.spinlock} spins: ${exactNumber(c.events)} backoff event${c.events === 1 ? '' : 's'} in ${c.durationMs / 1000} s</h3>
    <p class="small muted">Session ${c.session}, started ${Number.isNaN(started.getTime()) ? c.startedAt : started.toLocaleTimeString()}${
      c.dmvBackoffs === null
        ? ''
        : `; sys.dm_os_spinlock_stats counted ${exactNumber(c.dmvBackoffs)} backoffs of ${c.spinlock} over the same window`
    }.</p>
    ${lossView(c)}
    <h4>Top stacks</h4>
    ${
      c.buckets.length
        ? html`<ol class="stacks-top" id="stacks-top">${c.buckets.map(
            (b, i) => html`<li data-stack=${String(i)}>
      <details><summary><strong>${exactNumber(b.count)}</strong> events (${pct(b.share)}): <code>${names[i]}</code>
        <span class="muted">and ${b.frames.length - 1} caller${b.frames.length === 2 ? '' : 's'}</span></summary>
        <ol class="stack-frames">${b.frames.map((f) => html`<li><code>${frameText(f)}</code></li>`)}</ol>
      </details></li>`,
          )}</ol>`
        : html`<p class="muted">No stack was counted.</p>`
    }
    ${c.otherCount ? html`<p class="small muted">${exactNumber(c.otherCount)} more events in stacks beyond these.</p>` : nothing}
    <div class="toolbar">
      <button class="chip" id="btn-stacks-copy" ?disabled=${!c.buckets.length} @click=${() => app.post(ToHost.clipboardCopy, { text: stacksAsText(c) })}
        title="Copy the top stacks as module+offset lines, innermost frame first">Copy frames</button>
      <button class="chip" id="btn-stacks-resolver" ?disabled=${!c.buckets.length} @click=${() => app.post(ToHost.stacksExport, { to: 'clipboard' })}
        title="Every stack the histogram returned, as histogram XML: paste it into SQLCallStackResolver to resolve the frames">Copy for SQLCallStackResolver</button>
      <button class="chip" id="btn-stacks-save" ?disabled=${!c.buckets.length} @click=${() => app.post(ToHost.stacksExport, { to: 'file' })}>Save export…</button>
    </div>
    ${flameView(app.stacks, () => app.requestRender())}
    ${c.notes.length ? html`<h4>Reading the counts</h4><ul id="stacks-notes">${c.notes.map((n) => html`<li>${n}</li>`)}</ul>` : nothing}
  </div>`;
}

/** The section with the question, the capture and its answer. */
export function stacksView(app: ViewContext, savedRows: readonly SpinlockRow[]): TemplateResult {
  const m = app.stacks;
  const sec = sectionOpen(app, 'stacks');
  return html`<details class="section" id="section-stacks" .open=${sec.bind} @toggle=${sec.onToggle}>
    <summary><span class="section-title">Why is it spinning?</span></summary>
    <div class="section-body">
      ${
        m.phase === 'idle'
          ? html`<p class="muted" id="stacks-idle">Press <em>Why is it spinning?</em> on a spinlock under the live charts, in the watch, or below
        for the experiment shown in the analysis, to capture the call stacks its backoffs come from.</p>`
          : nothing
      }
      ${m.phase === 'confirm' ? confirmView(app) : nothing}
      ${m.phase === 'running' ? progressView(app) : nothing}
      ${m.phase === 'error' ? errorView(app) : nothing}
      ${m.capture && m.phase !== 'running' ? resultView(app, m.capture) : nothing}
      ${spinlockRowsView(app, savedRows, 'saved', 'stacks-saved-rows')}
    </div>
  </details>`;
}
