// The panel's Custom workload run: the form (checked by its schema and shared/customForm.ts) -> the same plan
// `spinlab run --sql` builds (statements split on GO, variables bound by name to a CSV's or a query's columns, the
// conservative write check, the Knobs section applied as for any run: journaled, confirmed, put back), confirmed when
// the batch may write or a knob changes, then run as the active experiment. Nothing is deployed in the user's database.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CustomWorkload } from '../../../shared/experiment';
import { checkCustomForm, type CustomFill, type CustomForm } from '../../../shared/customForm';
import { parseDuration } from '../../../shared/params';
import type { ExperimentResult } from '../../../engine/experiment';
import { runExperiment, type ExperimentOptions } from '../../../engine/experiment';
import { loadSettingsFrom } from '../../../engine/runSettings';
import { splitBatches, unboundVariables, writeReason } from '../../../engine/custom/batch';
import { checkBinding, embeddedCsv, paramsFromCsv, paramsFromQuery, ParamsError, type ParamTable } from '../../../engine/custom/params';
import { CUSTOM_SCENARIO_ID } from '../../../engine/custom/manifest';
import { checkJournal, executeJob, runActive } from '../../experimentRun';
import { CONFIRM_ACTION, CONFIRM_TITLE, PANEL_NAMES, confirmDetail, confirmMore, describeChanges, type RunRequest } from '../../runRequest';
import { parseAffinity, type AffinityResolution } from '../../../shared/affinity';
import { readKnobState } from '../../../engine/knobs';
import type { ServerConnection } from '../../serverView';
import { UiFailure } from '../../uiErrors';
import type { PanelContext } from '../../panelContext';
import type { FeatureRegistry, PanelFeature } from '../feature';
import { counts, plural } from '../../../shared/plural';

export const WRITE_CONFIRM_TITLE = 'This workload may write to your database';
export const WRITE_CONFIRM_ACTION = 'Run It';

function fail(message: string, fix: string): never {
  throw new UiFailure({ message, fix });
}

/** The statements from the file or the text, each GO-separated batch on its own. */
function statementsOf(f: CustomForm): { source: string; text: string }[] {
  const file = f.sqlFile.trim();
  if (!file) return splitBatches(f.sql).map((text) => ({ source: 'panel', text }));
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(file), 'utf8');
  } catch (e) {
    fail(
      `Cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`,
      'Pick a .sql file that exists, or clear the file to run the text.',
    );
  }
  const batches = splitBatches(text);
  if (!batches.length) fail(`${file} holds no statement.`, 'Pick a file with T-SQL in it.');
  return batches.map((b) => ({ source: path.basename(file), text: b }));
}

/** The workload and its parameter rows, as the CLI's customWorkloadFrom and resolveParamRows make them. */
async function planOf(s: PanelContext, f: CustomForm): Promise<{ workload: CustomWorkload; table: ParamTable | null }> {
  const statements = statementsOf(f);
  const variables = [...new Set(statements.flatMap((st) => unboundVariables(st.text)))];
  const database = f.database.trim();
  let table: ParamTable | null = null;
  try {
    if (f.paramsSource === 'csv') table = paramsFromCsv(path.resolve(f.paramsCsv.trim()));
    if (f.paramsSource === 'query') table = await paramsFromQuery(s.requireConnection().target, database, f.paramsQuery);
    checkBinding(variables, table);
  } catch (e) {
    if (e instanceof ParamsError) fail(e.message, 'Give every @variable a column of the same name (without @) in the parameters source.');
    throw e;
  }
  const workload: CustomWorkload = {
    statements,
    database,
    params:
      table && f.paramsSource !== 'none'
        ? {
            kind: f.paramsSource,
            from: f.paramsSource === 'csv' ? path.resolve(f.paramsCsv.trim()) : f.paramsQuery,
            ...(f.paramsSource === 'csv' ? embeddedCsv(path.resolve(f.paramsCsv.trim())) : {}),
            columns: table.columns,
            rows: table.rows.length,
            order: f.paramsOrder,
            scope: f.paramsScope,
          }
        : null,
    iterations: f.stopBy === 'iterations' ? Number(f.iterations.trim()) : null,
    thinkTimeMs: parseDuration(f.thinkTime.trim() || '0ms', { allowZero: true }),
    queryTimeoutMs: f.queryTimeout.trim() ? parseDuration(f.queryTimeout) : null,
    stopOnError: f.stopOnError,
    writes: writeReason(statements.map((st) => st.text)),
  };
  return { workload, table };
}

