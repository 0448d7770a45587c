// What one call of a stored procedure does, read from its stored body (body.ts) and the catalog, never from its name:
// the table it writes (memory-optimized or not, its durability), native or interpreted, the rows each transaction
// holds (the count loops inside BEGIN TRANSACTION ... COMMIT or BEGIN ATOMIC), whether a server loop bounded by a row
// count and a run time surrounds them, where slot numbers come from (NEXT VALUE FOR, or an IDENTITY table read by
// SCOPE_IDENTITY()), and what it returns. A body this does not understand fails with BodyError.
import type { Lex } from '../../grammar/lex';
import type { Database, SimModel, SimObject } from '../instance';
import { BodyError, Node, readProcedure } from './body';

/** A loop bound or an EXEC argument: a parameter of the called procedure, or a number. */
export type Bound = { param: string } | { literal: number };

export interface Unit {
  table: SimObject;
  operation: 'insert' | 'push';
  native: boolean;
  slotSource: 'none' | 'sequence' | 'identity';
  rowsPerTxn: Bound[];
  /** Count loops around the transaction: how many transactions one call runs. */
  txnsPerCall: Bound[];
  /** IF @param = 'value' conditions the unit runs under (negated for ELSE). */
  guards: { param: string; value: string; neg: boolean }[];
}

export interface ProcPlan {
  units: Unit[];
  server?: { rows?: string; durationMs?: string };
  result?: { column: string; type: string };
  outputs: { name: string; type: string }[];
}

const low = (t: Lex | undefined) => (t ? t.v.toLowerCase() : '');
const isW = (t: Lex | undefined, w: string) => t?.k === 'word' && low(t) === w;
const isO = (t: Lex | undefined, v: string) => t?.k === 'op' && t.v === v;

/** A dotted name starting at toks[i]: 'dbo.t' (and the index after it). */
function nameAt(toks: Lex[], i: number): [string, number] {
  const parts: string[] = [];
  while (toks[i] && (toks[i].k === 'word' || toks[i].k === 'qname')) {
    parts.push(toks[i].v);
    i++;
    if (!isO(toks[i], '.')) break;
    i++;
  }
  return [parts.join('.'), i];
}

interface Ctx {
  inTxn: boolean;
  txnLoops: Bound[];
  outerLoops: Bound[];
  guards: Unit['guards'];
  /** Maps the procedure's own parameters to the caller's bounds (EXEC arguments). */
  bind: (b: Bound) => Bound;
  depth: number;
}

class Planner {
  readonly units: Unit[] = [];
  server?: ProcPlan['server'];
  constructor(
    private readonly model: SimModel,
    private readonly db: Database,
  ) {}

  proc(obj: SimObject, ctx: Ctx): { declares: Lex[][]; body: Node } {
    const text = readProcedure(obj.meta?.body ?? '');
    const params = new Set((obj.params ?? []).map((p) => p.name));
    const stmts: Lex[][] = [];
    const collect = (n: Node): void => {
      if (n.n === 'stmt') stmts.push(n.toks);
      else if (n.n === 'block') n.body.forEach(collect);
      else if (n.n === 'while') collect(n.body);
      else if (n.n === 'if') [n.then, n.else].forEach((x) => x && collect(x));
      else if (n.n === 'try') [...n.body, ...n.handler].forEach(collect);
    };
    collect(text.body);
    const all = stmts.flat();
    const seq = all.findIndex((t, i) => isW(t, 'next') && isW(all[i + 1], 'value') && isW(all[i + 2], 'for'));
    const generator = this.identityGenerator(stmts, all);
    const info: ProcInfo = {
      native: text.native,
      params,
      slotSource: seq >= 0 ? this.sequence(all, seq + 3) : generator ? 'identity' : 'none',
      generator,
      declares: stmts.filter((s) => isW(s[0], 'declare')),
    };
    this.walk(text.body, info, ctx);
    return { declares: info.declares, body: text.body };
  }

  private sequence(all: Lex[], i: number): 'sequence' {
    const [name] = nameAt(all, i);
    if (this.model.findObject(this.db, name)?.type !== 'SO') throw new BodyError(`Invalid object name '${name}'.`);
    return 'sequence';
  }

  /** INSERT INTO t DEFAULT VALUES into an IDENTITY table whose value SCOPE_IDENTITY() reads: a slot-number source. */
  private identityGenerator(stmts: Lex[][], all: Lex[]): string | undefined {
    if (!all.some((t) => isW(t, 'scope_identity'))) return undefined;
    for (const s of stmts) {
      if (!isW(s[0], 'insert')) continue;
      const [name, after] = nameAt(s, isW(s[1], 'into') ? 2 : 1);
      if (!isW(s[after], 'default')) continue;
      const t = this.model.findObject(this.db, name);
      if (t?.type === 'U' && t.meta?.identity) return name.toLowerCase();
    }
    throw new BodyError('SCOPE_IDENTITY() without an INSERT into an IDENTITY table');
  }

