// What a re-run of a saved notebook will do, derived only from its metadata record (checked again here) and never
// from a label stored beside it: the scenario or the T-SQL in full with each statement classified now, threads,
// amount, knobs, database and server. The CLI prints it and the panel shows it, from the same text, before asking.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CustomWorkload, Experiment } from '../../shared/experiment';
import { formatNumber } from '../../shared/analysis';
import { getScenario } from '../scenarios';
import { resolveParams } from '../../shared/params';
import { planArmsOf, presetRequestOf } from '../presetRun';
import { writeReason } from '../custom/batch';
import { csvSource, EMBED_CSV_MAX_BYTES } from '../custom/params';
import { NotebookError } from '../migrate';
import { repeatOf } from '../../shared/planTime';
import type { PlanArm } from '../experiment';
import { CONFIRM_REPEAT, confirmArms, confirmLoad, confirmTitle, isConfirmation } from '../tuneConfirm';

export type StatementKind = 'read' | 'write' | 'DDL';

export interface ClassifiedStatement {
  source: string;
  text: string;
  kind: StatementKind;
  /** Why it may write (the custom workload classifier's words), or null for a read. */
  reason: string | null;
}

export interface RerunPlan {
  title: string;
  /** Where it will run: the connection given now (never a password). */
  server: string;
  originalServer: string;
  /** The scenario, the preset or the custom workload, one line each. */
  what: string[];
  threads: number[];
  /** Runs of each arm at each thread count (the record's; 1 for one written before repetitions). */
  repeat: number;
  amount: string;
  /** What it changes on the server (and puts back): knobs, and the lab tables a scenario drops and recreates. */
  changes: string[];
  database: string;
  statements: ClassifiedStatement[];
  /** A parameter query runs too: its text in full. */
  paramsQuery: ClassifiedStatement | null;
  paramsLine: string | null;
  /** What in the record itself contradicts what will run (a stored label, the recorded runs, the title). */
  warnings: string[];
  /** What may stop it here (a parameter file not found). */
  notes: string[];
}

/** A statement classified now by the custom workload's conservative classifier (anything not plainly a read writes). */
export function classifyStatement(source: string, text: string): ClassifiedStatement {
  const reason = writeReason([text]);
  const kind: StatementKind =
    reason === null ? 'read' : /^(CREATE|ALTER|DROP|TRUNCATE) may write|SELECT \.\.\. INTO/.test(reason) ? 'DDL' : 'write';
  return { source, text, kind, reason };
}

const KIND_LABEL: Record<StatementKind, string> = { read: 'READ', write: 'WRITE', DDL: 'DDL (changes the schema)' };

function bad(what: string): never {
  throw new NotebookError(`The notebook's record cannot be re-run: ${what}. It was edited by hand or damaged; save the experiment again.`);
}

/** The custom part of a record checked again: migrateExperiment's schema does not look inside it. */
function checkCustom(w: CustomWorkload): void {
  if (!Array.isArray(w.statements) || !w.statements.length) bad('custom.statements is empty');
  w.statements.forEach((s, i) => {
    if (!s || typeof s.text !== 'string' || !s.text.trim() || typeof s.source !== 'string')
      bad(`custom.statements[${i}] is not a statement`);
  });
  if (typeof w.database !== 'string' || !w.database.trim() || w.database.length > 128) bad('custom.database is not a database name');
  if (w.iterations !== null && !(Number.isSafeInteger(w.iterations) && w.iterations > 0))
    bad('custom.iterations is not a positive whole number');
  if (w.perIteration !== undefined && w.perIteration !== 'one' && w.perIteration !== 'all') bad('custom.perIteration is not one or all');
  if (!(Number.isFinite(w.thinkTimeMs) && w.thinkTimeMs >= 0)) bad('custom.thinkTimeMs is not a duration');
  const p = w.params;
  if (p !== null) {
    if (!p || (p.kind !== 'csv' && p.kind !== 'query') || typeof p.from !== 'string') bad('custom.params is not a parameter source');
    if (!['round-robin', 'random'].includes(p.order) || !['session', 'shared'].includes(p.scope))
      bad('custom.params has an unknown order or scope');
    if (p.csvText !== undefined && typeof p.csvText !== 'string') bad('custom.params.csvText is not text');
    if (p.nearNotebook !== undefined && (typeof p.nearNotebook !== 'string' || path.isAbsolute(p.nearNotebook)))
      bad('custom.params.nearNotebook is not a relative path');
  }
}

