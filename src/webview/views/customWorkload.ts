// The "Custom workload" scenario's form: the user's own T-SQL (a monospace editor, or a .sql file of the workspace),
// the database it runs in, a parameter source (row order and scope), iterations or a duration, threads, think time,
// query timeout and stop-on-error, validated as typed (shared/customForm.ts). Run sends customRun; the host builds the
// plan as `spinlab run --sql`.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { ToHost } from '../../shared/protocol';
import type { CustomForm } from '../../shared/customForm';
import type { ViewContext } from './context';
import { applyFill, checkDraft, draftOf, keepDraft } from '../model/customDraft';
import { checkedOf, field, inputValue, options, type Choice } from './common';
import { customFormFields, fixFirst } from '../model/fieldNames';

function text(app: ViewContext, key: keyof CustomForm, label: string, err: string | undefined, help: string): TemplateResult {
  const id = `custom-${key}`;
  const d = draftOf(app);
  return field(
    id,
    label,
    html`<vscode-textfield id=${id} .value=${String(d.form[key])} ?invalid=${Boolean(err)} aria-label=${label}
      aria-describedby=${err ? `${id}-error` : `${id}-help`}
      @input=${(e: Event) => {
        (d.form as unknown as Record<string, string>)[key] = inputValue(e);
        keepDraft(app);
      }}></vscode-textfield>`,
    err ?? null,
    help,
  );
}

function select(
  app: ViewContext,
  key: 'paramsSource' | 'stopBy' | 'paramsOrder' | 'paramsScope',
  label: string,
  choices: readonly Choice[],
  err?: string,
  help?: string,
): TemplateResult {
  const id = `custom-${key}`;
  const d = draftOf(app);
  return field(
    id,
    label,
    html`<select id=${id} .value=${live(d.form[key])} aria-label=${label} aria-invalid=${err ? 'true' : 'false'}
      @change=${(e: Event) => {
        (d.form as unknown as Record<string, string>)[key] = inputValue(e);
        keepDraft(app);
      }}>
      ${options(d.form[key], choices)}
    </select>`,
    err ?? null,
    help,
  );
}

function blocker(app: ViewContext, valid: boolean, errors: Record<string, string>): string | null {
  const s = app.state;
  if (!s || s.connection.status !== 'connected') return 'Connect to a server first.';
  if (s.journal) return 'Restore the server settings first (see the banner above).';
  if (s.active && (s.active.status === 'running' || s.active.status === 'starting')) return 'A run is in progress.';
  if (s.busy) return `Busy: ${s.busy}.`;
  return valid ? null : fixFirst(customFormFields(errors));
}

/** The last Custom workload run's error, by its Run button (not at the top of the page, out of view). */
function customError(app: ViewContext): TemplateResult | typeof nothing {
  const err = app.lastAction === 'custom' ? app.state?.lastError : null;
  if (!err) return nothing;
  return html`<div id="custom-error" class="banner error inline-banner" role="alert" tabindex="-1">
    <div class="banner-text"><strong>${err.message}</strong>${err.fix ? html`<div class="fix-line">${err.fix}</div>` : nothing}</div>
  </div>`;
}

