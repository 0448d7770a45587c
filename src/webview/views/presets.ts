// The Presets section: pick one of the posts' experiments, read the post it cites and its question, see its plan for the
// connected server (arms, knobs, thread counts, how it adapted and what it left out), change any setting or the load
// (checked as typed), and Run. The host plans it again with the settings typed here, and confirms every server-wide
// change before it runs.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { ParamValue } from '../../shared/experiment';
import type { ParamSpec } from '../../shared/params';
import { ToHost, type PresetLoadInput, type PresetPlanView } from '../../shared/protocol';
import type { ViewContext } from './context';
import { fixFirst, presetFormFields } from '../model/fieldNames';
import {
  checkPresetForm,
  planOf,
  presetLoadWords,
  presetPayload,
  presetRunPayload,
  presetTime,
  type PresetFormCheck,
} from '../model/presetForm';
import { checkedOf, field, inputValue, options, section, type Choice } from './common';
import { citeHtml } from './cite';

function settingField(app: ViewContext, p: ParamSpec, check: PresetFormCheck): TemplateResult {
  const id = `preset-setting-${p.name}`;
  const form = app.presetForm!;
  const raw = Object.prototype.hasOwnProperty.call(form.settings, p.name) ? form.settings[p.name] : p.default;
  const err = check.errors[p.name] ?? null;
  const set = (v: ParamValue) =>
    app.editPreset((f) => {
      f.settings[p.name] = v;
    });
  const help = `${p.description}${p.unit ? ` (${p.unit})` : ''} Default: ${String(p.default)}.`;
  if (p.type === 'enum') {
    return field(
      id,
      p.label,
      html`<select id=${id} data-preset-setting=${p.name} .value=${live(String(raw))} aria-label=${p.label}
        aria-invalid=${err ? 'true' : 'false'} @change=${(e: Event) => set(inputValue(e))}>
        ${options(
          String(raw),
          (p.values ?? []).map((v): Choice => [v, v]),
        )}
      </select>`,
      err,
      help,
    );
  }
  if (p.type === 'bool') {
    return field(
      id,
      p.label,
      html`<vscode-checkbox id=${id} data-preset-setting=${p.name} .checked=${raw === true || raw === 'true'} label=${p.label}
        @change=${(e: Event) => set(checkedOf(e))}></vscode-checkbox>`,
      err,
      help,
    );
  }
  return field(
    id,
    p.label,
    html`<vscode-textfield id=${id} data-preset-setting=${p.name} .value=${String(raw)} ?invalid=${Boolean(err)} aria-label=${p.label}
      aria-describedby=${err ? `${id}-error` : `${id}-help`} @input=${(e: Event) => set(inputValue(e))}></vscode-textfield>`,
    err,
    help,
  );
}

function loadField(
  app: ViewContext,
  key: Exclude<keyof PresetLoadInput, 'mode'>,
  label: string,
  placeholder: string,
  check: PresetFormCheck,
): TemplateResult {
  const id = `preset-${key}`;
  const err = check.loadErrors[key] ?? null;
  return field(
    id,
    label,
    html`<vscode-textfield id=${id} .value=${app.presetForm!.load[key]} placeholder=${placeholder} ?invalid=${Boolean(err)}
      aria-label=${label} @input=${(e: Event) =>
        app.editPreset((f) => {
          f.load[key] = inputValue(e);
        })}></vscode-textfield>`,
    err,
    `Blank: ${placeholder || "the preset's own"}.`,
  );
}

/** Why the plan shown is not for the settings typed: they are wrong, its making failed, or it is being made. */
function staleNote(app: ViewContext, check: PresetFormCheck): { state: string; text: string } {
  if (!check.valid)
    return { state: 'invalid', text: `The plan below is for the last valid settings: ${fixFirst(presetFormFields(check))}` };
  const error = app.presetForm ? app.questions.previewError(presetPayload(app.presetForm)) : null;
  if (error) return { state: 'error', text: `Could not plan these settings: ${error}` };
  return { state: 'updating', text: 'Updating the plan for the settings above…' };
}

