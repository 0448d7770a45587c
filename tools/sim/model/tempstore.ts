// Local temporary tables (#name): created by a session, seen only by it, dropped when it ends or is reset
// (sp_reset_connection), as SQL Server keeps them in tempdb. Kept in the per-connection session state (sessionState.ts).
import type { Column, SessionContext, Value } from '../tds/contract';
import { sessionState } from './sessionState';
import { err, SqlError } from './errors';
import type { SystemView } from './types';

/** A #temp table's statistics (model/planCost.ts) and its row modifications since they were taken (SQL Server's colmodctr). */
export interface TempStats {
  modifications: number;
  /** Rows when the statistics were taken; undefined before any plan read the table (auto-created on first compile). */
  rowsAtStats?: number;
  version: number;
}

export interface TempTable {
  /** As created ('#spinlab_spin'); looked up case-insensitively. */
  name: string;
  columns: Column[];
  rows: Value[][];
  /** Its statistics and row modifications since, for the recompile rules (model/planCost.ts). */
  stats: TempStats;
}

export function tempTables(session: SessionContext): Map<string, TempTable> {
  return sessionState(session).tempTables;
}

export function findTemp(session: SessionContext, name: string): TempTable | undefined {
  return tempTables(session).get(name.toLowerCase());
}

/** The table, or Msg 208 as SQL Server gives for a #table this session does not have. */
export function requireTemp(session: SessionContext, name: string): TempTable {
  const t = findTemp(session, name);
  if (!t) throw new SqlError([err(208, `Invalid object name '${name}'.`, 16, 0)]);
  return t;
}

/** A #table as a FROM source of the mini SELECT engine (anyone may read their own #tables). */
export function tempView(session: SessionContext, name: string): SystemView {
  const t = requireTemp(session, name);
  return { name: t.name, scope: 'public', columns: () => t.columns, rows: () => t.rows.map((r) => [...r]) };
}
