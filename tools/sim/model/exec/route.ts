// Which batches the executor runs whole. SQL Server parses a batch before running any of it, and so does the
// executor: a batch that parses, and sets no option the executor does not run, goes to it as it arrived. Nothing here
// knows where a batch came from: the decision is made from its text alone. What does not parse is left to the session
// layer's statement-by-statement path (session/), which refuses clearly what the simulator does not implement.
import { parseBatch } from '../ddl/parse';
import type { Stmt } from './ast';
import { ON_OFF_OPTIONS } from './options';
import { systemProc } from './sysprocs';

/** Parsed batches by text: a client sends the same few batches again and again (a tick, a workload call). */
const cache = new Map<string, Stmt[] | null>();
const CACHE_LIMIT = 512;

/** Every statement of the tree, nested ones (blocks, IF, WHILE, TRY) included. */
function* statements(list: readonly Stmt[]): Generator<Stmt> {
  for (const s of list) {
    yield s;
    if (s.kind === 'block') yield* statements(s.body);
    else if (s.kind === 'if') yield* statements(s.else ? [s.then, s.else] : [s.then]);
    else if (s.kind === 'while') yield* statements([s.body]);
    else if (s.kind === 'try') yield* statements([...s.body, ...s.catch]);
  }
}

/** The batch's statements when the executor runs it whole, or null (it does not parse, or sets an option it leaves). */
export function executorBatch(text: string): Stmt[] | null {
  if (cache.has(text)) return cache.get(text)!;
  let stmts: Stmt[] | null;
  try {
    stmts = parseBatch(text);
    for (const s of statements(stmts)) {
      if (s.kind === 'setopt' && s.names.some((n) => !ON_OFF_OPTIONS.has(n))) stmts = null;
      // A system procedure the executor does not run (sp_prepare, sp_execute...): the session layer has it.
      if (s.kind === 'exec' && /^(sp|xp)_/i.test(s.proc.replace(/[[\]]/g, '').split('.').pop() ?? '') && !systemProc(s.proc)) stmts = null;
    }
  } catch {
    stmts = null;
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(text, stmts);
  return stmts;
}

/** Whether `test` holds for any node of the tree, visited parent first (a statement, a query, an expression...). */
function someNode(x: unknown, test: (o: Record<string, unknown>) => boolean): boolean {
  if (Array.isArray(x)) return x.some((y) => someNode(y, test));
  if (!x || typeof x !== 'object') return false;
  const o = x as Record<string, unknown>;
  return test(o) || Object.values(o).some((y) => someNode(y, test));
}

/** Whether the batch reads one of the named views anywhere in its tree (a FROM, a join, a subquery, a CTE). */
export function readsView(stmts: readonly Stmt[], names: readonly string[]): boolean {
  const key = names.join('\u0000');
  let known = viewsRead.get(stmts);
  if (!known) viewsRead.set(stmts, (known = new Map()));
  let r = known.get(key);
  if (r === undefined) known.set(key, (r = findView(stmts, names)));
  return r;
}

/** By parsed batch (the parse cache hands out the same array for the same text): each answer is found once. */
const viewsRead = new WeakMap<readonly Stmt[], Map<string, boolean>>();
const workload = new WeakMap<readonly Stmt[], boolean>();

function findView(stmts: readonly Stmt[], names: readonly string[]): boolean {
  const want = new Set(names.map((n) => n.toLowerCase()));
  return someNode(stmts, (o) => o.kind === 'named' && typeof o.name === 'string' && want.has(o.name.toLowerCase().replace(/[[\]]/g, '')));
}

/**
 * Whether the batch is workload rather than a look at the server: it names an object outside sys and
 * INFORMATION_SCHEMA (a user table, a procedure), calls a procedure, or waits. Only workload is paced by --noise.
 */
export function isWorkload(stmts: readonly Stmt[]): boolean {
  let r = workload.get(stmts);
  if (r === undefined) workload.set(stmts, (r = findWorkload(stmts)));
  return r;
}

function findWorkload(stmts: readonly Stmt[]): boolean {
  const system = (n: string) =>
    /^(\[?(master|msdb|tempdb)\]?\.)?\[?(sys|information_schema)\]?\./i.test(n) || n.startsWith('#') || n.startsWith('@');
  // A query's CTEs are seen before its body (parent first), so a CTE's name is known before it is read.
  const ctes = new Set<string>();
  return someNode(stmts, (o) => {
    if (Array.isArray(o.ctes)) for (const c of o.ctes as { name: string }[]) ctes.add(c.name.toLowerCase());
    if (o.kind === 'waitfor') return true;
    if ((o.kind === 'insert' || o.kind === 'delete' || o.kind === 'truncate') && typeof o.table === 'string' && !system(o.table))
      return true;
    if (o.kind === 'exec' && typeof o.proc === 'string' && !/^(\[?(master|sys|dbo)\]?\.)*\[?sp_/i.test(o.proc)) return true;
    return o.kind === 'named' && typeof o.name === 'string' && !system(o.name) && !ctes.has(o.name.toLowerCase());
  });
}
