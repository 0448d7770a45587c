// The T-SQL of an experiment as a person would replay it by hand (SSMS, a SQL notebook, sqlcmd): the same sql/ files
// the engine sends, with each file's parameters declared as literals at the top, in the order the engine runs them.
// Used by the notebook writer and the T-SQL script bundle. Values are literals made by one function (sqlLiteral);
// identifiers by quoteName: nothing from the record is spliced in any other way.
import type { Experiment, ParamValue } from '../../shared/experiment';
import { formatCpuRanges } from '../../shared/affinity';
import { repeatOf } from '../../shared/planTime';
import { parseParameterDeclaration } from '../../db/params';
import { fileParams } from '../lab';
import { deploySteps, cleanupSteps, getScenario, workloadProcedure, paramSqlType, rowsPerCall, BUILTIN_ARG_TYPES } from '../scenarios';
import { loadSqlFile } from '../../db/sqlFiles';
import { KEY_BLOCK_SIZE } from '../load';

export interface ReplayStep {
  /** Short heading: 'Deploy: sql/scenarios/disk-insert/deploy.sql'. */
  title: string;
  /** Why this step exists and what it needs (the file's Purpose and Permission headers). */
  purpose: string;
  permission: string;
  /** Runnable T-SQL (GO separates batches). */
  sql: string;
}

export interface ReplayScript {
  deploy: ReplayStep[];
  knobs: ReplayStep[];
  workload: ReplayStep;
  sample: ReplayStep;
  restore: ReplayStep[];
  cleanup: ReplayStep[];
}

/** [name] with ] doubled: QUOTENAME's rule. */
export function quoteName(name: string): string {
  return `[${name.replace(/]/g, ']]')}]`;
}

/** A T-SQL literal for a value of a parameter of the given declared type. */
export function sqlLiteral(value: unknown, type: string): string {
  if (value === null || value === undefined) return 'NULL';
  const t = type.toLowerCase();
  if (/^(bit)$/.test(t)) return value === true || value === 1 || value === '1' ? '1' : '0';
  if (/^(tinyint|smallint|int|bigint)$/.test(t)) {
    const n = Number(value);
    if (!Number.isSafeInteger(n)) throw new Error(`not a whole number for ${type}: ${String(value)}`);
    return String(n);
  }
  return `N'${String(value).replace(/'/g, "''")}'`;
}

function declare(decl: string, values: Record<string, unknown>): string {
  const params = parseParameterDeclaration(decl);
  if (!params.length) return '';
  return `DECLARE ${params.map(([n, t]) => `@${n} ${t} = ${sqlLiteral(values[n], t)}`).join(',\n        ')};\n`;
}

export function step(title: string, id: string, values: Record<string, unknown>, database?: string): ReplayStep {
  const f = loadSqlFile(id);
  const use = database ? `USE ${quoteName(database)};\nGO\n` : '';
  const body = f.batches.length === 1 ? declare(f.parameters, values) + f.batches[0] : f.batches.join('\nGO\n');
  return { title: `${title}: sql/${id}.sql`, purpose: f.purpose, permission: f.permission, sql: `${use}${body}\nGO` };
}

/** The client loop's procedure call with its arguments (@key_base and @offset as variables), one argument a line. */
function clientLoopArgs(e: Experiment): { name: string; args: string[]; step: number; keyed: boolean } {
  const scenario = getScenario(e.scenario.id);
  const values = e.scenario.parameters;
  const proc = workloadProcedure(scenario, 'client-loop', values);
  const args = proc.args.map((name) => {
    if (name === 'key_base' || name === 'offset') return `@${name} = @${name}`;
    const type = BUILTIN_ARG_TYPES[name] ?? paramSqlType(scenario.parameters.find((p) => p.name === name)!);
    return `@${name} = ${sqlLiteral(values[name], type)}`;
  });
  return { name: proc.name, args, step: rowsPerCall(scenario, values), keyed: proc.args.includes('key_base') };
}

/** Calls each session made in the recorded run at `threads` (its last one), or what --rows asks of it. */
function callsPerSession(e: Experiment, threads: number, step: number): number {
  if (e.load.rows !== null) return Math.max(1, Math.ceil(e.load.rows / threads / step));
  const run = [...e.runs].reverse().find((r) => r.threads === threads);
  return Math.max(1, Math.ceil((run?.rows ?? 0) / step / threads));
}

