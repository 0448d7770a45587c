// "Find the best settings": the form. The workload (the Scenario section's, or a preset's scenario), the objective, the
// budget, the lists that narrow the search (blank: built from the server's shape), FORCED delayed durability only when
// ticked, a shared server, and Start; before it starts, what it will do: how long, which knobs, that they are put back.
import { fixFirst, tuneFormFields } from '../model/fieldNames';
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { ToHost } from '../../shared/protocol';
import type { ViewContext } from './context';
import { checkTuneForm, SCENARIO_WORKLOAD, tunePayload, type TuneField, type TuneFormCheck, type TuneFormState } from '../model/tuneForm';
import { liveSpinlockRows } from '../model/stacks';
import { checkedOf, field, inputValue, options, type Choice } from './common';
import { PanelRequests } from '../../shared/panelRequests';
import type { TuneProblemField, TuneStartIntent } from '../../shared/tuneMessages';
import { CUSTOM_ID } from '../model/customDraft';

function textField(
  app: ViewContext,
  key: TuneField | 'title',
  label: string,
  check: TuneFormCheck,
  help: string,
  placeholder = '',
  asked = '',
): TemplateResult {
  const id = `tune-${key}`;
  const err = key === 'title' ? null : (check.errors[key] ?? app.tune.problem(key, asked));
  return field(
    id,
    label,
    html`<vscode-textfield id=${id} .value=${app.tune.form[key]} placeholder=${placeholder} ?invalid=${Boolean(err)} aria-label=${label}
      aria-describedby=${err ? `${id}-error` : `${id}-help`} @input=${(e: Event) => edit(app, (f) => (f[key] = inputValue(e)))}></vscode-textfield>`,
    err,
    help,
  );
}

function edit(app: ViewContext, change: (f: TuneFormState) => void): void {
  change(app.tune.form);
  // Kept in the saved view state, so hiding the panel (which unloads the webview) loses no edit.
  // (setView redraws.)
  app.setView({ tuneForm: { ...app.tune.form } });
}

/** The workload the search runs, in words, and whether it has a rows-per-transaction knob. */
export function tuneWorkload(app: ViewContext): { words: string; hasBatchSize: boolean; ok: boolean } {
  const s = app.state;
  const f = app.tune.form;
  if (f.workload === SCENARIO_WORKLOAD) {
    if (app.form?.scenarioId === CUSTOM_ID)
      return { words: 'the Scenario section’s custom workload, which this form cannot tune', hasBatchSize: false, ok: false };
    const check = app.check();
    const scenario = check?.scenario;
    if (!scenario || !check) return { words: 'the Scenario section’s scenario', hasBatchSize: false, ok: false };
    const params = Object.entries(check.values)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(', ');
    const ok = Object.keys(check.paramErrors).length === 0;
    return { words: `${scenario.id} (${params})`, hasBatchSize: scenario.parameters.some((p) => p.name === 'batch_size'), ok };
  }
  const preset = s?.presets.find((p) => p.id === f.workload);
  const plan = s?.presetPlans.find((p) => p.presetId === f.workload);
  const arm = plan?.arms[0];
  const scenario = arm ? s?.scenarios.find((x) => x.id === arm.scenarioId) : undefined;
  return {
    words: preset ? `preset ${preset.id}’s scenario${arm ? ` (${arm.scenarioId})` : ''}` : `preset ${f.workload}`,
    hasBatchSize: scenario ? scenario.parameters.some((p) => p.name === 'batch_size') : true,
    ok: Boolean(preset),
  };
}

/** The spinlocks the last run here spun on, each a button that names it as the objective's. */
function seenSpinlocks(app: ViewContext): TemplateResult | typeof nothing {
  const idx = app.live.currentIndex;
  const run = idx === null ? null : app.live.runs.get(idx);
  const names = run ? liveSpinlockRows(run).map((r) => r.name) : [];
  if (!names.length) return nothing;
  return html`<div class="field" id="tune-seen-spinlocks"><span class="muted small">Spun in the last run:</span>
    ${names.map(
      (n) => html`<button class="chip" data-spinlock=${n} aria-pressed=${String(app.tune.form.spinlock === n)}
        @click=${() => edit(app, (x) => (x.spinlock = n))}>${n}</button>`,
    )}</div>`;
}

