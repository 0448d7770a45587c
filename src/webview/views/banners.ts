// Banners at the top: an unrestored journal (Restore before anything else), the last error with its fix and action,
// and short notices from the host.
import { html, nothing, type TemplateResult } from 'lit';
import { ToHost, type UiError } from '../../shared/protocol';
import type { ViewContext } from './context';

function errorAction(app: ViewContext, err: UiError): TemplateResult | typeof nothing {
  switch (err.action) {
    case 'restore':
      return html`<vscode-button id="btn-error-action" @click=${() => app.post(ToHost.serverRestore, {})}>Restore settings</vscode-button>`;
    case 'connect':
      return html`<vscode-button id="btn-error-action" @click=${() => {
        app.setView({ open: { ...app.view.open, connection: true } });
        requestAnimationFrame(() => document.getElementById('conn-server')?.focus());
      }}>Check the connection</vscode-button>`;
    case 'retry':
      return html`<vscode-button id="btn-error-action" @click=${() => app.post(ToHost.serverRefresh, {})}>Retry</vscode-button>`;
    default:
      return nothing;
  }
}

export function bannersView(app: ViewContext): TemplateResult {
  const s = app.state;
  const journal = s?.journal ?? null;
  const err = s?.lastError ?? s?.connection.error ?? null;
  return html`
    ${
      journal
        ? html`<div id="journal-banner" class="banner warning" role="alert">
      <div class="banner-text">
        <strong>Server settings were changed and not put back.</strong>
        A run from process ${journal.pid} (${new Date(journal.createdAt).toLocaleString()}) changed ${journal.changes.join(', ')} on
        ${journal.serverAddress}. Restore puts back: ${journal.original}. New runs wait until this is done.
      </div>
      <vscode-button id="btn-restore" @click=${() => app.post(ToHost.serverRestore, {})}>Restore</vscode-button>
    </div>`
        : nothing
    }
    ${
      err
        ? html`<div id="error-banner" class="banner error" role="alert">
      <div class="banner-text">
        <strong>${err.message}</strong>
        ${
          err.fix
            ? html`<div class="fix"><span>What to do:</span><pre>${err.fix}</pre>
          <button class="chip" @click=${() => app.post(ToHost.clipboardCopy, { text: err.fix ?? '' })}>Copy</button></div>`
            : nothing
        }
      </div>
      ${errorAction(app, err)}
    </div>`
        : nothing
    }
    <div id="toast" class="toast" role="status" aria-live="polite">${app.toast ?? ''}</div>
  `;
}
