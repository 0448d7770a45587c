// sql/lab/lock-*: Spinlock Lab's application locks. The arguments are read from the batch as sent (named arguments,
// literals or the file's parameters), so a file that changes @LockOwner or @LockTimeout is answered as SQL Server
// would answer it; the locks themselves live in ../applocks.ts.
import type { ResponseItem, Value } from '../../tds/contract';
import { appLockMode, appLocks, describeResource, getAppLock, releaseAppLock, SHORT, type AppLockArgs } from '../applocks';
import { SqlError, unsupported } from '../errors';
import type { BatchCall, BatchHandler } from '../statements';
import { cols, T } from '../types';
import { resultSet, strParam } from './util';

/** Splits an argument list on commas outside quotes. */
function splitArgs(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of text) {
    if (ch === "'") quoted = !quoted;
    if (ch === ',' && !quoted) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** A literal (N'..', '..', a number, NULL) or one of the batch's parameters. */
function valueOf(c: BatchCall, text: string): Value {
  const t = text.trim();
  const s = /^N?'((?:[^']|'')*)'$/i.exec(t);
  if (s) return s[1].replace(/''/g, "'");
  if (/^-?\d+$/.test(t)) return Number(t);
  if (/^null$/i.test(t)) return null;
  if (/^@\w+$/.test(t)) return c.params.get(t.toLowerCase()) ?? null;
  throw new SqlError([unsupported(`the argument ${t}`)]);
}

/** The named arguments of the batch's call to `proc` (positional arguments are not modelled). */
function namedArgs(c: BatchCall, proc: string): Map<string, Value> | null {
  const m = new RegExp(`\\b(?:sys\\.)?${proc}\\s+([^;]*);`, 'i').exec(c.text.replace(/--[^\n]*/g, ' '));
  if (!m) return null;
  const args = new Map<string, Value>();
  for (const a of splitArgs(m[1])) {
    const kv = /^@(\w+)\s*=\s*([\s\S]+)$/.exec(a);
    if (!kv) return null;
    args.set(kv[1].toLowerCase(), valueOf(c, kv[2]));
  }
  return args;
}

const str = (v: Value | undefined): string | null => (v === null || v === undefined ? null : String(v));
const resultOf = (result: number, messages: ResponseItem[]): ResponseItem[] => [
  ...messages,
  resultSet(cols([['result', T.int]]), [[result]]),
];

const take: BatchHandler = async (c) => {
  const a = namedArgs(c, 'sp_getapplock');
  if (!a) return [unsupported('sp_getapplock with positional arguments')];
  const timeout = a.get('locktimeout');
  const args: AppLockArgs = {
    resource: str(a.get('resource')),
    mode: str(a.get('lockmode')),
    owner: str(a.get('lockowner')),
    timeoutMs: timeout === undefined || timeout === null ? null : Number(timeout),
    principal: str(a.get('dbprincipal')),
  };
  const r = await getAppLock(c.model, c.session, args, c.signal);
  return resultOf(r.result, r.messages);
};

const release: BatchHandler = (c) => {
  const a = namedArgs(c, 'sp_releaseapplock');
  if (!a) return [unsupported('sp_releaseapplock with positional arguments')];
  const r = releaseAppLock(c.model, c.session, {
    resource: str(a.get('resource')),
    owner: str(a.get('lockowner')),
    principal: str(a.get('dbprincipal')),
  });
  return resultOf(r.result, r.messages);
};

const mode: BatchHandler = (c) => {
  const m = /APPLOCK_MODE\s*\(([^)]*)\)/i.exec(c.text.replace(/--[^\n]*/g, ' '));
  const args = m ? splitArgs(m[1]).map((x) => str(valueOf(c, x))) : [];
  if (args.length !== 3) return [unsupported('APPLOCK_MODE without its three arguments')];
  const [principal, resource, owner] = args;
  const v = principal === null || resource === null || owner === null ? null : appLockMode(c.model, c.session, principal, resource, owner);
  return [resultSet(cols([['lock_mode', T.nvarchar(32)]]), [[v]])];
};

/**
 * The holders of one resource as the file's join of sys.dm_tran_locks and sys.dm_exec_sessions returns them: in the
 * caller's current database, granted (the model has no waiters at timeout 0), other sessions only, exclusive first.
 * Without VIEW SERVER STATE a login sees only its own session's locks, which the file leaves out.
 */
const holder: BatchHandler = (c) => {
  const resource = strParam(c, '@resource') ?? '';
  const dbId = c.model.database(c.session.database)?.id ?? 1;
  const visible = c.model.canViewServerState(c.session.login);
  const rows: Value[][] = [];
  for (const r of appLocks(c.model)) {
    if (r.databaseId !== dbId || !resource || !describeResource(r).includes(resource)) continue;
    for (const h of r.holds.values()) {
      if (h.session === c.session || !visible) continue;
      rows.push([
        h.session.spid,
        SHORT[h.mode],
        h.session.hostName,
        h.session.clientPid ?? 0,
        h.session.appName,
        h.session.login,
        c.model.sessions.get(h.session.spid)?.loginTime ?? h.since,
      ]);
    }
  }
  rows.sort((a, b) => Number(a[1] !== 'X') - Number(b[1] !== 'X') || (a[6] as Date).getTime() - (b[6] as Date).getTime());
  return [
    resultSet(
      cols([
        ['session_id', T.int],
        ['request_mode', T.nvarchar(60)],
        ['host_name', T.nvarchar(128)],
        ['host_process_id', T.int],
        ['program_name', T.nvarchar(128)],
        ['login_name', T.nvarchar(128)],
        ['login_time', T.datetime],
      ]),
      rows,
    ),
  ];
};

export const APPLOCK_HANDLERS: Record<string, BatchHandler[]> = {
  'lab/lock-take': [take],
  'lab/lock-release': [release],
  'lab/lock-mode': [mode],
  'lab/lock-holder': [holder],
};
