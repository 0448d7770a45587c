// Recognises the product's statements: every batch of every file under sql/ is indexed by its exact normalised text
// (what the engine sends) -> (file id, batch index), and each file id has one handler per batch, registered in
// handlers/. A unit test checks every batch has one, so a changed sql/ file fails the tests until the simulator
// follows.
import { listSqlFiles, loadSqlFile, normaliseSql } from '../../../src/db/sqlFiles';
import type { ResponseItem, SessionContext, Value } from '../tds/contract';
import type { SimModel } from './instance';
import type { QueryContext } from './types';

export interface BatchCall extends QueryContext {
  model: SimModel;
  session: SessionContext;
  /** sp_executesql parameters by lower-case name with the @. */
  params: Map<string, Value>;
  /** sp_executesql's / sp_prepare's parameter definitions ('@db sysname, @n int'), as they arrived. */
  paramDefs?: string;
  signal: AbortSignal;
  text: string;
}

export type BatchHandler = (call: BatchCall) => Promise<ResponseItem[]> | ResponseItem[];

export interface StatementRef {
  fileId: string;
  batch: number;
  hasParameters: boolean;
}

let index: Map<string, StatementRef> | null = null;

export function statementIndex(): Map<string, StatementRef> {
  if (index) return index;
  index = new Map();
  for (const id of listSqlFiles()) {
    const f = loadSqlFile(id);
    f.batches.forEach((b, i) => index!.set(normaliseSql(b), { fileId: id, batch: i, hasParameters: f.parameters !== '' }));
  }
  return index;
}

export function recognise(text: string): StatementRef | undefined {
  return statementIndex().get(normaliseSql(text));
}
