// The system procedures the product's batches call, built into the simulator over the model's state: application
// locks (applocks.ts) and database extended properties. Each takes its arguments bound by SQL Server's rules
// (params.ts) and answers its return status; sp_executesql runs in procs.ts, since it executes T-SQL.
import type { ResponseItem, RpcParam, Value } from '../../tds/contract';
import { getAppLock, releaseAppLock } from '../applocks';
import { err, SqlError, unsupported } from '../errors';
import { bindParameters, ParamDef } from '../params';
import type { ExecContext } from './context';

export interface SysProc {
  params: ParamDef[];
  run(ctx: ExecContext, args: Map<string, RpcParam>, out: ResponseItem[]): Promise<number> | number;
}

const def = (name: string, hasDefault = true): ParamDef => ({ name, type: 'sql_variant', output: false, hasDefault });
const str = (a: Map<string, RpcParam>, n: string): string | null => {
  const v: Value | undefined = a.get(n)?.value;
  return v === null || v === undefined ? null : String(v);
};

const SYSTEM_PROCS: Record<string, SysProc> = {
  // docs: sp_getapplock: 0 granted, 1 granted after waiting, -1 timeout, -2 cancelled, -3 deadlock, -999 invalid call.
  sp_getapplock: {
    params: [def('@resource', false), def('@lockmode', false), def('@lockowner'), def('@locktimeout'), def('@dbprincipal')],
    async run(ctx, a, out) {
      const t = a.get('@locktimeout')?.value;
      const r = await getAppLock(
        ctx.model,
        ctx.session,
        {
          resource: str(a, '@resource'),
          mode: str(a, '@lockmode'),
          owner: str(a, '@lockowner') ?? 'Transaction',
          timeoutMs: t === undefined || t === null ? null : Number(t),
          principal: str(a, '@dbprincipal'),
        },
        ctx.signal,
      );
      out.push(...r.messages);
      return r.result;
    },
  },
  sp_releaseapplock: {
    params: [def('@resource', false), def('@lockowner'), def('@dbprincipal')],
    run(ctx, a, out) {
      const r = releaseAppLock(ctx.model, ctx.session, {
        resource: str(a, '@resource'),
        owner: str(a, '@lockowner') ?? 'Transaction',
        principal: str(a, '@dbprincipal'),
      });
      out.push(...r.messages);
      return r.result;
    },
  },
  // A database-level property only (no @level0type): the lab's mark.
  sp_addextendedproperty: {
    params: [def('@name', false), def('@value'), ...['0', '1', '2'].flatMap((l) => [def(`@level${l}type`), def(`@level${l}name`)])],
    run(ctx, a) {
      const name = str(a, '@name') ?? '';
      if ([...a.keys()].some((k) => k.startsWith('@level') && a.get(k)?.value !== null))
        throw new SqlError([unsupported('sp_addextendedproperty below the database level')]);
      const db = ctx.model.database(ctx.session.database);
      if (!db) return 1;
      if (db.properties.has(name))
        throw new SqlError([err(15233, `Property cannot be added. Property '${name}' already exists for '${db.name}'.`, 16, 1)]);
      db.properties.set(name, str(a, '@value') ?? '');
      return 0;
    },
  },
};

/** The built-in procedure a name calls (sp_x, sys.sp_x, master.sys.sp_x, dbo.sp_x), if any. */
export function systemProc(name: string): { proc?: SysProc; short: string } | undefined {
  const parts = name.replace(/[[\]]/g, '').toLowerCase().split('.');
  const short = parts[parts.length - 1];
  const schema = parts.length > 1 ? parts[parts.length - 2] : 'sys';
  if (!['sys', 'dbo', ''].includes(schema)) return undefined;
  // sp_executesql has no entry: it runs T-SQL, which procs.ts does.
  if (short === 'sp_executesql') return { short };
  const proc = SYSTEM_PROCS[short];
  return proc ? { proc, short } : undefined;
}

export function bindSystem(short: string, proc: SysProc, args: RpcParam[]): Map<string, RpcParam> {
  return bindParameters(short, proc.params, args);
}
