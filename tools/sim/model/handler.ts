// The SimHandler the wire layer calls: logins, batches and RPCs. A batch runs through the executor (exec/) as it
// arrived, decided from its text alone; an RPC calls a system or deployed procedure. What the executor does not
// implement gets an ERROR saying so, with SQL Server's number where SQL Server has one.
import type { LoginRequest, LoginResult, ResponseItem, RpcParam, SessionContext, SimHandler, Value } from '../tds/contract';
import { err, SqlError, unsupported } from './errors';
import { ModelFaults } from './faults';
import type { SimModel } from './instance';
import { findSyntaxError, syntaxErrorMessage } from '../grammar/tsql';
import { lex } from '../grammar/lex';
import { checkNativeModule } from '../grammar/native';
import type { BatchCall } from './batchCall';
import { asCall, chargeOwnWaits, dropSessionCost, runCustomBatch, sessionCost } from './custom';
import { callModelProcedure } from './procedures';
import { noteDatabaseChange } from './holds';
import { endSessionLocks } from './applocks';
import { executeBatch } from './exec/batch';
import { procedureNotFirst } from './ddl/parse';
import { executorBatch, isWorkload, readsView } from './exec/route';
import type { Stmt } from './exec/ast';
import { charge } from './planCost';

export class ModelHandler implements SimHandler {
  readonly faults = new ModelFaults();
  constructor(readonly model: SimModel) {
    model.onAdvanced = (members, rates, dt) => chargeOwnWaits(model, members, rates, dt);
    model.cpuUsedMs = (spid) => sessionCost(model, spid).cpuMs;
    model.procedureFault = (name) => this.faults.take(name.replace(/[[\]]/g, '').split('.').slice(-2).join('.'));
  }

  login(req: LoginRequest): LoginResult {
    const refused = this.faults.takeLogin(req.database || 'master');
    if (refused) return { ok: false, error: refused };
    const l = this.model.login(req.userName, req.password);
    // State 1 on the wire whatever the reason: SQL Server writes the real state (8: wrong password) to its error log only.
    if (!l) return { ok: false, error: err(18456, `Login failed for user '${req.userName}'.`, 14, 1) };
    const db = req.database || 'master';
    const found = this.model.database(db);
    // SQL Server sends both: the database it could not open, then the login failure (state 38 in its error log only).
    if (!found)
      return {
        ok: false,
        error: [
          err(4060, `Cannot open database "${db}" requested by the login. The login failed.`, 11, 1),
          err(18456, `Login failed for user '${req.userName}'.`, 14, 1),
        ],
      };
    return { ok: true, database: found.name };
  }

  sessionStarted(s: SessionContext): void {
    this.model.sessionStarted(s.spid, s.login);
  }
  sessionEnded(s: SessionContext): void {
    endSessionLocks(this.model, s);
    this.model.sessionEnded(s.spid);
    dropSessionCost(this.model, s.spid);
  }

  async sqlBatch(session: SessionContext, text: string, signal: AbortSignal): Promise<ResponseItem[]> {
    this.model.counters.batchRequests++;
    return this.guard(() => this.dispatch(session, text, new Map(), signal, false));
  }

  async rpc(session: SessionContext, procName: string, params: RpcParam[], signal: AbortSignal): Promise<ResponseItem[]> {
    this.model.counters.batchRequests++;
    return this.guard(async () => {
      if (procName.toLowerCase() === 'sp_executesql') {
        const stmt = params.find((p) => p.name.toLowerCase() === '@stmt') ?? params[0];
        const rest = new Map<string, Value>();
        const decl = params.find((p, i) => i === 1 && (p.name === '' || p.name.toLowerCase() === '@params'));
        const syntax = findSyntaxError(String(stmt?.value ?? ''), decl?.value == null ? '' : String(decl.value));
        if (syntax) return [syntaxErrorMessage(syntax)];
        params.forEach((p, i) => {
          if (p === stmt || (i === 1 && (p.name === '' || p.name.toLowerCase() === '@params'))) return;
          rest.set(p.name.toLowerCase(), p.value);
        });
        return this.dispatch(session, String(stmt?.value ?? ''), rest, signal, true, decl?.value == null ? '' : String(decl.value));
      }
      return this.callProcedure(session, procName, params, signal);
    });
  }

  private async dispatch(
    session: SessionContext,
    text: string,
    params: Map<string, Value>,
    signal: AbortSignal,
    viaExecuteSql: boolean,
    paramDefs = '',
  ): Promise<ResponseItem[]> {
    // The grammar sees every batch first, as SQL Server's parser does; recognition by text comes after.
    const notFirst = procedureNotFirst(text);
    if (notFirst) return [notFirst];
    const syntax = viaExecuteSql ? null : findSyntaxError(text);
    if (syntax) return [syntaxErrorMessage(syntax)];
    // A test's armed fault for this batch text (the simulator knows no file of the product: the test names the text).
    const armed = this.faults.takeBatch(text);
    if (armed) return [armed];
    const native = checkNativeModule(text, this.model.version);
    if (native) return [native];
    // Everything the executor parses runs whole, from what arrived: the answer is what its statements do.
    const stmts = executorBatch(text);
    if (stmts) return this.execute({ model: this.model, session, params, paramDefs, signal, text }, stmts);
    // A statement of a batch the executor does not run whole (the session layer split it).
    return runCustomBatch(
      {
        model: this.model,
        session,
        params,
        signal,
        adHoc: (st) => this.adHoc(session, st),
      },
      text,
    );
  }

  private execute(call: BatchCall, stmts: Stmt[]): Promise<ResponseItem[]> {
    const { model, session } = call;
    // --watcher-cost-ms makes a monitor expensive: charged to each batch that reads the spinlock statistics, before
    // the batch reads its own session's row.
    if (model.watcherCostMs > 0 && readsView(stmts, ['sys.dm_os_spinlock_stats'])) charge(model, session, { cpuMs: model.watcherCostMs });
    return asCall(call, call.text, isWorkload(stmts), () => executeBatch(call, stmts));
  }

  /**
   * One statement of a batch the executor does not run whole (the session layer splits those): USE, which changes
   * the session's database; anything else is refused as not implemented by the simulator.
   */
  private adHoc(session: SessionContext, text: string): ResponseItem[] {
    const t = lex(text).filter((x) => !(x.k === 'op' && x.v === ';'));
    if (t.length !== 2 || t[0].k !== 'word' || t[0].v.toLowerCase() !== 'use' || (t[1].k !== 'word' && t[1].k !== 'qname'))
      return [unsupported(text)];
    const db = this.model.database(t[1].v);
    if (!db) return [err(911, `Database '${t[1].v}' does not exist. Make sure that the name is entered correctly.`, 16, 1)];
    const old = session.database;
    noteDatabaseChange(this.model, session, old);
    session.database = db.name;
    return [
      { kind: 'database', newName: db.name, oldName: old },
      { kind: 'info', number: 5701, state: 2, class: 0, message: `Changed database context to '${db.name}'.` },
    ];
  }

  private async callProcedure(session: SessionContext, procName: string, params: RpcParam[], signal: AbortSignal): Promise<ResponseItem[]> {
    return callModelProcedure(this.model, session, procName, params, signal);
  }

  private async guard(fn: () => Promise<ResponseItem[]> | ResponseItem[]): Promise<ResponseItem[]> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof SqlError) return e.messages;
      throw e;
    }
  }
}