/** The client loop as a person replays it: one call, which the client sends again and again from each session. */
function clientLoopCall(e: Experiment): ReplayStep {
  const c = clientLoopArgs(e);
  const sql = [
    `USE ${quoteName(e.labDatabase)};`,
    'GO',
    `-- One call of one session's client loop. Spinlock Lab sends it once per round trip from ${e.load.threads.join(', ')} sessions at once`,
    ...(c.keyed
      ? [
          `-- (the load command lines in this notebook do that), each session with its own key block, @offset ${c.step} further each call.`,
          `DECLARE @key_base bigint = (NEXT VALUE FOR dbo.spinlab_key_block) * ${KEY_BLOCK_SIZE};`,
          'DECLARE @offset bigint = 0;',
        ]
      : ['-- (the load command lines in this notebook do that).']),
    `EXEC ${c.name}\n    ${c.args.join(',\n    ')};`,
    'GO',
  ].join('\n');
  return {
    title: `Workload: ${c.name} (client loop)`,
    purpose: "The measured load: one call per round trip, sent again and again by each session for the run's duration or row count.",
    permission: "EXECUTE on the scenario's procedures (db_owner of the lab database has it)",
    sql,
  };
}

/**
 * One ostress iteration as one client-loop call: the session's key block and @offset live in SESSION_CONTEXT (SQL
 * Server 2016+) so each call writes new keys, as the client loop's do. A connection reset between iterations clears
 * them: the next call then draws a new key block, still unique.
 */
function clientLoopOstressBatch(e: Experiment): string {
  const c = clientLoopArgs(e);
  const call = `EXEC ${c.name} ${c.args.join(', ')};`;
  if (!c.keyed) return call;
  return [
    "DECLARE @key_base bigint = CONVERT(bigint, SESSION_CONTEXT(N'spinlab_key_base')), @offset bigint = ISNULL(CONVERT(bigint, SESSION_CONTEXT(N'spinlab_offset')), 0);",
    `IF @key_base IS NULL BEGIN SET @key_base = (NEXT VALUE FOR dbo.spinlab_key_block) * ${KEY_BLOCK_SIZE}; EXEC sp_set_session_context N'spinlab_key_base', @key_base; END;`,
    call,
    `SET @offset += ${c.step}; EXEC sp_set_session_context N'spinlab_offset', @offset;`,
  ].join(' ');
}

function workloadCall(e: Experiment): ReplayStep {
  if (e.load.mode === 'client-loop') return clientLoopCall(e);
  const scenario = getScenario(e.scenario.id);
  const values = e.scenario.parameters;
  const proc = workloadProcedure(scenario, 'server-loop', values);
  const rowsPerSession = e.load.rows === null ? null : Math.ceil(e.load.rows / Math.max(1, e.load.threads[e.load.threads.length - 1]));
  const builtins: Record<string, unknown> = { rows: rowsPerSession, run_ms: e.load.durationMs, offset: 0 };
  const args = proc.args.map((name) => {
    if (name === 'key_base') return '@key_base = @key_base';
    const type = BUILTIN_ARG_TYPES[name] ?? paramSqlType(scenario.parameters.find((p) => p.name === name)!);
    return `@${name} = ${sqlLiteral(name in builtins ? builtins[name] : values[name], type)}`;
  });
  const sql = [
    `USE ${quoteName(e.labDatabase)};`,
    'GO',
    `-- One session's share of the load. Run it from ${e.load.threads.join(', ')} sessions at once (the load command lines`,
    ...(proc.args.includes('key_base')
      ? [
          '-- in this notebook do that); each session takes its own key block so their keys never collide.',
          `DECLARE @key_base bigint = (NEXT VALUE FOR dbo.spinlab_key_block) * ${KEY_BLOCK_SIZE};`,
        ]
      : ['-- in this notebook do that).']),
    `EXEC ${proc.name}\n    ${args.join(',\n    ')};`,
    'GO',
  ].join('\n');
  return {
    title: `Workload: ${proc.name} (server loop)`,
    purpose: "The measured load: one call per session, for the run's duration or row count.",
    permission: "EXECUTE on the scenario's procedures (db_owner of the lab database has it)",
    sql,
  };
}

/** Steps as one script: each headed by its title, purpose and permission. */
export function stepsText(steps: readonly ReplayStep[]): string {
  return steps.map((s) => `-- ${s.title}\n-- ${s.purpose}\n-- Needs: ${s.permission}\n${s.sql}\n`).join('\n');
}