  private walk(n: Node, p: ProcInfo, ctx: Ctx): void {
    switch (n.n) {
      case 'block': {
        let c = n.atomic ? { ...ctx, inTxn: true } : ctx;
        for (const x of n.body) {
          if (x.n === 'begin-tran') c = { ...c, inTxn: true };
          else if (x.n === 'commit') c = { ...c, inTxn: ctx.inTxn };
          else this.walk(x, p, c);
        }
        return;
      }
      case 'begin-tran':
      case 'commit':
        throw new BodyError('a transaction that does not begin and end in one block');
      case 'while':
        return this.loop(n.cond, n.body, p, ctx);
      case 'if': {
        const before = this.units.length;
        const g = guardOf(n.cond, p.params);
        const bindGuard = (neg: boolean) => (g ? [...ctx.guards, { ...g, neg, param: paramOf(ctx.bind({ param: g.param })) }] : ctx.guards);
        this.walk(n.then, p, { ...ctx, guards: bindGuard(false) });
        if (n.else) this.walk(n.else, p, { ...ctx, guards: bindGuard(true) });
        if (!g && this.units.length > before) throw new BodyError('a write under a condition the analysis does not read');
        return;
      }
      case 'try': {
        n.body.forEach((x) => this.walk(x, p, ctx));
        const before = this.units.length;
        n.handler.forEach((x) => this.walk(x, p, ctx));
        if (this.units.length > before) throw new BodyError('a write in a CATCH block');
        return;
      }
      case 'stmt':
        return this.statement(n.toks, p, ctx);
    }
  }

  private loop(cond: Lex[], body: Node, p: ProcInfo, ctx: Ctx): void {
    const vars = cond.filter((t) => t.k === 'var').map(low);
    const timed = cond.some((t) => isW(t, 'sysutcdatetime') || isW(t, 'sysdatetime') || isW(t, 'getdate'));
    const optional = vars.filter((v) => p.params.has(v) && cond.some((t, k) => low(t) === v && isW(cond[k + 1], 'is')));
    if (timed || optional.length > 0) {
      if (ctx.depth > 0 || ctx.inTxn || this.server) throw new BodyError('a server loop inside another loop or transaction');
      const rows = optional.find((v) => cond.some((t, k) => isO(t, '<') && low(cond[k + 1]) === v));
      this.server = { rows, durationMs: timed ? this.duration(cond, p) : undefined };
      return this.walk(body, p, { ...ctx });
    }
    // A retry loop (WHILE @done_flag = 0 AND @tries < n): it stops at the first success, one operation.
    const retry = cond.some((t, k) => t.k === 'var' && isO(cond[k + 1], '=') && cond[k + 2]?.v === '0');
    if (retry) return this.walk(body, p, ctx);
    // A count loop: WHILE @j < @bound (or a number), the bound read from the call.
    const lt = cond.filter((t) => !isO(t, '(') && !isO(t, ')'));
    if (lt.length !== 3 || lt[0].k !== 'var' || !isO(lt[1], '<')) throw new BodyError('a loop the analysis does not read');
    const b: Bound =
      lt[2].k === 'num'
        ? { literal: Number(lt[2].v) }
        : p.params.has(low(lt[2]))
          ? ctx.bind({ param: low(lt[2]) })
          : fail('a loop bounded by a local variable');
    const c = ctx.inTxn ? { ...ctx, txnLoops: [...ctx.txnLoops, b] } : { ...ctx, outerLoops: [...ctx.outerLoops, b] };
    this.walk(body, p, c);
  }

  /** The run time: the parameter DATEADD(millisecond, @p, ...) reads in the declaration of the stop variable. */
  private duration(cond: Lex[], p: ProcInfo): string | undefined {
    const k0 = cond.findIndex((t) => isW(t, 'sysutcdatetime') || isW(t, 'sysdatetime') || isW(t, 'getdate'));
    const stop = isO(cond[k0 + 3], '<') ? cond[k0 + 4] : undefined;
    for (const d of p.declares) {
      const at = d.findIndex((t) => t.k === 'var' && low(t) === low(stop));
      if (at < 0) continue;
      const k = d.findIndex((t, j) => j > at && isW(t, 'dateadd'));
      if (k < 0 || !isW(d[k + 2], 'millisecond') || d[k + 4]?.k !== 'var') throw new BodyError('a run time not in milliseconds');
      return low(d[k + 4]);
    }
    throw new BodyError('a time bound without its declaration');
  }