function planView(
  plan: PresetPlanView | null,
  current: boolean,
  connected: boolean,
  stale: { state: string; text: string },
): TemplateResult {
  if (!connected)
    return html`<div id="preset-plan" data-state="disconnected"><p class="empty">Connect to see this preset's plan for the server: its arms, knobs and thread counts follow the server's topology.</p></div>`;
  if (!plan) return html`<div id="preset-plan" data-state="loading"><p class="empty">Planning…</p></div>`;
  const state = plan.problems.length ? 'problems' : current ? 'current' : stale.state;
  return html`<div id="preset-plan" data-state=${state} aria-live="polite">
    ${
      plan.problems.length
        ? html`<div class="banner error inline-banner" role="alert"><div class="banner-text">
        <strong>This preset cannot run with these settings on this server:</strong>
        <ul>${plan.problems.map((p) => html`<li>${p}</li>`)}</ul></div></div>`
        : html`
      ${current ? nothing : html`<p class=${stale.state === 'updating' ? 'muted small' : 'field-error'} id="preset-plan-note" role=${stale.state === 'updating' ? 'status' : 'alert'}>${stale.text}</p>`}
      <div class="table-wrap">
        <table class="data-table" aria-label="The preset's arms on this server">
          <thead><tr><th scope="col">Arm</th><th scope="col">Scenario</th><th scope="col">Knobs</th><th scope="col" class="num">Threads</th></tr></thead>
          <tbody>${plan.arms.map(
            (a) => html`<tr data-arm=${a.id}>
            <th scope="row">${a.label}</th>
            <td>${a.scenarioId}<span class="muted small"> ${Object.entries(a.parameters)
              .map(([k, v]) => `${k}=${String(v)}`)
              .join(', ')}</span></td>
            <td>${a.knobs}</td>
            <td class="num">${a.threads.join(', ')}</td></tr>`,
          )}</tbody>
        </table>
      </div>
      ${plan.comparisons.length ? html`<p class="small"><strong>Compared:</strong> ${plan.comparisons.map((c) => c.label).join('; ')}.</p>` : nothing}
      ${
        plan.notes.length
          ? html`<div class="notes" id="preset-notes"><strong class="small">How it adapts to this server, and what it leaves out</strong>
        <ul class="summary">${plan.notes.map((n) => html`<li>${n}</li>`)}</ul></div>`
          : html`<p class="muted small">Runs as the post did: nothing to adapt on this server.</p>`
      }`
    }
  </div>`;
}

function blocker(app: ViewContext, check: PresetFormCheck, plan: PresetPlanView | null): string | null {
  const s = app.state;
  if (!s || s.connection.status !== 'connected') return 'Connect to a server first.';
  if (s.journal) return 'Restore the server settings first (see the banner above).';
  if (s.active && (s.active.status === 'running' || s.active.status === 'starting')) return 'An experiment is running.';
  if (s.busy) return `Busy: ${s.busy}.`;
  if (!check.valid) return fixFirst(presetFormFields(check));
  if (plan && plan.problems.length) return 'The plan has problems (see above).';
  return null;
}

