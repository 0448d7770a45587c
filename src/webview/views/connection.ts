// The connection form and the saved profiles. The password goes to the host once, in connect; the host keeps it in
// SecretStorage only when "Save password" is ticked, and says which profiles have one.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { ToHost } from '../../shared/protocol';
import type { ViewContext } from './context';
import { profileFromDraft, type ConnDraft } from '../model/form';
import { checkedOf, field, inputValue, options, section } from './common';
import { sqlExtensionList } from './sqlExtensionList';

function text(
  app: ViewContext,
  id: string,
  label: string,
  key: keyof ConnDraft,
  opts: { type?: string; placeholder?: string; help?: string } = {},
): TemplateResult {
  const value = String(app.conn[key] ?? '');
  const err = app.connErrors[key === 'labDatabase' ? 'labDatabase' : key] ?? null;
  const blamed = connErrorAt(app) === key;
  return field(
    id,
    label,
    html`<vscode-textfield id=${id} type=${opts.type ?? 'text'} .value=${value} placeholder=${opts.placeholder ?? ''}
      ?invalid=${Boolean(err) || blamed} aria-invalid=${Boolean(err) || blamed ? 'true' : 'false'} aria-label=${label}
      aria-describedby=${blamed ? 'conn-error' : err ? `${id}-error` : opts.help ? `${id}-help` : nothing}
      @input=${(e: Event) =>
        app.editConn((d) => {
          (d as unknown as Record<string, unknown>)[key] = inputValue(e);
        })}></vscode-textfield>`,
    err,
    opts.help,
  );
}

/** Where the connection error sits: by the field it names, else above the Connect button. */
function connErrorAt(app: ViewContext): string | null {
  const err = app.state?.connection.error;
  if (!err) return null;
  return err.control ?? 'actions';
}

/** The connection's error in the form, where it is placed (`at`), with its fix; it leaves the form's values as typed. */
function connError(app: ViewContext, at: string): TemplateResult | typeof nothing {
  const err = app.state?.connection.error;
  if (!err || connErrorAt(app) !== at) return nothing;
  return html`<div id="conn-error" class="banner error inline-banner conn-error" role="alert">
    <div class="banner-text"><strong>${err.message}</strong>${err.fix ? html`<div class="fix-line">${err.fix}</div>` : nothing}</div>
  </div>`;
}

function connect(app: ViewContext): void {
  const r = profileFromDraft(app.conn);
  if (!r.ok) {
    app.connErrors = r.errors;
    app.requestRender();
    return;
  }
  app.lastAction = 'connect';
  const password = app.conn.password;
  // The password stays in the form (in memory only) so a failed connect can be tried again without retyping it.
  app.post(ToHost.connectionOpen, { profile: r.profile, ...(password ? { password } : {}), savePassword: app.conn.savePassword });
  app.requestRender();
}

function save(app: ViewContext): void {
  const r = profileFromDraft(app.conn);
  if (!r.ok) {
    app.connErrors = r.errors;
    app.requestRender();
    return;
  }
  app.post(ToHost.profileSave, { profile: r.profile });
}

function profiles(app: ViewContext): TemplateResult {
  const s = app.state;
  if (!s) return html``;
  const current = s.connection.profileId;
  return html`<div class="profiles">
    <h3>Saved connections</h3>
    ${s.profiles.length === 0 ? html`<p class="muted">None yet: fill in the form and press Save.</p>` : nothing}
    <ul class="profile-list" id="profiles">
      ${s.profiles.map(
        (p) => html`<li class=${p.id === app.conn.id ? 'selected' : ''}>
        <button class="link" data-profile=${p.id} @click=${() => app.post(ToHost.profilePick, { id: p.id })}
          aria-label=${`Use ${p.label}`}>${p.label}</button>
        <span class="muted">${p.server}${p.port ? `,${p.port}` : ''} · ${p.authentication === 'sql' ? p.user : p.authentication}
          ${s.savedPasswords.includes(p.id) ? html` · <span title="A password is saved in VS Code's secret storage">password saved</span>` : nothing}
          ${p.id === current && s.connection.status === 'connected' ? html` · <strong>connected</strong>` : nothing}</span>
        <button class="icon-button" title=${`Delete ${p.label}`} aria-label=${`Delete ${p.label}`}
          @click=${() => app.post(ToHost.profileDelete, { id: p.id })}>✕</button>
      </li>`,
      )}
    </ul>
    <button class="chip" id="btn-new-profile" @click=${() => app.post(ToHost.profilePick, { id: null })}>New connection</button>
  </div>`;
}