function knobChanges(e: Experiment, database: string): string[] {
  const a = e.knobs.applied;
  const out: string[] = [];
  if (a.delayedDurability) out.push(`delayed durability of [${database}] set to ${a.delayedDurability} (put back afterwards)`);
  if (a.affinity) out.push(`process affinity set to ${a.affinity.spec}, server-wide (put back afterwards)`);
  return out;
}

function paramsLine(w: CustomWorkload, notebookDir: string | undefined, notes: string[]): string | null {
  const p = w.params;
  if (!p) return null;
  const cols = p.columns.map((c) => `@${c.name}`).join(', ');
  const how = `${p.order}, ${p.scope === 'session' ? 'a row cursor per session' : 'one cursor shared by all sessions'}`;
  if (p.kind === 'query') return `rows of the parameter query below, run once in [${w.database}] before the runs (${how})`;
  const src = csvSource(p, notebookDir);
  if (src.kind === 'embedded') return `${p.rows} rows (${cols}) from ${path.basename(p.from)}, saved inside the notebook (${how})`;
  const where =
    src.why === 'near-notebook'
      ? `${p.nearNotebook} relative to the notebook (over ${EMBED_CSV_MAX_BYTES / 1024} KB, so not embedded)`
      : `${p.from}, the path it was read from when it ran`;
  if (!fs.existsSync(src.file))
    notes.push(`The parameter file ${src.file} does not exist here: the re-run will fail until it is put there.`);
  return `${p.rows} rows (${cols}) read from ${where} (${how})`;
}

/** What an arm asks of the server, in words: its knobs, and its parameters. */
function armWords(a: PlanArm, database: string): string {
  const params = Object.entries(a.parameters)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ');
  const knobs = [
    a.knobs.affinity ? `process affinity ${a.knobs.affinity}` : 'affinity unchanged',
    a.knobs.delayedDurability ? `delayed durability of [${database}] ${a.knobs.delayedDurability}` : 'delayed durability unchanged',
  ].join(', ');
  return `${a.scenarioId}${params ? ` with ${params}` : ''}; ${a.threads.join(', ')} session${a.threads.length === 1 && a.threads[0] === 1 ? '' : 's'}; ${knobs}`;
}

/**
 * A plan of arms, each with its own knobs and session counts: a tune's confirmation (the current settings against the
 * winner, from the tune's result), or a confirmation run again (its own two arms).
 */
function armsPlan(e: Experiment, ctx: PlanContext): RerunPlan {
  if (e.custom) throw new NotebookError("A custom workload's tune cannot be confirmed by a re-run yet: run spinlab tune again.");
  const tune = e.kind === 'tune';
  const arms = tune ? confirmArms(e) : planArmsOf(e);
  const load = tune ? { ...e.load, ...confirmLoad(e) } : e.load;
  const db = ctx.labDatabase ?? e.labDatabase;
  const knobbed = arms.filter((a) => a.knobs.affinity || a.knobs.delayedDurability);
  return {
    title: tune ? confirmTitle(e) : e.title,
    server: ctx.server,
    originalServer: e.server.serverName,
    what: [
      tune
        ? "a confirmation A/B of the tune's winner (B) against the server's current settings (A), each at its own session count:"
        : 'the same two arms again, A against B:',
      ...arms.map((a, i) => `arm ${a.id} (${i ? 'B' : 'A'}), ${a.label}: ${armWords(a, db)}`),
    ],
    threads: [...new Set(arms.flatMap((a) => a.threads))].sort((x, y) => x - y),
    repeat: tune ? CONFIRM_REPEAT : repeatOf(e),
    amount: `${(load.durationMs ?? 0) / 1000} s per run, warm-up ${load.warmupMs / 1000} s, sampled every ${load.intervalMs} ms, ${load.mode}`,
    changes: [
      `drops and recreates the scenario's tables in the lab database [${db}]`,
      ...knobbed.map(
        (a) =>
          `for arm ${a.id}: ${[a.knobs.affinity ? `process affinity set to ${a.knobs.affinity}, server-wide` : '', a.knobs.delayedDurability ? `delayed durability of [${db}] set to ${a.knobs.delayedDurability}` : ''].filter(Boolean).join(' and ')} (put back afterwards)`,
      ),
    ],
    database: db,
    statements: [],
    paramsQuery: null,
    paramsLine: null,
    warnings: [],
    notes: [],
  };
}

