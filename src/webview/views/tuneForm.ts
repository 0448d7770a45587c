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

function textField(
  app: ViewContext,
  key: TuneField | 'title',
  label: string,
  check: TuneFormCheck,
  help: string,
  placeholder = '',
): TemplateResult {
  const id = `tune-${key}`;
  const err = key === 'title' ? null : (check.errors[key] ?? null);
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
  if (!workloadOk) return 'Fix the scenario’s parameters in the Scenario section first.';
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
        null,
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
      )}
      ${f.objective === 'spins-per-row' ? textField(app, 'spinlock', 'Spinlock', check, 'As sys.dm_os_spinlock_stats names it.', 'LOGCACHE_ACCESS') : nothing}
      ${f.objective === 'spins-per-row' ? seenSpinlocks(app) : nothing}
      ${textField(app, 'budget', 'Budget', check, 'The search stops within it: 10m, 90s, 1h30m (1m to 24h).', '10m')}
      ${textField(app, 'sessions', 'Sessions', check, 'Blank: a ladder up to the CPUs each affinity leaves.', '1,2,4,8')}
      ${textField(app, 'affinity', 'CPU affinity candidates', check, 'Specs separated by ";". Blank: built from the server’s topology.', 'numa:0; exclude-core0')}
      ${work.hasBatchSize ? textField(app, 'batchSizes', 'Rows per transaction', check, 'Blank: the search’s own candidates.', '1,2,4') : nothing}
      ${textField(app, 'trial', 'Trial length', check, 'Each trial’s measured time. Blank: the engine’s default.', '4s')}
      ${textField(app, 'title', 'Title', check, 'Blank: named after the workload.')}
    </div>
    <div class="checks">
      <vscode-checkbox id="tune-forced" .checked=${f.allowForced} label="Also try FORCED delayed durability (trades durability for speed)"
        @change=${(e: Event) => edit(app, (x) => (x.allowForced = checkedOf(e)))}></vscode-checkbox>
      <vscode-checkbox id="tune-shared" .checked=${f.sharedServer} label="Other work may be running on this server (run anyway, with wider intervals)"
        @change=${(e: Event) => edit(app, (x) => (x.sharedServer = checkedOf(e)))}></vscode-checkbox>
    </div>
    <p class="small" id="tune-plan">${planWords(app, check)}</p>
    <div class="actions">
      <vscode-button id="btn-tune-start" ?disabled=${block !== null} title=${block ?? 'Search for the best settings within the budget'}
        @click=${() => {
          if (block !== null) return;
          const c = app.check();
          app.lastAction = 'run';
          app.setView({ analysis: 'active', results: 'active' });
          app.post(
            ToHost.tuneStart,
            tunePayload(f, { scenarioId: app.form?.scenarioId ?? '', parameters: c?.values ?? {} }, app.form?.run.mode ?? 'server-loop'),
          );
        }}>Start</vscode-button>
      <span class="muted small" id="tune-blocker">${block ?? ''}</span>
    </div>
  </div>`;
}
