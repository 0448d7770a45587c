// The scenario picker, its parameter form (generated from the manifest, validated as typed), the In-Memory OLTP
// check against the server, and Deploy / Clean up.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { ParamValue } from '../../shared/experiment';
import type { ParamSpec } from '../../shared/params';
import { ToHost, type ScenarioSummary } from '../../shared/protocol';
import type { ViewContext } from './context';
import type { FormCheck } from '../model/form';
import { xtpAlternative } from '../model/validation';
import { checkedOf, field, inputValue, options, section, type Choice } from './common';
import { citeListHtml } from './cite';
import { customWorkloadView } from './customWorkload';
import { CUSTOM_ID } from '../model/customDraft';

function paramField(app: ViewContext, p: ParamSpec, check: FormCheck): TemplateResult {
  const id = `param-${p.name}`;
  const raw = app.form?.params[p.name] ?? p.default;
  const err = check.paramErrors[p.name] ?? null;
  const set = (v: ParamValue) =>
    app.editForm((f) => {
      f.params[p.name] = v;
    });
  const help = `${p.description}${p.unit ? ` (${p.unit})` : ''}`;
  if (p.type === 'enum') {
    return field(
      id,
      p.label,
      html`<select id=${id} .value=${live(String(raw))} aria-label=${p.label} aria-invalid=${err ? 'true' : 'false'}
        @change=${(e: Event) => set(inputValue(e))}>
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
      html`<vscode-checkbox id=${id} .checked=${raw === true || raw === 'true'} label=${p.label}
        @change=${(e: Event) => set(checkedOf(e))}></vscode-checkbox>`,
      err,
      help,
    );
  }
  return field(
    id,
    p.label,
    html`<vscode-textfield id=${id} .value=${String(raw)} ?invalid=${Boolean(err)} aria-label=${p.label}
      aria-describedby=${err ? `${id}-error` : `${id}-help`}
      @input=${(e: Event) => set(inputValue(e))}></vscode-textfield>`,
    err,
    help,
  );
}

function deployStatus(app: ViewContext, scenarioId: string): 'idle' | 'deploying' | 'deployed' | 'error' {
  const s = app.state;
  if (!s) return 'idle';
  if (s.busy && /deploy/i.test(s.busy)) return 'deploying';
  if (app.lastAction === 'deploy' && s.lastError) return 'error';
  if (s.server?.deployed.includes(scenarioId)) return 'deployed';
  return 'idle';
}

function xtpNotice(app: ViewContext, scenario: ScenarioSummary, check: FormCheck): TemplateResult | typeof nothing {
  const server = app.state?.server;
  if (!check.needsXtp || !server || server.identity.xtpSupported) return nothing;
  const alt = xtpAlternative(scenario, check.values, app.state?.scenarios ?? []);
  const apply =
    alt.parameters &&
    html`<button class="chip" @click=${() =>
      app.editForm((f) => {
        Object.assign(f.params, alt.parameters);
      })}>
    Use ${Object.entries(alt.parameters)
      .map(([k, v]) => `${k} = ${String(v)}`)
      .join(', ')}</button>`;
  return html`<div id="xtp-notice" class="banner warning inline-banner" role="alert">
    <div class="banner-text"><strong>${scenario.name} needs In-Memory OLTP with these settings, and ${server.identity.edition} does not support it.</strong>
      ${alt.parameters ? html` Change ${Object.keys(alt.parameters).join(' and ')} to avoid memory-optimized objects.` : nothing}
      ${
        alt.scenarios.length
          ? html` Or pick ${alt.scenarios.map(
              (s, i) =>
                html`${i ? ', ' : ''}<button class="link" @click=${() =>
                  app.editForm((f) => {
                    f.scenarioId = s.id;
                    f.params = {};
                  })}>${s.name}</button>`,
            )}, which never needs it.`
          : nothing
      }
    </div>${apply ?? nothing}</div>`;
}

export function scenarioView(app: ViewContext, check: FormCheck | null): TemplateResult {
  const s = app.state;
  return section(
    app,
    'scenario',
    'Scenario',
    () => {
      if (!s || !app.form || !check) return html`<p class="empty">Loading…</p>`;
      const custom = app.form.scenarioId === CUSTOM_ID;
      const scenario = check.scenario;
      const status = deployStatus(app, app.form.scenarioId);
      const connected = s.connection.status === 'connected';
      const invalid = Object.keys(check.paramErrors).length > 0;
      const blocked = check.needsXtp && s.server !== null && !s.server.identity.xtpSupported;
      return html`
      ${field(
        'scenario',
        'Scenario',
        html`<select id="scenario" .value=${live(app.form.scenarioId)} aria-label="Scenario"
          aria-invalid=${scenario || custom ? 'false' : 'true'}
          @change=${(e: Event) =>
            app.editForm((f) => {
              f.scenarioId = inputValue(e);
              f.params = {};
            })}>
          ${options(app.form.scenarioId, [
            ...s.scenarios.map((x): Choice => [x.id, x.name, x.description]),
            [CUSTOM_ID, 'Custom workload', 'Your own T-SQL'],
          ])}
        </select>`,
        scenario || custom ? null : `Scenario "${app.form.scenarioId}" is not known; pick one from the list.`,
      )}
      ${custom ? customWorkloadView(app) : nothing}
      ${
        scenario
          ? html`<p class="description">${scenario.description}</p>
        <p class="muted small">From ${citeListHtml(scenario.posts)} · throughput in ${scenario.unit}</p>
        <div class="param-grid">${scenario.parameters.map((p) => paramField(app, p, check))}</div>
        ${xtpNotice(app, scenario, check)}`
          : nothing
      }
      ${
        custom
          ? nothing
          : html`<div class="actions">
        <vscode-button id="btn-deploy" ?disabled=${!connected || invalid || !scenario || blocked || status === 'deploying' || Boolean(s.busy)}
          title=${!connected ? 'Connect first' : invalid ? 'Fix the parameters first' : 'Create the tables and procedures in the lab database'}
          @click=${() => {
            if (!app.form) return;
            app.lastAction = 'deploy';
            app.flushSelect();
            app.post(ToHost.scenarioDeploy, { scenarioId: app.form.scenarioId, parameters: check.values });
          }}>Deploy</vscode-button>
        <vscode-button id="btn-cleanup" secondary ?disabled=${!connected || !s.server?.deployed.includes(app.form.scenarioId) || Boolean(s.busy)}
          @click=${() => app.form && app.post(ToHost.scenarioCleanup, { scenarioId: app.form.scenarioId })}>Clean up</vscode-button>
        <span id="deploy-status" data-status=${status} class="status-text" role="status">${
          status === 'deploying'
            ? s.busy
            : status === 'deployed'
              ? `Deployed in ${app.conn.labDatabase || 'the lab database'}`
              : status === 'error'
                ? 'Deploy failed: see the error above'
                : connected
                  ? 'Not deployed yet'
                  : ''
        }</span>
      </div>`
      }`;
    },
    {
      summaryExtra:
        app.form?.scenarioId === CUSTOM_ID
          ? html`<span class="summary-note">Custom workload</span>`
          : check?.scenario
            ? html`<span class="summary-note">${check.scenario.name}</span>`
            : undefined,
    },
  );
}
