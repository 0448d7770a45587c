// Microsoft's SQL extension's saved connections beside ours in the connection form: Connect asks the host, which gets
// the credentials from that extension (never through the webview). Shown only when the SQL extension is installed.
import { html, nothing, type TemplateResult } from 'lit';
import { ToHost } from '../../shared/protocol';
import type { ViewContext } from './context';

const AUTH = { sql: 'SQL login', entra: 'Microsoft Entra ID', ntlm: 'Windows' } as const;

export function sqlExtensionList(app: ViewContext): TemplateResult | typeof nothing {
  const s = app.state;
  const ext = s?.sqlExtension;
  if (!s || !ext) return nothing;
  const busy = s.connection.status === 'connecting';
  return html`<div class="profiles" id="sql-extension-connections">
    <h3>In Microsoft's SQL extension</h3>
    ${ext.connections.length === 0 ? html`<p class="muted">It has no saved connections.</p>` : nothing}
    ${
      ext.sharesCredentials === false
        ? html`<p class="muted">This version of the SQL extension keeps its passwords to itself: a SQL login's password is asked
          once here.</p>`
        : nothing
    }
    <ul class="profile-list">
      ${ext.connections.map((c) => {
        const connected = s.connection.profileId === c.id && s.connection.status === 'connected';
        const who = `${AUTH[c.authentication]}${c.user ? ` ${c.user}` : ''}`;
        return html`<li class=${connected ? 'selected' : ''}>
          <button class="link" data-sql-connection=${c.id} ?disabled=${busy}
            aria-label=${`Connect with ${c.label} from the SQL extension`}
            @click=${() => app.post(ToHost.sqlExtensionConnect, { id: c.id })}>${c.label}</button>
          <span class="muted">${c.server}${c.database ? ` (${c.database})` : ''} · ${who}${
            connected ? html` · <strong>connected</strong>` : nothing
          }</span>
        </li>`;
      })}
    </ul>
  </div>`;
}
