// What a session's statements cost the simulated server, charged to the session (sys.dm_exec_sessions serves it) and
// to the SQL Statistics counters: CPU, logical reads and tempdb page writes per statement (synthetic, per row and per
// page), and the plans of statements over #temp tables, which compile once per session and recompile as SQL Server's
// rules say (Query Processing Architecture Guide, "Recompilation thresholds"): a #temp table's statistics are stale
// once its row modifications since they were taken reach 6 (fewer than 6 rows then), 500 (up to 500 rows) or
// 500 + 20% of its rows; the next statement over it without OPTION (KEEPFIXED PLAN) updates them and recompiles, and
// so does every other such statement whose plan used the older statistics. KEEPFIXED PLAN skips the check entirely
// (Query hints: "recompiles only if the schema of the underlying tables changes"). Numbers are synthetic.
import type { SessionContext } from '../tds/contract';
import { sessionCost } from './custom';
import type { SimModel } from './instance';
import type { TempTable } from './tempstore';

/** Synthetic costs: CPU per statement and per row, rows per 8 KB page, and a (re)compile's and a statistics update's CPU. */
export const COST = { statementMs: 0.02, rowMs: 0.002, rowsPerPage: 50, compileMs: 1.5, statsUpdateMs: 0.8 } as const;

/** Modifications after which a #temp table's statistics are stale, for the rows it had when they were taken. */
export function recompileThreshold(rows: number): number {
  return rows < 6 ? 6 : rows <= 500 ? 500 : 500 + 0.2 * rows;
}

export interface SessionCharge {
  cpuMs?: number;
  logicalReads?: number;
  writes?: number;
}

/** Adds to the session's figures; scheduled time follows CPU (a monitor statement barely waits). */
export function charge(model: SimModel, session: SessionContext, k: SessionCharge): void {
  const c = sessionCost(model, session.spid);
  const cpu = k.cpuMs ?? 0;
  c.cpuMs += cpu;
  c.scheduledMs += cpu * 1.1;
  c.logicalReads += k.logicalReads ?? 0;
  c.writes += k.writes ?? 0;
}

export const pages = (rows: number): number => Math.ceil(rows / COST.rowsPerPage);

/** The compiled statements of each session: the statistics versions of the #temp tables each plan was built on. */
const plans = new WeakMap<SessionContext, Map<string, Map<string, number>>>();

export interface PlanUse {
  tables: TempTable[];
  keepFixed: boolean;
}

/**
 * Runs the plan checks of one statement over #temp tables before it executes: compiles it on first use in the
 * session, and otherwise recompiles it when its statistics are stale (updating them) or newer than its plan, unless
 * KEEPFIXED PLAN. Returns whether it recompiled.
 */
export function usePlan(model: SimModel, session: SessionContext, code: string, use: PlanUse): 'compiled' | 'recompiled' | 'cached' {
  let perSession = plans.get(session);
  if (!perSession) plans.set(session, (perSession = new Map()));
  const plan = perSession.get(code);
  const snapshot = () => new Map(use.tables.map((t) => [t.name.toLowerCase(), t.stats.version]));
  const compile = () => {
    model.counters.compilations++;
    charge(model, session, { cpuMs: COST.compileMs, logicalReads: 10 });
  };
  if (!plan) {
    for (const t of use.tables) t.stats.rowsAtStats ??= t.rows.length; // auto-created on the first compile that reads it
    compile();
    perSession.set(code, snapshot());
    return 'compiled';
  }
  if (use.keepFixed) return 'cached';
  let stale = false;
  for (const t of use.tables) {
    const s = t.stats;
    if (s.rowsAtStats !== undefined && s.modifications >= recompileThreshold(s.rowsAtStats)) {
      s.version++;
      s.modifications = 0;
      s.rowsAtStats = t.rows.length;
      charge(model, session, { cpuMs: COST.statsUpdateMs, logicalReads: 1 + pages(t.rows.length) });
    }
    if (plan.get(t.name.toLowerCase()) !== s.version) stale = true;
  }
  if (!stale) return 'cached';
  model.counters.recompilations++;
  compile();
  perSession.set(code, snapshot());
  return 'recompiled';
}

/** True when the statement carries OPTION (... KEEPFIXED PLAN ...). */
export function hasKeepFixed(code: string): boolean {
  return /\bOPTION\s*\([^)]*\bKEEPFIXED\s+PLAN\b[^)]*\)\s*$/i.test(code);
}
