// "What will work here": `spinlab check`'s report in the server section (state.check, made on connect and on
// Refresh): each feature with whether it can run, why not, and the exact GRANT to select or copy.
import { html, nothing, type TemplateResult } from 'lit';
import type { CheckFeatureView, CheckView } from '../../shared/checkView';
import { ToHost } from '../../shared/protocol';
import type { ViewContext } from './context';

function feature(app: ViewContext, f: CheckFeatureView): TemplateResult {
  const status = f.canRun ? 'can run' : 'cannot run';
  return html`<li data-feature=${f.id} data-ok=${String(f.canRun)}>
    <span class="check-mark" aria-hidden="true">${f.canRun ? '✓' : '✗'}</span>
    <span class="check-name">${f.name}</span> <span class=${f.canRun ? 'muted' : 'warn-text'}>${status}</span>
    ${f.reasons.length ? html`<div class="muted small">${f.reasons.join(' ')}</div>` : nothing}
    ${f.grants.map(
      (g) => html`<div class="check-grant">
      <pre class="grant" tabindex="0" aria-label=${`Permission fix for ${f.name}: ${g}`}>${g}</pre>
      <button class="chip" title="Copy this statement" aria-label=${`Copy the permission fix for ${f.name}`}
        @click=${() => app.post(ToHost.clipboardCopy, { text: g })}>Copy</button>
    </div>`,
    )}
  </li>`;
}

export function checkList(app: ViewContext, check: CheckView | null | undefined): TemplateResult | typeof nothing {
  if (!check) return nothing;
  const ok = check.features.filter((f) => f.canRun).length;
  return html`<div class="server-check">
    <h3 id="server-check-title">What will work here${check.features.length ? html` <span class="muted small">(${ok} of ${check.features.length} features)</span>` : nothing}</h3>
    ${check.error ? html`<p class="warn-text">${check.error}</p>` : nothing}
    ${check.notes.map((n) => html`<p class="muted small">${n}</p>`)}
    <ul id="server-check" class="check-list" aria-labelledby="server-check-title">${check.features.map((f) => feature(app, f))}</ul>
  </div>`;
}