/** Thread counts a title states ("... 2 threads", "1, 2, 4 threads"), or null when it states none. */
function titleThreads(title: string): number[] | null {
  const m = /(\d+(?:\s*,\s*\d+)*)\s+threads?\b/i.exec(title);
  return m ? m[1].split(',').map((x) => Number(x.trim())) : null;
}

export interface PlanContext {
  /** The server as the user will recognise it: host,port and login of the connection given now. */
  server: string;
  labDatabase?: string;
  /** The notebook's folder: a large parameter file is looked for relative to it. */
  notebookDir?: string;
}

/** The plan for re-running `e`: throws NotebookError when the record cannot be run as it stands. */
export function planRerun(e: Experiment, ctx: PlanContext): RerunPlan {
  if (e.kind === 'tune' || isConfirmation(e)) return armsPlan(e, ctx);
  const warnings: string[] = [];
  const notes: string[] = [];
  const load = e.load;
  const amount = e.custom?.iterations
    ? e.custom.perIteration === 'all'
      ? `${formatNumber(e.custom.iterations)} iterations per session, each running every statement in order`
      : `${formatNumber(e.custom.iterations)} calls per session`
    : load.rows !== null
      ? `${formatNumber(load.rows)} rows`
      : `${(load.durationMs ?? 0) / 1000} s`;
  const base = {
    title: e.title,
    server: ctx.server,
    originalServer: e.server.serverName,
    threads: [...load.threads],
    repeat: repeatOf(e),
    amount: `${amount}${e.custom?.iterations ? '' : ' per run'}, warm-up ${load.warmupMs / 1000} s, sampled every ${load.intervalMs} ms, ${load.mode}`,
    statements: [] as ClassifiedStatement[],
    paramsQuery: null as ClassifiedStatement | null,
    paramsLine: null as string | null,
  };
  let plan: RerunPlan;
  if (e.custom) {
    const w = e.custom;
    checkCustom(w);
    const statements = w.statements.map((s) => classifyStatement(s.source, s.text));
    const writes = statements.filter((s) => s.kind !== 'read');
    if (writes.length && !w.writes) {
      warnings.push(
        `The record labels this workload "reads only", but checked now ${writes.map((s) => `statement ${statements.indexOf(s) + 1} is a ${s.kind} (${s.reason})`).join('; ')}.`,
      );
    }
    const paramsQuery = w.params?.kind === 'query' ? classifyStatement('parameter query', w.params.from) : null;
    plan = {
      ...base,
      what: [
        `custom workload: your T-SQL, ${statements.length} statement${statements.length === 1 ? '' : 's'} run in turn by each session; nothing is deployed`,
        ...(w.thinkTimeMs ? [`think time ${w.thinkTimeMs} ms after each call`] : []),
        ...(w.queryTimeoutMs ? [`query timeout ${w.queryTimeoutMs} ms`] : []),
        ...(w.stopOnError ? ['stops at the first failing call'] : []),
      ],
      database: w.database,
      changes: knobChanges(e, w.database),
      statements,
      paramsQuery,
      paramsLine: paramsLine(w, ctx.notebookDir, notes),
      warnings,
      notes,
    };
  } else if (e.preset) {
    const req = presetRequestOf(e);
    const db = ctx.labDatabase ?? e.labDatabase;
    const settings =
      Object.entries(req.values)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(', ') || 'none';
    const arms = [...new Map(e.runs.map((r) => [r.arm.id, r.arm])).values()].map((a) => {
      const k = [
        a.knobs.delayedDurability ? `delayed durability ${a.knobs.delayedDurability}` : '',
        a.knobs.affinity ? `affinity ${a.knobs.affinity.spec}` : '',
      ]
        .filter(Boolean)
        .join(', ');
      return `arm ${a.label}: ${a.scenarioId}${k ? `, ${k}` : ''}`;
    });
    plan = {
      ...base,
      threads: req.threads ?? [...load.threads],
      what: [
        `preset ${req.preset.id} (${req.preset.name}) with ${settings}`,
        'its arms are planned again for the server it now runs on; as recorded:',
        ...arms,
      ],
      database: db,
      changes: [
        `drops and recreates the preset's lab tables in [${db}]`,
        'knobs as each arm needs them (delayed durability, process affinity), put back after each arm',
      ],
      warnings,
      notes,
    };
  } else {
    const scenario = getScenario(e.scenario.id);
    const parameters = resolveParams(scenario.parameters, { json: e.scenario.parameters });
    const params =
      Object.entries(parameters)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(', ') || 'none';
    const db = ctx.labDatabase ?? e.labDatabase;
    plan = {
      ...base,
      what: [`scenario ${scenario.id} (${scenario.name}) with ${params}`],
      database: db,
      changes: [`drops and recreates the scenario's tables in the lab database [${db}]`, ...knobChanges(e, db)],
      warnings,
      notes,
    };
  }
  const said = titleThreads(e.title);
  if (said && !e.preset && said.join(',') !== plan.threads.join(',')) {
    warnings.push(
      `The title says ${said.join(', ')} thread${said.length === 1 && said[0] === 1 ? '' : 's'}; the record runs ${plan.threads.join(', ')}.`,
    );
  }
  const ran = [...new Set(e.runs.filter((r) => !r.arm || r.arm.id === e.runs[0]?.arm?.id).map((r) => r.threads))];
  if (!e.preset && ran.length && ran.join(',') !== plan.threads.join(',')) {
    warnings.push(`The recorded results ran ${ran.join(', ')} threads; the record's load runs ${plan.threads.join(', ')}.`);
  }
  return plan;
}