export function connectionView(app: ViewContext): TemplateResult {
  const s = app.state;
  const status = s?.connection.status ?? 'disconnected';
  const d = app.conn;
  const connected = status === 'connected';
  const summary = html`<span class="summary-note" id="conn-status" data-status=${status}>${
    connected ? `connected to ${s?.server?.identity.serverName ?? ''}` : status === 'connecting' ? 'connecting…' : 'not connected'
  }</span>`;
  return section(
    app,
    'connection',
    'Connection',
    () => html`
    ${
      !connected && status !== 'connecting'
        ? html`<p class="hint">Connect to a SQL Server you may change server-wide settings on (a lab box, never production),
      or to the Spinlock Lab simulator (<code>spinlab sim</code>) to try the panel with synthetic numbers.</p>`
        : nothing
    }
    <div class="conn-grid">
      <form class="form-grid" @submit=${(e: Event) => {
        e.preventDefault();
        connect(app);
      }}>
        ${text(app, 'conn-server', 'Server', 'server', { placeholder: 'host or host\\instance' })}
        ${text(app, 'conn-port', 'Port', 'port', { placeholder: '1433' })}
        ${connError(app, 'server')}
        ${field(
          'conn-auth',
          'Authentication',
          html`<select id="conn-auth" .value=${live(d.authentication)} aria-label="Authentication"
            @change=${(e: Event) =>
              app.editConn((c) => {
                c.authentication = inputValue(e) as ConnDraft['authentication'];
              })}>
            ${options(d.authentication, [
              ['sql', 'SQL login'],
              ['entra', 'Microsoft Entra ID'],
              ['ntlm', 'Windows (NTLM)'],
            ])}
          </select>`,
          null,
          d.authentication === 'entra' ? 'Signs in with your Microsoft account in VS Code.' : undefined,
        )}
        ${d.authentication !== 'entra' ? text(app, 'conn-user', d.authentication === 'ntlm' ? 'Windows user' : 'Login', 'user') : nothing}
        ${connError(app, 'user')}
        ${d.authentication === 'ntlm' ? text(app, 'conn-domain', 'Domain', 'domain') : nothing}
        ${
          d.authentication !== 'entra'
            ? text(app, 'conn-password', 'Password', 'password', {
                type: 'password',
                help: s?.savedPasswords.includes(d.id) ? 'Leave empty to use the saved password.' : undefined,
              })
            : nothing
        }
        ${connError(app, 'password')}
        ${text(app, 'conn-labdb', 'Lab database', 'labDatabase', { help: 'Created on first deploy; scenarios live here.' })}
        <div class="checks">
          <vscode-checkbox id="conn-encrypt" label="Encrypt" .checked=${d.encrypt !== 'optional'}
            @change=${(e: Event) =>
              app.editConn((c) => {
                c.encrypt = checkedOf(e) ? 'mandatory' : 'optional';
              })}></vscode-checkbox>
          <vscode-checkbox id="conn-strict" label="Strict (TDS 8)" .checked=${d.encrypt === 'strict'} ?disabled=${d.encrypt === 'optional'}
            @change=${(e: Event) =>
              app.editConn((c) => {
                c.encrypt = checkedOf(e) ? 'strict' : 'mandatory';
              })}></vscode-checkbox>
          <vscode-checkbox id="conn-trust" label="Trust server certificate" .checked=${d.trustServerCertificate}
            aria-invalid=${connErrorAt(app) === 'trustServerCertificate' ? 'true' : 'false'}
            aria-describedby=${connErrorAt(app) === 'trustServerCertificate' ? 'conn-error' : nothing}
            @change=${(e: Event) =>
              app.editConn((c) => {
                c.trustServerCertificate = checkedOf(e);
              })}></vscode-checkbox>
          <vscode-checkbox id="conn-save-password" label="Save password" .checked=${d.savePassword}
            @change=${(e: Event) =>
              app.editConn((c) => {
                c.savePassword = checkedOf(e);
              })}></vscode-checkbox>
        </div>
        ${Object.keys(app.connErrors)
          .filter((k) => !['server', 'port', 'user', 'labDatabase', 'password', 'domain'].includes(k))
          .map((k) => html`<p class="field-error" role="alert">${k}: ${app.connErrors[k]}</p>`)}
        ${connError(app, 'trustServerCertificate')}
        ${connError(app, 'actions')}
        <div class="actions">
          <vscode-button id="btn-connect" ?disabled=${status === 'connecting'} @click=${() => connect(app)}>${connected ? 'Reconnect' : 'Connect'}</vscode-button>
          <vscode-button id="btn-disconnect" secondary ?disabled=${status === 'disconnected'} @click=${() => app.post(ToHost.connectionClose, {})}>Disconnect</vscode-button>
          <vscode-button id="btn-save-profile" secondary @click=${() => save(app)}>Save</vscode-button>
        </div>
      </form>
      <div>${profiles(app)} ${sqlExtensionList(app)}</div>
    </div>
  `,
    { summaryExtra: summary },
  );
}