  private statement(s: Lex[], p: ProcInfo, ctx: Ctx): void {
    const w = low(s[0]);
    if (w === 'exec' || w === 'execute') return this.exec(s, ctx);
    if (w !== 'insert' && w !== 'update' && w !== 'delete') return;
    const [name] = nameAt(s, isW(s[1], 'into') || isW(s[1], 'from') ? 2 : 1);
    if (name.startsWith('#') || name.startsWith('@')) throw new BodyError('a write to a temporary table');
    if (p.generator === name.toLowerCase()) return; // the slot-number source, part of the operation
    if (w === 'delete') throw new BodyError(`a DELETE from ${name}`);
    const table = this.model.findObject(this.db, name);
    if (table?.type !== 'U') throw new BodyError(`Invalid object name '${name}'.`);
    if (w === 'update' && p.slotSource === 'none') throw new BodyError('an UPDATE without a slot number source');
    this.units.push({
      table,
      operation: w === 'insert' ? 'insert' : 'push',
      native: p.native,
      slotSource: w === 'insert' ? 'none' : p.slotSource,
      rowsPerTxn: ctx.inTxn ? ctx.txnLoops : [],
      txnsPerCall: ctx.inTxn ? ctx.outerLoops : [...ctx.outerLoops, ...ctx.txnLoops],
      guards: ctx.guards,
    });
  }

  /** EXEC [@r =] proc @name = value, ...: the callee's body, its parameters bound to the caller's values. */
  private exec(s: Lex[], ctx: Ctx): void {
    let i = 1;
    if (s[i]?.k === 'var' && isO(s[i + 1], '=')) i += 2;
    const [name, after] = nameAt(s, i);
    const callee = this.model.findObject(this.db, name);
    if (callee?.type !== 'P' || !callee.meta?.body) throw new BodyError(`Could not find stored procedure '${name}'.`);
    if (ctx.depth >= 32) throw new BodyError('procedures nested more than 32 levels');
    const args = new Map<string, Bound>();
    const defs = callee.params ?? [];
    let pos = 0;
    for (let k = after; k < s.length; k++) {
      let pname = defs[pos]?.name;
      if (s[k].k === 'var' && isO(s[k + 1], '=')) {
        pname = low(s[k]);
        k += 2;
      }
      const v = s[k];
      if (pname && v?.k === 'num') args.set(pname, { literal: Number(v.v) });
      else if (pname && v?.k === 'var') args.set(pname, { param: low(v) });
      while (k < s.length && !isO(s[k], ',')) k++;
      pos++;
    }
    const bind = (b: Bound): Bound => ('param' in b ? ctx.bind(args.get(b.param) ?? { literal: NaN }) : b);
    this.proc(callee, { ...ctx, bind, depth: ctx.depth + 1 });
  }
}

interface ProcInfo {
  native: boolean;
  params: Set<string>;
  slotSource: Unit['slotSource'];
  generator?: string;
  declares: Lex[][];
}

function fail(why: string): never {
  throw new BodyError(why);
}

const paramOf = (b: Bound): string => ('param' in b ? b.param : fail('a condition on a value the caller does not pass'));

/** IF @param = N'value': a condition on what the caller passed; null for any other condition. */
function guardOf(cond: Lex[], params: Set<string>): { param: string; value: string } | null {
  if (
    cond.length === 3 &&
    cond[0].k === 'var' &&
    params.has(low(cond[0])) &&
    isO(cond[1], '=') &&
    (cond[2].k === 'str' || cond[2].k === 'num')
  )
    return { param: low(cond[0]), value: cond[2].v };
  return null;
}

/** The plan of one call of obj; throws BodyError when its body is not understood. */
export function planProcedure(model: SimModel, db: Database, obj: SimObject): ProcPlan {
  const planner = new Planner(model, db);
  const top = planner.proc(obj, { inTxn: false, txnLoops: [], outerLoops: [], guards: [], bind: (b) => b, depth: 0 });
  if (planner.units.length === 0) throw new BodyError('no INSERT or UPDATE of a table');
  const plan: ProcPlan = { units: planner.units, server: planner.server, outputs: [] };
  // What it returns: SELECT @v AS name as its last statement, and the OUTPUT parameters it sets.
  const last = top.body.n === 'block' ? lastStmt(top.body) : undefined;
  if (last && isW(last[0], 'select') && last[1]?.k === 'var' && isW(last[2], 'as')) {
    const v = low(last[1]);
    const decl = top.declares.flat();
    const at = decl.findIndex((t) => t.k === 'var' && low(t) === v);
    plan.result = { column: last[3].v, type: at >= 0 ? low(decl[at + 1]) : 'bigint' };
  }
  for (const d of obj.params ?? []) if (d.output) plan.outputs.push({ name: d.name, type: d.type });
  return plan;
}

function lastStmt(b: Extract<Node, { n: 'block' }>): Lex[] | undefined {
  const x = b.body[b.body.length - 1];
  if (!x) return undefined;
  if (x.n === 'stmt') return x.toks;
  return x.n === 'block' ? lastStmt(x) : undefined;
}