/** Every step of the experiment, in the engine's order. */
export function buildReplay(e: Experiment): ReplayScript {
  const scenario = getScenario(e.scenario.id);
  const values: Record<string, ParamValue> = e.scenario.parameters;
  const db = e.labDatabase;
  const deploy = [
    step('Create the lab database (skip if it exists)', 'lab/create', { db, mark: 'Created by hand from a Spinlock Lab notebook' }),
    ...(deploySteps(scenario, values).length ? [step('Common lab objects', 'lab/common', {}, db)] : []),
    ...deploySteps(scenario, values).map((id) => step('Deploy', id, fileParams(id, values), db)),
  ];
  const knobs: ReplayStep[] = [];
  const restore: ReplayStep[] = [];
  const applied = e.knobs.applied;
  if (applied.delayedDurability) {
    knobs.push(
      step(`Delayed durability ${applied.delayedDurability}`, 'knobs/delayed-durability', { db, mode: applied.delayedDurability }),
    );
    const before = e.knobs.before?.delayedDurability;
    if (before) restore.push(step(`Delayed durability back to ${before}`, 'knobs/delayed-durability', { db, mode: before }));
  }
  if (applied.affinity) {
    const cpus = applied.affinity.cpus;
    knobs.push(
      cpus === 'AUTO'
        ? step('Process affinity AUTO', 'knobs/affinity-auto', {})
        : step(`Process affinity ${applied.affinity.spec}`, 'knobs/affinity-cpu', { cpu_ranges: formatCpuRanges(cpus) }),
    );
    const before = e.knobs.before?.affinity;
    if (before) {
      restore.push(
        before.type === 'AUTO' || before.cpus.length === 0
          ? step('Process affinity back to AUTO', 'knobs/affinity-auto', {})
          : step('Process affinity back to the original CPUs', 'knobs/affinity-cpu', { cpu_ranges: formatCpuRanges(before.cpus) }),
      );
    }
  }
  return {
    deploy,
    knobs,
    workload: workloadCall(e),
    // @db_physical NULL: on Azure SQL Managed Instance set it to the lab database's sys.databases.physical_database_name
    // to see its counters (sql/server/database-names.sql lists it).
    sample: step('One DMV snapshot (run before and after the load; subtract)', 'dmv/sample', { db, db_physical: null }, db),
    restore,
    cleanup: cleanupSteps(scenario, values).map((id) => step('Clean up', id, fileParams(id, values), db)),
  };
}

/**
 * The equivalent load command lines: Spinlock Lab's own, and ostress (RML Utilities) for people who still use it, with
 * a note on how the ostress lines reproduce a client-loop run (null for the server loop: one EXEC per session).
 */
export function loadCommandLines(e: Experiment): { spinlab: string; ostress: string[]; note: string | null } {
  const sets = Object.entries(e.scenario.parameters)
    .map(([k, v]) => `--set ${k}=${String(v)}`)
    .join(' ');
  const knobs = [
    e.knobs.applied.delayedDurability ? `--delayed-durability ${e.knobs.applied.delayedDurability.toLowerCase()}` : '',
    e.knobs.applied.affinity ? `--affinity ${e.knobs.applied.affinity.spec}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const amount = e.load.rows !== null ? `--rows ${e.load.rows}` : `--duration ${Math.round((e.load.durationMs ?? 0) / 1000)}s`;
  const spinlab = [
    'npx spinlab run',
    `--scenario ${e.scenario.id}`,
    `--threads ${e.load.threads.join(',')}`,
    amount,
    `--warmup ${e.load.warmupMs}ms`,
    `--interval ${e.load.intervalMs}ms`,
    repeatOf(e) > 1 ? `--repeat ${repeatOf(e)}` : '',
    `--mode ${e.load.mode}`,
    sets,
    knobs,
    `--lab-db ${shellQuote(e.labDatabase)}`,
  ]
    .filter(Boolean)
    .join(' ');
  if (e.load.mode === 'client-loop') {
    const batch = clientLoopOstressBatch(e).replace(/"/g, '""');
    const step = clientLoopArgs(e).step;
    const ostress = e.load.threads.map(
      (n) =>
        `ostress.exe -S"%SPINLAB_SERVER%" -U"%SPINLAB_USER%" -P"%SPINLAB_PASSWORD%" -d"${e.labDatabase}" -n${n} -r${callsPerSession(e, n, step)} -q -Q"${batch}"`,
    );
    const note =
      `The client loop sends one call per round trip: ostress does one call per iteration, -r being the calls each session made${e.load.rows === null ? ' in the recorded run (ostress runs a count, not a time)' : ''}.` +
      (clientLoopArgs(e).keyed
        ? " Each session keeps its key block and @offset in SESSION_CONTEXT (SQL Server 2016 or later), so its calls write new keys as the client loop's do."
        : '') +
      ' ostress sends a batch where Spinlock Lab sends a bare RPC, so expect a little more work per call on the server.';
    return { spinlab, ostress, note };
  }
  const call = workloadCall(e)
    .sql.split('\n')
    .filter((l) => l && !l.startsWith('--') && l !== 'GO' && !l.startsWith('USE '))
    .join(' ')
    .replace(/\s+/g, ' ');
  const ostress = e.load.threads.map(
    (n) =>
      `ostress.exe -S"%SPINLAB_SERVER%" -U"%SPINLAB_USER%" -P"%SPINLAB_PASSWORD%" -d"${e.labDatabase}" -n${n} -r1 -q -Q"${call.replace(/"/g, '""')}"`,
  );
  return { spinlab, ostress, note: null };
}

export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_.-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
