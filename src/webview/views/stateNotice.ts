// The notice of a state message the panel refused (stateIntake.ts): drawn above the panel, outside its template, so
// it shows even when the panel's own drawing is what failed. Warning while a fresh copy is on its way, error when
// the panel gave up (with Try again), info once a fresh copy arrived (with Dismiss).
import { html, nothing, type TemplateResult } from 'lit';
import type { StateIntake } from '../stateIntake';

const ASKED = { columns: '', plain: ', its ticks sent plainly', none: ', without its ticks' } as const;

export function stateNoticeView(intake: StateIntake): TemplateResult | typeof nothing {
  const n = intake.notice;
  if (!n) return nothing;
  if (n.kind === 'recovered')
    return html`<div id="state-notice" class="banner info" role="status" data-kind="recovered">
      <div class="banner-text">
        <strong>The panel reloaded its state.</strong>
        A state message from Spinlock Lab could not be read (${n.reason}), so the panel asked for a fresh copy and shows
        it${n.asked === 'none' ? '. The live charts start from here: the earlier ticks were left out' : ''}.
      </div>
      <vscode-button id="btn-state-notice-dismiss" secondary @click=${() => intake.dismiss()}>Dismiss</vscode-button>
    </div>`;
  if (n.kind === 'gaveUp')
    return html`<div id="state-notice" class="banner error" role="alert" data-kind="gaveUp">
      <div class="banner-text">
        <strong>The panel could not read Spinlock Lab's state.</strong>
        It kept what it showed, which may be out of date: ${n.reason}.
      </div>
      <vscode-button id="btn-state-notice-retry" @click=${() => intake.retry()}>Try again</vscode-button>
    </div>`;
  return html`<div id="state-notice" class="banner warning" role="alert" data-kind="refused">
    <div class="banner-text">
      <strong>The panel could not read the latest state.</strong>
      It kept what it showed and asked Spinlock Lab for a fresh copy${ASKED[n.asked ?? 'columns']}: ${n.reason}.
    </div>
  </div>`;
}