function blocker(app: ViewContext, check: TuneFormCheck, workloadOk: boolean): string | null {
  const s = app.state;
  if (!s || s.connection.status !== 'connected') return 'Connect to a server first.';
  if (s.journal) return 'Restore the server settings first (see the banner above).';
  if (s.active && (s.active.status === 'running' || s.active.status === 'starting')) return 'An experiment is running.';
  if (s.busy) return `Busy: ${s.busy}.`;
  if (!workloadOk)
    return app.form?.scenarioId === CUSTOM_ID && app.tune.form.workload === SCENARIO_WORKLOAD
      ? 'The Scenario section holds a custom workload, which this form cannot tune: pick a preset under Workload, or a scenario in the Scenario section (spinlab tune --sql tunes a custom workload).'
      : 'Fix the scenario’s parameters in the Scenario section first.';
  if (app.tune.checking) return 'Checking the server…';
  if (!check.valid) return fixFirst(tuneFormFields(check.errors));
  return null;
}

/** What Start will do, said before it starts. */
function planWords(app: ViewContext, check: TuneFormCheck): string {
  const f = app.tune.form;
  const mins = check.budgetMs !== null ? Math.round(check.budgetMs / 60_000) : null;
  const knobs = ['CPU affinity (server-wide: it affects everyone on the server)', 'sessions'];
  if (tuneWorkload(app).hasBatchSize) knobs.push('rows per transaction');
  if (f.allowForced) knobs.push('delayed durability FORCED');
  return (
    `Takes about ${mins ?? '?'} minute${mins === 1 ? '' : 's'} (the budget). Changes ${knobs.join(', ')} between short trials; ` +
    'every change is journaled first and put back after each trial. The best setting is shown as T-SQL, not applied. ' +
    'Server-wide changes are confirmed first.'
  );
}

