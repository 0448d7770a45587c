// A call of a procedure the model holds (deployed by the lab's DDL): one function for an RPC from the wire and an EXEC
// in a batch, so both bind arguments and answer a missing procedure the same way.
import type { ResponseItem, RpcParam, SessionContext } from '../tds/contract';
import { err } from './errors';
import type { SimModel } from './instance';
import { bindParameters } from './params';

export async function callModelProcedure(
  model: SimModel,
  session: SessionContext,
  procName: string,
  params: RpcParam[],
  signal: AbortSignal,
): Promise<ResponseItem[]> {
  const fault = model.procedureFault(procName);
  if (fault) return [fault];
  const parts = procName.replace(/[[\]]/g, '').split('.');
  const dbName = parts.length === 3 ? parts[0] : session.database;
  const name = parts.slice(-2).join('.');
  const db = model.database(dbName);
  const obj = db ? model.findObject(db, name) : undefined;
  if (!db || !obj || obj.type !== 'P' || !obj.run) return [err(2812, `Could not find stored procedure '${procName}'.`, 16, 62)];
  // Values sent without names bind by position to the declared parameters, as SQL Server binds them.
  const map = obj.params ? bindParameters(procName, obj.params, params) : new Map(params.map((p) => [p.name.toLowerCase(), p]));
  return obj.run({ model, session, db, params: map, signal });
}
