// The panel's "Custom workload" form: the user's own T-SQL (typed, or a .sql file of the workspace), the database it
// runs in, a parameter source, and when it stops. Shared by the webview (validated as typed) and the host (the zod
// schema it checks the customRun message against, then builds the same plan as `spinlab run --sql`).
import { z } from 'zod';
import { ParamError, parseDuration, parseThreadList } from './params';

export const customFormSchema = z.object({
  /** The T-SQL as typed (GO separates batches); ignored when sqlFile is given. */
  sql: z.string().max(1_000_000),
  /** A workspace .sql file to read instead of `sql` (empty for none). */
  sqlFile: z.string().max(1024),
  database: z.string().max(128),
  paramsSource: z.enum(['none', 'csv', 'query']),
  paramsCsv: z.string().max(1024),
  paramsQuery: z.string().max(100_000),
  stopBy: z.enum(['iterations', 'duration']),
  iterations: z.string().max(32),
  duration: z.string().max(32),
  threads: z.string().max(200),
  thinkTime: z.string().max(32),
  queryTimeout: z.string().max(32),
  /** Which parameter row each call takes, and whose cursor it is (as --params-order / --params-scope). */
  paramsOrder: z.enum(['round-robin', 'random']).default('round-robin'),
  paramsScope: z.enum(['session', 'shared']).default('session'),
  /** End the run at the first failing call (as --stop-on-error); otherwise failures are counted and the run goes on. */
  stopOnError: z.boolean().default(false),
});
export type CustomForm = z.infer<typeof customFormSchema>;

export const CUSTOM_FORM_DEFAULTS: CustomForm = {
  sql: '',
  sqlFile: '',
  database: '',
  paramsSource: 'none',
  paramsCsv: '',
  paramsQuery: '',
  stopBy: 'iterations',
  iterations: '50',
  duration: '30s',
  threads: '1,2,4',
  thinkTime: '0ms',
  queryTimeout: '',
  paramsOrder: 'round-robin',
  paramsScope: 'session',
  stopOnError: false,
};

/** The T-SQL a "Load Test This Query" command hands the panel (the selection, or the whole file). */
export const customFillSchema = z.object({ sql: z.string().max(1_000_000), source: z.string().max(1024) });
export type CustomFill = z.infer<typeof customFillSchema>;

// SQL Server identifiers are at most 128 characters; ']' is escaped by the engine when it brackets the name.
const MAX_DB_NAME = 128;

function problem(f: () => unknown): string | null {
  try {
    f();
    return null;
  } catch (e) {
    return e instanceof ParamError ? e.problems.join('; ') : (e as Error).message;
  }
}

/** Every problem with the form, by field; empty when it can run. */
export function checkCustomForm(f: CustomForm): Record<string, string> {
  const errors: Record<string, string> = {};
  const sqlFile = f.sqlFile.trim();
  if (!sqlFile && stripComments(f.sql).trim() === '') errors.sql = 'Type the T-SQL to run (e.g. SELECT 1), or pick a .sql file.';
  if (sqlFile && !/\.sql$/i.test(sqlFile))
    errors.sqlFile = `"${sqlFile}" is not a .sql file: pick a file ending in .sql, or clear it to use the text.`;
  const db = f.database.trim();
  if (db === '') errors.database = 'Name the database the workload runs in (e.g. AdventureWorks).';
  else if (db.length > MAX_DB_NAME) errors.database = `A database name has at most ${MAX_DB_NAME} characters.`;
  if (f.paramsSource === 'csv' && !/\.csv$/i.test(f.paramsCsv.trim()))
    errors.paramsCsv = 'Give the path of a .csv file whose header names the variables (without @).';
  if (f.paramsSource === 'query' && f.paramsQuery.trim() === '')
    errors.paramsQuery = 'Type the query whose columns give the parameter values, e.g. SELECT id FROM dbo.Orders.';
  // The selects offer only these; a value from elsewhere (a stale saved draft) is named rather than sent.
  if (!['round-robin', 'random'].includes(f.paramsOrder)) errors.paramsOrder = `Row order "${f.paramsOrder}": pick round robin or random.`;
  if (!['session', 'shared'].includes(f.paramsScope))
    errors.paramsScope = `Rows per "${f.paramsScope}": pick per session or shared by all sessions.`;
  if (f.stopBy === 'iterations') {
    const t = f.iterations.trim();
    if (!/^\d+$/.test(t) || Number(t) < 1 || !Number.isSafeInteger(Number(t)))
      errors.iterations = `Iterations "${f.iterations}": write a whole number of 1 or more (calls per session).`;
  } else {
    const p = problem(() => parseDuration(f.duration));
    if (p) errors.duration = `Duration: ${p}`;
  }
  const t = problem(() => parseThreadList(f.threads));
  if (t) errors.threads = `Threads: ${t}`;
  const think = problem(() => parseDuration(f.thinkTime.trim() || '0ms', { allowZero: true }));
  if (think) errors.thinkTime = `Think time: ${think}`;
  if (f.queryTimeout.trim()) {
    const q = problem(() => parseDuration(f.queryTimeout));
    if (q) errors.queryTimeout = `Query timeout: ${q} (or leave it empty for none)`;
  }
  return errors;
}

/** The text with -- and /* *\/ comments removed (enough to tell an empty editor from a batch). */
function stripComments(s: string): string {
  return s.replace(/\/\*[\s\S]*?\*\//g, '').replace(/--[^\n]*/g, '');
}