/** The form under the scenario picker when "Custom workload" is picked. */
export function customWorkloadView(app: ViewContext): TemplateResult {
  const d = draftOf(app);
  applyFill(d, app.state, 'master');
  const { errors, valid, repeat } = checkDraft(d);
  const f = d.form;
  const why = blocker(app, valid, errors);
  return html`<div id="custom-workload" class="custom-workload">
    <p class="description">Your own T-SQL, run by each session in turn (GO separates batches), in the database you name.
      Spinlock Lab deploys nothing there; variables (@name) are bound by name to a CSV's or a query's columns and sent as real parameters.</p>
    ${d.source ? html`<p class="muted small" id="custom-source">Filled in from ${d.source}</p>` : nothing}
    ${field(
      'custom-sql',
      'T-SQL',
      html`<textarea id="custom-sql" class="sql-editor" rows="8" spellcheck="false" aria-label="T-SQL"
        .value=${f.sql} ?disabled=${Boolean(f.sqlFile.trim())} aria-invalid=${errors.sql ? 'true' : 'false'}
        aria-describedby=${errors.sql ? 'custom-sql-error' : 'custom-sql-help'}
        @input=${(e: Event) => {
          f.sql = inputValue(e);
          keepDraft(app);
        }}></textarea>`,
      errors.sql ?? null,
      'e.g. SELECT TOP 5 name, spins FROM sys.dm_os_spinlock_stats ORDER BY spins DESC',
    )}
    <div class="param-grid">
      ${text(app, 'sqlFile', 'Or a .sql file', errors.sqlFile, 'A workspace path; when given, it is run instead of the text')}
      ${text(app, 'database', 'Database', errors.database, 'Where the workload runs')}
      ${select(app, 'paramsSource', 'Parameters', [
        ['none', 'None'],
        ['csv', 'CSV file'],
        ['query', 'Parameter query'],
      ])}
      ${f.paramsSource === 'csv' ? text(app, 'paramsCsv', 'CSV file', errors.paramsCsv, 'Header row names the variables, without @') : nothing}
      ${f.paramsSource === 'query' ? text(app, 'paramsQuery', 'Parameter query', errors.paramsQuery, 'Its columns give the values, a different row per call') : nothing}
      ${
        f.paramsSource !== 'none'
          ? html`
        ${select(
          app,
          'paramsOrder',
          'Row order',
          [
            ['round-robin', 'Round robin'],
            ['random', 'Random'],
          ],
          errors.paramsOrder,
          'Which row each call takes',
        )}
        ${select(
          app,
          'paramsScope',
          'Rows per',
          [
            ['session', 'Session (each its own cursor)'],
            ['shared', 'Shared by all sessions'],
          ],
          errors.paramsScope,
          'Per session: every session walks the rows; shared: one cursor for all',
        )}`
          : nothing
      }
      ${select(app, 'stopBy', 'Stop after', [
        ['iterations', 'Iterations per session'],
        ['duration', 'A duration'],
      ])}
      ${f.stopBy === 'iterations' ? text(app, 'iterations', 'Iterations', errors.iterations, 'Calls per session') : text(app, 'duration', 'Duration', errors.duration, 'e.g. 30s, 5m')}
      ${text(app, 'threads', 'Threads', errors.threads, 'Sessions, or a sweep: 1,2,4 or 1-8')}
      ${text(app, 'thinkTime', 'Think time', errors.thinkTime, 'Pause between calls, e.g. 0ms, 50ms')}
      ${text(app, 'queryTimeout', 'Query timeout', errors.queryTimeout, 'Per call, e.g. 30s; empty for none')}
      ${field(
        'custom-repeat',
        'Repetitions',
        html`<vscode-textfield id="custom-repeat" .value=${d.repeat} placeholder="1" ?invalid=${Boolean(errors.repeat)} aria-label="Repetitions"
          aria-describedby=${errors.repeat ? 'custom-repeat-error' : 'custom-repeat-help'}
          @input=${(e: Event) => {
            d.repeat = inputValue(e);
            keepDraft(app);
          }}></vscode-textfield>`,
        errors.repeat ?? null,
        'Runs of each thread count (1-100); 3 or more give each figure an interval',
      )}
    </div>
    <vscode-checkbox id="custom-stopOnError" .checked=${f.stopOnError} aria-describedby="custom-stopOnError-help"
      @change=${(e: Event) => {
        f.stopOnError = checkedOf(e);
        keepDraft(app);
      }}>Stop on the first error</vscode-checkbox>
    <p class="field-help" id="custom-stopOnError-help">Otherwise a failing call is counted by error number and the run goes on.</p>
    <div class="actions">
      <vscode-button id="btn-run-custom" ?disabled=${why !== null} title=${why ?? 'Run the workload'}
        @click=${() => {
          app.lastAction = 'custom';
          app.post(ToHost.customRun, { form: { ...f }, repeat });
        }}>Run custom workload</vscode-button>
      <span class="status-text" id="custom-status" role="status">${why ?? ''}</span>
    </div>
    ${customError(app)}
  </div>`;
}
