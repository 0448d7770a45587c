// Banners at the top: an unrestored journal (Restore before anything else), or the running experiment's own journal
// (in use by this run: no Restore, which would change the settings under it), the last error with its fix and action,
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
  const runJournal = s?.runJournal ?? null;
  // A connection error is shown in the connection form beside its field, and an error of a Custom workload run by
  // its Run button, of a tune's Start by Start (errorPlace.ts); the top banner keeps the rest.
  const candidate = s?.lastError ?? s?.connection.error ?? null;
  const inForm = candidate && s?.connection.error && JSON.stringify(candidate) === JSON.stringify(s.connection.error);
  const err = inForm || (candidate && (app.lastAction === 'custom' || app.lastAction === 'tune')) ? null : candidate;
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
        : runJournal
          ? html`<div id="journal-in-use" class="banner info" role="status">
      <div class="banner-text">
        <strong>Server settings in use by this run.</strong>
        This run changed ${runJournal.changes.join(', ')} on ${runJournal.serverAddress} and journaled them; it puts back
        ${runJournal.original} when it ends, or when you press Stop.
      </div>
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
