// "Find the best settings": the search as it runs (the leaderboard after each trial and round, the round, the time used
// against the budget, Cancel) and its explained result (the winner against the current settings, how sure, what more
// time would settle, why, citing the post, and the T-SQL that applies it, with Copy: nothing was applied).
import { html, nothing, type TemplateResult } from 'lit';
import { ToHost } from '../../shared/protocol';
import type { TuneInfo, TuneResult } from '../../shared/tune';
import { objectiveText } from '../../shared/tune';
import type { ViewContext } from './context';
import { boardRows, roundWords, tuneUnit, type BoardRow } from '../model/tuneLive';
import { citeHtml } from './cite';

function boardTable(rows: BoardRow[], unit: string, caption: string): TemplateResult {
  return html`<div class="table-wrap">
    <table class="data-table tune-board" id="tune-board" aria-label=${caption}>
      <thead><tr>
        <th scope="col">Configuration</th><th scope="col" class="num">Sessions</th>
        <th scope="col" class="num">Objective (${unit}, 95% interval)</th><th scope="col" class="num">Trials</th><th scope="col">State</th>
      </tr></thead>
      <tbody>${rows.map(
        (r) => html`<tr data-config=${r.config} data-state=${r.stateKind} class=${`tune-${r.stateKind}`}>
          <th scope="row">${r.label}${r.current ? html` <span class="badge">current settings</span>` : nothing}</th>
          <td class="num">${r.sessions}</td>
          <td class="num">${r.value}</td>
          <td class="num">${r.trials}</td>
          <td title=${r.why ?? ''}>${r.state}${r.why ? html`<span class="muted small"> · ${r.why}</span>` : nothing}</td>
        </tr>`,
      )}</tbody>
    </table>
  </div>`;
}

function resultView(app: ViewContext, tune: TuneInfo, result: TuneResult): TemplateResult {
  const sql = result.applySql.join('\n');
  return html`<div id="tune-result" class="tune-result">
    <h3 class="subhead">The result</h3>
    <p id="tune-verdict" class="question"><strong>${result.verdict}</strong></p>
    ${result.selection ? html`<p id="tune-selection" class="muted small">${result.selection}</p>` : nothing}
    <p id="tune-certainty">${result.certainty}</p>
    ${result.moreTime ? html`<p id="tune-more-time" class="muted">${result.moreTime}</p>` : nothing}
    ${
      result.reasons.length
        ? html`<div class="notes" id="tune-reasons"><strong class="small">Why</strong>
        <ul class="summary">${result.reasons.map(
          (r) => html`<li>${r.text}${r.post ? html` <span class="muted small">(see ${citeHtml(r.post)})</span>` : nothing}</li>`,
        )}</ul></div>`
        : nothing
    }
    <h3 class="subhead">Apply the winner</h3>
    ${
      result.applySql.length
        ? html`<pre id="tune-sql" tabindex="0" aria-label="The T-SQL that applies the winner">${sql}</pre>
      <div class="actions">
        <vscode-button id="btn-tune-copy" secondary @click=${() => app.post(ToHost.clipboardCopy, { text: sql })}>Copy T-SQL</vscode-button>
        <span class="muted small" id="tune-applied">${
          result.applied
            ? 'The winner was left applied (as asked).'
            : 'Not applied: the server’s settings were put back after every trial. Run the T-SQL to apply the winner.'
        }</span>
      </div>`
        : html`<p class="muted" id="tune-applied">The current settings won: nothing to change.</p>`
    }
    ${tune.stopReason ? html`<p class="muted small" id="tune-stop">Stopped: ${tune.stopReason}</p>` : nothing}
  </div>`;
}

/** The search of `tune`: running (live) or ended (explained). `running` offers Cancel. */
export function tuneBoardView(app: ViewContext, tune: TuneInfo, running: boolean, scenarioUnit: string | null): TemplateResult {
  const unit = tuneUnit(tune, scenarioUnit);
  const obj = objectiveText(tune.objective);
  const rows = boardRows(tune, unit);
  return html`<div id="tune-progress" data-state=${running ? 'running' : tune.result ? 'done' : 'ended'}>
    <p class="small" id="tune-round" aria-live="polite">
      <strong>${obj.label}</strong> (${obj.higherBetter ? 'higher' : 'lower'} is better) · ${roundWords(tune)} ·
      ${tune.configs.length} configurations${tune.sharedServer ? ' · shared server: intervals widened' : ''}
    </p>
    ${rows.length ? boardTable(rows, unit, 'Leaderboard: every configuration at its best session count') : html`<p class="empty">The first trials are running…</p>`}
    ${
      running
        ? html`<div class="actions">
      <vscode-button id="btn-tune-cancel" secondary @click=${() => app.post(ToHost.experimentStop, {})}>Cancel</vscode-button>
      <span class="muted small">Cancel stops the search and puts the server’s settings back.</span></div>`
        : nothing
    }
    ${tune.result ? resultView(app, tune, tune.result) : nothing}
  </div>`;
}