/** Runs the Custom workload form (`repeat` times each thread count); null when the user declined the write confirmation. */
export async function runCustom(s: PanelContext, f: CustomForm, title?: string, repeat = 1): Promise<ExperimentResult | null> {
  const conn = s.requireConnection();
  s.requireIdle('another run');
  const problems = Object.values(checkCustomForm(f));
  if (problems.length) fail(problems.join(' '), 'Correct the Custom workload form and run again.');
  await checkJournal(s);
  const { workload, table } = await planOf(s, f);
  const sel = s.state.selection.run;
  const base = loadSettingsFrom(
    {
      mode: 'client-loop',
      threads: f.threads,
      duration: f.stopBy === 'duration' ? f.duration : '30s',
      warmup: sel.warmup,
      interval: sel.interval,
    },
    PANEL_NAMES,
  );
  const load = { ...base, mode: 'client-loop' as const, durationMs: workload.iterations !== null ? null : base.durationMs, rows: null };
  const knobs = await customKnobs(s, conn, workload.database);
  const writeNote = workload.writes
    ? `The workload runs in [${workload.database}] on ${conn.identity.serverName} and may write to it (${workload.writes}).\n\n` +
      'Spinlock Lab deploys nothing there; the statements run as you wrote them, by every session, for the whole run.'
    : null;
  // One question: the server-wide changes (journaled, put back) with the write note under them, or the write note alone.
  const ask =
    knobs.changes.length && s.ports.settings().confirmServerChanges
      ? {
          title: CONFIRM_TITLE,
          detail: confirmDetail(conn.identity.serverName, knobs.changes) + (writeNote ? `\n\n${writeNote}` : ''),
          action: CONFIRM_ACTION,
          more: confirmMore(knobs.changes),
        }
      : writeNote
        ? { title: WRITE_CONFIRM_TITLE, detail: writeNote, action: WRITE_CONFIRM_ACTION, more: undefined }
        : null;
  if (ask) {
    if (!(await s.ports.confirm(ask.title, ask.detail, ask.action, ask.more))) {
      s.ports.log.info('custom run cancelled at the confirmation: nothing was run or changed');
      return null;
    }
    s.checkAlive();
    if (s.connection() !== conn) fail('The connection changed while the question was open; nothing was run.', 'Run again.');
    if (s.experiment.isRunning) fail('Another experiment started meanwhile.', 'Stop it first.');
  }
  for (const c of knobs.changes) s.ports.log.info(`will change ${c}`);
  const name = title?.trim() || `Custom workload in [${workload.database}]: ${counts(load.threads, 'thread')}`;
  const settings = s.ports.settings();
  const outcome = await runActive(s, (hooks) =>
    executeJob(
      {
        conn,
        idBase: CUSTOM_SCENARIO_ID,
        scenarioId: CUSTOM_SCENARIO_ID,
        title: name,
        runCount: load.threads.length * repeat,
        describe: `custom workload in [${workload.database}] (${workload.writes ? 'writes' : 'reads only'}), threads ${load.threads.join(',')}${repeat > 1 ? `, ${plural(repeat, 'repetition')}` : ''}`,
        resultsFolder: settings.resultsFolder,
        start: ({ id, outDir }, signal, progress) => {
          const options: ExperimentOptions = {
            target: conn.target,
            scenarioId: CUSTOM_SCENARIO_ID,
            parameters: {},
            labDatabase: workload.database,
            load,
            repeat,
            knobs: knobs.request,
            outDir,
            title: name,
            deploy: false,
            stateDir: s.stateDir,
            id,
            custom: { workload, table },
          };
          return runExperiment(options, signal, progress);
        },
      },
      hooks,
    ),
  );
  return outcome.result;
}

/**
 * The Knobs section's settings for a custom run, as the CLI applies them (`spinlab run --sql ... --delayed-durability
 * --affinity`): delayed durability on the database the workload runs in (the engine journals it, changes it, and puts
 * it back), affinity server-wide; and what will change, from what to what, for the confirmation.
 */
async function customKnobs(
  s: PanelContext,
  conn: ServerConnection,
  database: string,
): Promise<{ request: RunRequest['knobs']; changes: string[] }> {
  const facts = s.facts();
  const asked = s.state.selection.knobs;
  if (!facts || (asked.delayedDurability === 'unchanged' && !asked.affinity.trim())) return { request: {}, changes: [] };
  let affinity: AffinityResolution | null = null;
  if (asked.affinity.trim()) {
    try {
      affinity = parseAffinity(asked.affinity.trim(), facts.topology);
    } catch (e) {
      fail(`CPU affinity: ${(e as Error).message}`, 'Correct the affinity in the Knobs section, or clear it to leave affinity unchanged.');
    }
  }
  const dd = asked.delayedDurability === 'unchanged' ? undefined : asked.delayedDurability;
  // Delayed durability is the workload's database's, not the lab database's: read it there.
  const now = await readKnobState(await conn.session(), database);
  if (dd && now.delayedDurability === null) {
    fail(
      `The database [${database}] was not found on ${conn.identity.serverName}, so its delayed durability cannot be set.`,
      'Name a database that exists in the Custom workload form, or set delayed durability to unchanged.',
    );
  }
  const request: RunRequest['knobs'] = {};
  if (dd) request.delayedDurability = dd;
  if (affinity) request.affinity = affinity.spec;
  return {
    request,
    changes: describeChanges(
      { ...facts, knobs: { ...facts.knobs, delayedDurability: now.delayedDurability }, labDatabase: database },
      dd,
      affinity,
    ),
  };
}

/** "Load Test This Query": hands the panel the T-SQL to fill in (it arrives with the next state). */
export function fillCustom(s: PanelContext, fill: CustomFill): void {
  s.state.customFill = { ...fill, seq: (s.state.customFill?.seq ?? 0) + 1 };
  s.state.selection = { ...s.state.selection, scenarioId: CUSTOM_SCENARIO_ID };
  s.postState();
}

export class CustomFeature implements PanelFeature {
  register(r: FeatureRegistry): void {
    r.on('customRun', (p) => runCustom(r.panel, p.form, p.title, p.repeat));
  }
}