export function tuneFormView(app: ViewContext): TemplateResult {
  const s = app.state!;
  const f = app.tune.form;
  const work = tuneWorkload(app);
  const check = checkTuneForm(f, s.server?.topology ?? null, work.hasBatchSize);
  const block = blocker(app, check, work.ok);
  const payload = tunePayload(
    f,
    { scenarioId: app.form?.scenarioId ?? '', parameters: app.check()?.values ?? {} },
    app.form?.run.mode ?? 'server-loop',
  );
  const asked = JSON.stringify(payload);
  const problem = (k: TuneProblemField) => app.tune.problem(k, asked);
  const tf = (key: Parameters<typeof textField>[1], label: string, help: string, placeholder = '') =>
    textField(app, key, label, check, help, placeholder, asked);
  const startError = problem('start') ?? (app.lastAction === 'tune' ? (s.lastError?.message ?? null) : null);
  return html`<div id="tune-form">
    <div class="run-grid">
      ${field(
        'tune-workload',
        'Workload',
        html`<select id="tune-workload" .value=${live(f.workload)} aria-label="Workload"
          @change=${(e: Event) => edit(app, (x) => (x.workload = inputValue(e) || SCENARIO_WORKLOAD))}>
          ${options(f.workload, [
            [SCENARIO_WORKLOAD, 'The Scenario section’s scenario'],
            ...s.presets.map((p): Choice => [p.id, `Preset ${p.id}: its scenario`]),
          ])}
        </select>`,
        problem('workload'),
        `Runs ${work.words}. A custom workload is tuned from the command line (spinlab tune --sql).`,
      )}
      ${field(
        'tune-objective',
        'Objective',
        html`<select id="tune-objective" .value=${live(f.objective)} aria-label="Objective"
          @change=${(e: Event) => edit(app, (x) => (x.objective = (inputValue(e) || 'throughput') as TuneFormState['objective']))}>
          ${options(f.objective, [
            ['throughput', 'Throughput (higher is better)'],
            ['p99', 'p99 latency (lower is better)'],
            ['spins-per-row', 'Spins per row of a spinlock (lower is better)'],
          ])}
        </select>`,
        problem('objective'),
      )}
      ${f.objective === 'spins-per-row' ? tf('spinlock', 'Spinlock', 'As sys.dm_os_spinlock_stats names it.', 'LOGCACHE_ACCESS') : nothing}
      ${f.objective === 'spins-per-row' ? seenSpinlocks(app) : nothing}
      ${tf('budget', 'Budget', 'The search stops within it: 10m, 90s, 1h30m (1m to 24h).', '10m')}
      ${tf('sessions', 'Sessions', 'Blank: a ladder up to the CPUs each affinity leaves.', '1,2,4,8')}
      ${tf('affinity', 'CPU affinity candidates', 'Specs separated by ";". Blank: built from the server’s topology.', 'numa:0; exclude-core0')}
      ${work.hasBatchSize ? tf('batchSizes', 'Rows per transaction', 'Blank: the search’s own candidates.', '1,2,4') : nothing}
      ${tf('trial', 'Trial length', 'Each trial’s measured time. Blank: the engine’s default.', '4s')}
      ${tf('title', 'Title', 'Blank: named after the workload.')}
    </div>
    <div class="checks">
      <vscode-checkbox id="tune-forced" .checked=${f.allowForced} label="Also try FORCED delayed durability (trades durability for speed)"
        @change=${(e: Event) => edit(app, (x) => (x.allowForced = checkedOf(e)))}></vscode-checkbox>
      <vscode-checkbox id="tune-shared" .checked=${f.sharedServer} label="Other work may be running on this server (run anyway, with wider intervals)"
        @change=${(e: Event) => edit(app, (x) => (x.sharedServer = checkedOf(e)))}></vscode-checkbox>
      ${problem('sharedServer') ? html`<p class="field-error" id="tune-sharedServer-error" role="alert">${problem('sharedServer')}</p>` : nothing}
    </div>
    <p class="small" id="tune-plan">${planWords(app, check)}</p>
    <div class="actions">
      <vscode-button id="btn-tune-start" ?disabled=${block !== null} title=${block ?? 'Search for the best settings within the budget'}
        @click=${() => {
          if (block === null) void startChecked(app, payload);
        }}>Start</vscode-button>
      <span class="muted small" id="tune-blocker">${block ?? ''}</span>
    </div>
    ${startError ? html`<p class="field-error" id="tune-start-error" role="alert">${startError}</p>` : nothing}
  </div>`;
}

/** The controls a problem sits beside, for focusing the first. */
const PROBLEM_CONTROL: Record<TuneProblemField, string> = {
  workload: '#tune-workload',
  objective: '#tune-objective',
  spinlock: '#tune-spinlock',
  budget: '#tune-budget',
  sessions: '#tune-sessions',
  affinity: '#tune-affinity',
  batchSizes: '#tune-batchSizes',
  trial: '#tune-trial',
  sharedServer: '#tune-shared',
  start: '#btn-tune-start',
};

/**
 * Start: the host checks everything it can first (the server's state too), and only a start with no problem is sent;
 * a refused one changes nothing on screen but its problems, each beside its control, the first focused.
 */
async function startChecked(app: ViewContext, payload: TuneStartIntent): Promise<void> {
  const key = JSON.stringify(payload);
  app.tune.checking = true;
  app.tune.refused = null;
  app.requestRender();
  const a = await app.questions.client.latest('tuneCheck', PanelRequests.tuneCheck, payload);
  app.tune.checking = false;
  if (a.kind === 'superseded') return;
  const problems =
    a.kind === 'error'
      ? [{ field: 'start' as const, message: `${a.error.message}${a.error.fix ? ` ${a.error.fix}` : ''}` }]
      : a.result.problems;
  if (problems.length) {
    app.tune.refused = { key, problems };
    app.requestRender();
    setTimeout(() => (document.querySelector(PROBLEM_CONTROL[problems[0].field]) as HTMLElement | null)?.focus(), 0);
    return;
  }
  app.lastAction = 'tune';
  app.setView({ analysis: 'active', results: 'active' });
  app.post(ToHost.tuneStart, payload);
}
