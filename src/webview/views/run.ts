// Run settings (mode, threads or a sweep, duration or rows, warm-up, sampling interval), Run and Stop, and the
// status line that says what is happening now.
import { html, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { ToHost, type RunSettings } from '../../shared/protocol';
import type { ViewContext } from './context';
import type { FormCheck } from '../model/form';
import { clock, exactNumber } from '../model/format';
import { field, inputValue, options, plural, section } from './common';
import { fixFirst, runFormFields } from '../model/fieldNames';

export type RunStatus = 'idle' | 'starting' | 'running' | 'completed' | 'failed' | 'cancelled';

export function runStatus(app: ViewContext): { status: RunStatus; text: string } {
  const a = app.state?.active ?? null;
  if (!a) return { status: 'idle', text: idleText(app) };
  const runs = app.live.ordered();
  // A runStart message means the run is measuring, even before a snapshot says so.
  const measuring = runs.some((r) => r.status === 'running');
  if (a.status === 'starting' && !measuring) return { status: 'starting', text: a.message || 'Starting…' };
  // A search bounded by time cannot know its run count: it counts trials against its budget (the host's words).
  const budgeted = a.budgetMs !== undefined;
  // The host's count (every arm and repetition of a preset too); the form's sweep only for a view from before it.
  const check = app.form && a.runCount === undefined && !budgeted ? app.check() : null;
  const total = budgeted ? 0 : Math.max(runs.length, a.runCount ?? (check ? check.threads.length * check.repeat : 0));
  const name = (index: number) => `${budgeted ? 'Trial' : 'Run'} ${index + 1}${total > 1 ? ` of ${total}` : ''}`;
  if (a.status === 'running' || a.status === 'starting') {
    const cur = runs[runs.length - 1];
    if (!cur) return { status: 'running', text: a.message || 'Warming up…' };
    // The host's step may be the next run's (opening its sessions, warming up) before that run starts measuring:
    // then the line is about that run alone, without the figures of the one before it.
    const next = stepRun(a.message);
    if (next !== null && next !== cur.index && !runs.some((r) => r.index === next))
      return { status: 'running', text: `${name(next)}: ${stepOf(a.message)}` };
    const last = cur.store.last();
    // A custom workload's unit of work is a call of its batch, not a row.
    const unit = a.scenarioId === 'custom' ? 'calls/s' : 'rows/s';
    const rate = last ? `, ${exactNumber(last.rowsPerSec)} ${unit}` : '';
    const arm = cur.arm && a.preset ? `${cur.arm.label}, ` : '';
    const rep = cur.repetition !== null ? `, repetition ${cur.repetition}` : '';
    return {
      status: 'running',
      text: `${name(cur.index)}: ${arm}${plural(cur.threads, 'thread')}${rep}, ${clock((last?.t ?? 0) / 1000)}${rate}${stepNote(a.message)}`,
    };
  }
  const done = runs.filter((r) => r.status === 'completed').length;
  const what = a.status === 'completed' ? 'Completed' : a.status === 'failed' ? 'Failed' : 'Cancelled';
  const count =
    (budgeted ? plural(done, 'trial') : total > 0 ? `${done} of ${plural(total, 'run')}` : plural(done, 'run')) +
    (a.status === 'completed' ? '' : ' completed');
  const tail = endNote(a.message);
  return { status: a.status, text: `${what}: ${count}${tail ? ` · ${tail}` : ''}` };
}

/** Nothing has run yet: what to do next, and after a deploy not the deploy again. */
function idleText(app: ViewContext): string {
  const s = app.state;
  if (s?.connection.status !== 'connected') return 'No runs yet: connect to a server first.';
  const id = app.form?.scenarioId ?? s.selection.scenarioId;
  if (id && s.server?.deployed.includes(id)) return `No runs yet: ${id} is deployed; press Run to measure it.`;
  return 'No runs yet: deploy the scenario, then press Run.';
}

/** The run a host step names ("run 5: warming up"), 0-based; null when it names none. */
function stepRun(message: string): number | null {
  const m = /^(?:run|trial) (\d+)\b/i.exec(message);
  return m ? Number(m[1]) - 1 : null;
}

/** A host step without the run it names. */
function stepOf(message: string): string {
  return message.replace(/^(?:run|trial) \d+(?: of \d+)?:\s*/i, '');
}

/** The host's closing words without the status and count the line already says ("completed: 9 of 9 runs; "). */
function endNote(message: string): string {
  return message.replace(/^(?:completed|failed|cancelled)(?::\s*\d+(?: of \d+)? (?:runs?|trials?))?\s*(?:;\s*|$)/i, '');
}

/** The host's step ('run 3: measuring') without the run it names again: the header says the run once, with one count. */
function stepNote(message: string): string {
  if (/^run \d+ of \d+\b/i.test(message)) return ''; // the run-start words: what the header already says
  // A budgeted trial's start: its threads are in the header; the budget used is the news.
  const budget = / · (\S.* budget used)$/.exec(message);
  if (budget) return ` · ${budget[1]}`;
  const step = message.replace(/^run \d+:\s*/i, '');
  return step ? ` · ${step}` : '';
}

function runBlocker(app: ViewContext, check: FormCheck): string | null {
  const s = app.state;
  if (!s || s.connection.status !== 'connected') return 'Connect to a server first.';
  if (s.journal) return 'Restore the server settings first (see the banner above).';
  if (s.active && (s.active.status === 'running' || s.active.status === 'starting')) return 'A run is in progress.';
  if (s.busy) return `Busy: ${s.busy}.`;
  if (!check.valid) return fixFirst(runFormFields(check));
  if (check.needsXtp && s.server && !s.server.identity.xtpSupported)
    return 'This server has no In-Memory OLTP: change the scenario settings.';
  return null;
}

export function runView(app: ViewContext, check: FormCheck | null): TemplateResult {
  const { status, text } = runStatus(app);
  const running = status === 'running' || status === 'starting';
  return section(
    app,
    'run',
    'Run',
    () => {
      const form = app.form;
      if (!form || !check) return html`<p class="empty">Loading…</p>`;
      const e = check.runErrors;
      const set = (k: keyof RunSettings) => (ev: Event) =>
        app.editForm((f) => {
          (f.run as unknown as Record<string, string>)[k] = inputValue(ev);
        });
      const tf = (id: string, k: keyof RunSettings, label: string, help: string, placeholder = '') =>
        field(
          id,
          label,
          html`<vscode-textfield id=${id} .value=${form.run[k]} placeholder=${placeholder} ?invalid=${Boolean(e[k])}
        aria-label=${label} @input=${set(k)}></vscode-textfield>`,
          e[k] ?? null,
          help,
        );
      const blocker = runBlocker(app, check);
      const sweep =
        check.threads.length > 1
          ? `A sweep of ${check.threads.length} runs: ${check.threads.join(', ')} threads.`
          : 'Session count, or a sweep: 1,2,4,8 or 1-8.';
      return html`
      <div class="run-grid">
        ${field(
          'run-mode',
          'Load',
          html`<select id="run-mode" .value=${live(form.run.mode)} aria-label="Load mode"
            @change=${(ev: Event) =>
              app.editForm((f) => {
                f.run.mode = inputValue(ev) as RunSettings['mode'];
              })}>
            ${options(form.run.mode, [
              ['server-loop', 'server loop', 'Each session runs a loop inside one procedure call'],
              ['client-loop', 'client loop', 'One call per batch from the extension; measures client latency'],
            ])}
          </select>`,
          null,
          form.run.mode === 'client-loop'
            ? 'Calls from here: gives latency percentiles.'
            : 'Loops inside SQL Server: least client overhead.',
        )}
        ${tf('run-threads', 'threads', 'Threads', sweep, '1,2,4,8')}
        ${tf('run-duration', 'duration', 'Duration per run', 'e.g. 30s, 5m; or leave empty and give rows.', '30s')}
        ${tf('run-rows', 'rows', 'Rows per session', 'e.g. 1M; or leave empty and give a duration.', '')}
        ${tf('run-warmup', 'warmup', 'Warm-up', 'Not measured: 0s to skip.', '2s')}
        ${tf('run-interval', 'interval', 'Sample every', '250ms to 5s.', '1s')}
        ${field(
          'run-repeat',
          'Repetitions',
          html`<vscode-textfield id="run-repeat" .value=${form.repeat} placeholder="1" ?invalid=${Boolean(check.repeatError)}
            aria-label="Repetitions" aria-describedby=${check.repeatError ? 'run-repeat-error' : 'run-repeat-help'}
            @input=${(ev: Event) =>
              app.editForm((f) => {
                f.repeat = inputValue(ev);
              })}></vscode-textfield>`,
          check.repeatError,
          'Runs of each thread count (1-100); 3 or more give each figure an interval.',
        )}
        ${field(
          'run-title',
          'Title (optional)',
          html`<vscode-textfield id="run-title" .value=${form.title} placeholder="what are you testing?"
            aria-label="Experiment title" @input=${(ev: Event) => {
              form.title = inputValue(ev);
              app.requestRender();
            }}></vscode-textfield>`,
        )}
      </div>
      ${e.length ? html`<p class="field-error" id="run-length-error" role="alert">${e.length}</p>` : ''}
      ${check.time ? html`<p class="muted small" id="run-time">${check.time.text}</p>` : ''}
      <div class="actions">
        <vscode-button id="btn-run" ?disabled=${blocker !== null} title=${blocker ?? 'Start the experiment'}
          @click=${() => {
            if (!app.form || runBlocker(app, check) !== null) return;
            app.lastAction = 'run';
            app.flushSelect();
            app.post(ToHost.experimentRun, {
              scenarioId: app.form.scenarioId,
              parameters: check.values,
              run: { ...app.form.run },
              knobs: { ...app.form.knobs },
              repeat: check.repeat,
              ...(app.form.title.trim() ? { title: app.form.title.trim() } : {}),
            });
          }}>Run</vscode-button>
        <vscode-button id="btn-stop" secondary ?disabled=${!running} @click=${() => app.post(ToHost.experimentStop, {})}>Stop</vscode-button>
        <span class="muted small">${blocker ?? ''}</span>
      </div>`;
    },
    {
      summaryExtra: html`<span id="run-status" class="summary-note status-${status}" data-status=${status} role="status" aria-live="polite">${text}</span>`,
    },
  );
}
