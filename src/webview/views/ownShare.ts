// Whose work the per-row figures count: spinlock, wait and latch statistics are server-wide, so beside them the panel
// says what share of the server's CPU and waits the workload's own sessions had in each run (shared/ownShare.ts), and
// warns when other sessions did a meaningful part of the work.
import { html, nothing, type TemplateResult } from 'lit';
import { othersBusy, othersWarning, shareText, SHARE_PERMISSION } from '../../shared/ownShare';
import type { ResultRow } from '../model/results';

export function shareView(rows: readonly ResultRow[], unit: 'row' | 'call'): TemplateResult | typeof nothing {
  if (!rows.length) return nothing;
  const read = rows.filter((r) => r.share);
  const busy = read.filter((r) => othersBusy(r.share));
  const scope =
    unit === 'call'
      ? html`Spins, waits and latches are <strong>server-wide</strong>: every session on the server adds to them, so they are shown per second.`
      : html`Spins, waits, latches and CPU per ${unit} are <strong>server-wide</strong>: every session on the server adds to them.`;
  if (!read.length)
    return html`<p id="results-share" class="small muted">${scope} The workload's own share appears here when a run ends (it needs
      ${SHARE_PERMISSION}).</p>`;
  return html`<div id="results-share" class=${busy.length ? 'notes warn' : 'notes'} role="note">
    <p class="small">${scope} The workload's own sessions' share, each run:</p>
    <ul class="summary">${read.map(
      (r) =>
        html`<li data-run=${String(r.run)} data-others-busy=${othersBusy(r.share) ? 'yes' : 'no'}>Run ${r.run + 1}${` (${r.arm ? `${r.arm} · ` : ''}${r.figures.threads} session${r.figures.threads === 1 ? '' : 's'})`}: ${shareText(r.share)}${othersBusy(r.share) ? html` <strong>— others busy</strong>` : nothing}</li>`,
    )}</ul>
    ${busy.length ? html`<p class="small" id="results-share-warning">${capital(othersWarning(busy[0].share)!)}.</p>` : nothing}
  </div>`;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