export function presetsView(app: ViewContext): TemplateResult {
  const s = app.state;
  const form = app.presetForm;
  const summaryNote = form ? s?.presets.find((p) => p.id === form.presetId)?.name : undefined;
  return section(
    app,
    'presets',
    "Presets: the experiments of Chris Adkin's posts",
    () => {
      if (!s || !form) return html`<p class="empty">Loading…</p>`;
      const check = checkPresetForm(form, s.presets);
      const preset = check.preset;
      const connected = s.connection.status === 'connected';
      const { plan, current } = planOf(app.questions.presetPlans(s), form);
      const block = blocker(app, check, current ? plan : null);
      const time = plan && current && !plan.problems.length ? presetTime(form, check, plan) : null;
      // The settings on demand (closed until opened), but open whenever one of them is wrong.
      const settingsOpen =
        app.view.open.presetSettings ?? (Object.keys(check.errors).length > 0 || Object.keys(check.loadErrors).length > 0);
      return html`
      ${field(
        'preset',
        'Preset',
        html`<select id="preset" .value=${live(form.presetId)} aria-label="Preset"
          @change=${(e: Event) => {
            const v = inputValue(e);
            if (v && v !== app.presetForm?.presetId) app.pickPreset(v);
          }}>
          ${options(
            form.presetId,
            s.presets.map((p): Choice => [p.id, `${p.id}: ${p.name}`, p.question]),
          )}
        </select>`,
      )}
      ${
        preset
          ? html`
        <div class="preset-about" id="preset-about">
          <p class="question"><strong>Question:</strong> ${preset.question}</p>
          <p class="muted small">Reproduces <span id="preset-post">${citeHtml(preset.post)}</span>${preset.needs.length ? html` · the full experiment needs ${preset.needs.join(' and ')}` : nothing}
            · analysis: ${preset.views.map((v) => ({ ab: 'A/B comparison', scaling: 'scaling curve', math: 'doing the math', writelog: 'WRITELOG diagnosis' })[v]).join(', ')}
            · load: ${presetLoadWords(preset)}</p>
        </div>
        <h3 class="subhead">Plan for this server</h3>
        ${planView(plan, current, connected, staleNote(app, check))}
        <details class="subsection" id="preset-settings" ?open=${settingsOpen} @toggle=${(e: Event) => {
          const now = (e.target as HTMLDetailsElement).open;
          if (now !== app.view.open.presetSettings) app.setView({ open: { ...app.view.open, presetSettings: now } });
        }}>
          <summary>Settings and load (the preset's own unless changed)</summary>
          <div class="param-grid">${preset.settings.map((p) => settingField(app, p, check))}</div>
          <div class="run-grid">
            ${field(
              'preset-mode',
              'Load',
              html`<select id="preset-mode" .value=${live(form.load.mode)} aria-label="Preset load mode"
                @change=${(e: Event) =>
                  app.editPreset((f) => {
                    f.load.mode = inputValue(e) as PresetLoadInput['mode'];
                  })}>
                ${options(form.load.mode, [
                  ['server-loop', 'server loop'],
                  ['client-loop', 'client loop'],
                ])}
              </select>`,
            )}
            ${loadField(app, 'threads', 'Threads (every arm)', '', check)}
            ${loadField(app, 'duration', 'Duration per run', preset.load.duration, check)}
            ${loadField(app, 'rows', 'Rows per session', preset.load.rows, check)}
            ${loadField(app, 'warmup', 'Warm-up', preset.load.warmup, check)}
            ${loadField(app, 'interval', 'Sample every', preset.load.interval, check)}
            ${field(
              'preset-repeat',
              'Repetitions',
              html`<vscode-textfield id="preset-repeat" .value=${form.repeat} placeholder=${String(preset.repeat)}
                ?invalid=${Boolean(check.loadErrors.repeat)} aria-label="Repetitions"
                aria-describedby=${check.loadErrors.repeat ? 'preset-repeat-error' : 'preset-repeat-help'}
                @input=${(e: Event) =>
                  app.editPreset((f) => {
                    f.repeat = inputValue(e);
                  })}></vscode-textfield>`,
              check.loadErrors.repeat ?? null,
              `Runs of each arm at each thread count, alternating the arms. Blank: ${preset.repeat}.`,
            )}
          </div>
          ${check.loadErrors.length ? html`<p class="field-error" id="preset-length-error" role="alert">${check.loadErrors.length}</p>` : nothing}
        </details>`
          : html`<p class="field-error">Preset "${form.presetId}" is not known.</p>`
      }
      <div class="actions">
        <vscode-button id="btn-run-preset" ?disabled=${block !== null} title=${block ?? 'Run every arm of the preset as one experiment'}
          @click=${() => {
            if (!app.presetForm || block !== null) return;
            app.lastAction = 'run';
            app.setView({ analysis: 'active', results: 'active' });
            app.post(ToHost.presetRun, presetRunPayload(app.presetForm, check));
          }}>Run preset</vscode-button>
        <span class="muted small" id="preset-time">${block ?? (time ? `${time.text.replace(/\.?$/, '.')} Server-wide changes are confirmed first and put back after.` : '')}</span>
      </div>`;
    },
    { summaryExtra: summaryNote ? html`<span class="summary-note">${summaryNote}</span>` : undefined },
  );
}