function indent(text: string, by: string): string {
  return text
    .split(/\r?\n/)
    .map((l) => by + l)
    .join('\n');
}

/** The plan as text: what the CLI prints and the panel's confirmation shows. Warnings come first, where they are seen. */
export function renderPlan(plan: RerunPlan, cellWarnings: string[] = []): string {
  const warnings = [...cellWarnings, ...plan.warnings];
  const out: string[] = [];
  if (warnings.length) {
    out.push('WARNING: this notebook does not show what it will run. The plan below is what its record says, and that is what runs:');
    for (const w of warnings) out.push(`  ! ${w}`);
    out.push('');
  }
  out.push(`Re-run plan for "${plan.title}" (from the notebook's record, checked again now)`);
  out.push(`  Server:    ${plan.server} (the original ran on ${plan.originalServer})`);
  out.push(`  Database:  [${plan.database}]`);
  for (const [i, w] of plan.what.entries()) out.push(`  ${i === 0 ? 'Runs:     ' : '          '} ${w}`);
  out.push(
    `  Threads:   ${plan.threads.join(', ')} (${plan.repeat === 1 ? 'one run per count' : `each count ${plan.repeat} times: ${plan.repeat} passes over the counts, not ${plan.repeat} runs in a row`})`,
  );
  out.push(`  Each run:  ${plan.amount}`);
  out.push(`  Changes:   ${plan.changes.length ? plan.changes.join('; ') : 'no server-wide setting'}`);
  if (plan.paramsLine) out.push(`  Params:    ${plan.paramsLine}`);
  if (plan.statements.length) {
    out.push(`  T-SQL (${plan.statements.length} statement${plan.statements.length === 1 ? '' : 's'}, classified now):`);
    plan.statements.forEach((s, i) => {
      out.push(`    ${i + 1}. ${KIND_LABEL[s.kind]}${s.reason ? `: ${s.reason}` : ''} [${s.source}]`);
      out.push(indent(s.text, '       '));
    });
  }
  if (plan.paramsQuery) {
    out.push(`  Parameter query, ${KIND_LABEL[plan.paramsQuery.kind]}${plan.paramsQuery.reason ? `: ${plan.paramsQuery.reason}` : ''}:`);
    out.push(indent(plan.paramsQuery.text, '       '));
  }
  for (const n of plan.notes) out.push(`  Note: ${n}`);
  return out.join('\n') + '\n';
}
