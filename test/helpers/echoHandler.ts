// A tiny SimHandler for the TDS wire-layer tests: canned result sets of every type, errors, info messages, delays
// (for cancel), and RPC parameter echo. Independent of the real model in tools/sim/model.

import type {
  Column,
  LoginRequest,
  LoginResult,
  ResponseItem,
  RpcParam,
  SessionContext,
  SimHandler,
  Value,
} from '../../tools/sim/tds/contract';

export const TYPE_COLUMNS: Column[] = [
  { name: 'c_bit', sqlType: { type: 'bit' } },
  { name: 'c_tinyint', sqlType: { type: 'tinyint' } },
  { name: 'c_smallint', sqlType: { type: 'smallint' } },
  { name: 'c_int', sqlType: { type: 'int' } },
  { name: 'c_bigint', sqlType: { type: 'bigint' } },
  { name: 'c_real', sqlType: { type: 'real' } },
  { name: 'c_float', sqlType: { type: 'float' } },
  { name: 'c_decimal', sqlType: { type: 'decimal', precision: 18, scale: 4 } },
  { name: 'c_decimal38', sqlType: { type: 'decimal', precision: 38, scale: 10 } },
  { name: 'c_nvarchar', sqlType: { type: 'nvarchar', length: 50 } },
  { name: 'c_nvarchar_max', sqlType: { type: 'nvarchar', length: 'max' } },
  { name: 'c_nchar', sqlType: { type: 'nchar', length: 6 } },
  { name: 'c_varchar', sqlType: { type: 'varchar', length: 50 } },
  { name: 'c_varchar_max', sqlType: { type: 'varchar', length: 'max' } },
  { name: 'c_char', sqlType: { type: 'char', length: 5 } },
  { name: 'c_datetime', sqlType: { type: 'datetime' } },
  { name: 'c_datetime2', sqlType: { type: 'datetime2', scale: 7 } },
  { name: 'c_datetime2_0', sqlType: { type: 'datetime2', scale: 0 } },
  { name: 'c_varbinary', sqlType: { type: 'varbinary', length: 50 } },
  { name: 'c_varbinary_max', sqlType: { type: 'varbinary', length: 'max' } },
  { name: 'c_binary', sqlType: { type: 'binary', length: 4 } },
  { name: 'c_guid', sqlType: { type: 'uniqueidentifier' } },
];

export const TYPE_ROWS: Value[][] = [
  [
    true,
    255,
    -32768,
    2147483647,
    9007199254740993n,
    1.5,
    3.141592653589793,
    '12345.6789',
    '-1234567890123456789.0123456789',
    'héllo wörld ☃',
    'x'.repeat(10000),
    'ab',
    'café €',
    'long '.repeat(3000),
    'abc',
    new Date('2024-02-29T13:45:30.123Z'),
    new Date('2024-02-29T13:45:30.123Z'),
    new Date('1999-12-31T23:59:59.000Z'),
    Buffer.from([1, 2, 3, 255]),
    Buffer.alloc(20000, 7),
    Buffer.from([0xde, 0xad, 0xbe, 0xef]),
    '6F9619FF-8B86-D011-B42D-00C04FC964FF',
  ],
  TYPE_COLUMNS.map(() => null),
  [
    false,
    0,
    1,
    -1,
    -42,
    -0.25,
    -1e300,
    -0.5,
    '0.0000000001',
    '',
    '',
    '',
    '',
    '',
    '',
    new Date('1753-01-01T00:00:00.000Z'),
    new Date('0001-01-01T00:00:00.000Z'),
    new Date('9999-12-31T23:59:59.000Z'),
    Buffer.alloc(0),
    Buffer.alloc(0),
    Buffer.from([0, 0, 0, 1]),
    '00000000-0000-0000-0000-000000000000',
  ],
];

export interface EchoHandlerOptions {
  password?: string;
}

export interface EchoHandler extends SimHandler {
  /** Every batch text and RPC name, in order, for assertions. */
  readonly calls: Array<{ spid: number; kind: 'batch' | 'rpc'; text: string; params?: RpcParam[] }>;
  readonly resets: number[];
  readonly started: number[];
  readonly ended: number[];
  /** Aborted calls, by spid. */
  readonly aborted: number[];
}

function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const one = (name: string, sqlType: Column['sqlType'], value: Value): ResponseItem => ({
  kind: 'resultSet',
  columns: [{ name, sqlType }],
  rows: [[value]],
});

export function createEchoHandler(opts: EchoHandlerOptions = {}): EchoHandler {
  const password = opts.password ?? 'pw';
  const h: EchoHandler = {
    calls: [],
    resets: [],
    started: [],
    ended: [],
    aborted: [],

    login(req: LoginRequest): LoginResult {
      if (req.userName === 'sa' && req.password === password) return { ok: true, database: req.database || 'master' };
      return {
        ok: false,
        error: { kind: 'error', number: 18456, state: 1, class: 14, message: `Login failed for user '${req.userName}'.` },
      };
    },

    sessionStarted: (s) => void h.started.push(s.spid),
    sessionEnded: (s) => void h.ended.push(s.spid),
    resetConnection: (s) => void h.resets.push(s.spid),

    async sqlBatch(session: SessionContext, text: string, signal: AbortSignal): Promise<ResponseItem[]> {
      h.calls.push({ spid: session.spid, kind: 'batch', text });
      return answer(session, text.trim(), signal, []);
    },

    async rpc(session: SessionContext, procName: string, params: RpcParam[], signal: AbortSignal) {
      h.calls.push({ spid: session.spid, kind: 'rpc', text: procName, params });
      if (procName === 'sp_executesql') {
        const stmt = String(params[0]?.value ?? '');
        return answer(session, stmt.trim(), signal, params.slice(2));
      }
      if (/echo_params$/i.test(procName)) return echoParams(params, 42);
      if (/no_status$/i.test(procName)) return [];
      if (/slow$/i.test(procName)) return answer(session, `waitfor ${params[0]?.value ?? 5000}`, signal, []);
      return [{ kind: 'error', number: 2812, state: 62, class: 16, message: `Could not find stored procedure '${procName}'.` }];
    },
  };

  async function answer(session: SessionContext, text: string, signal: AbortSignal, params: RpcParam[]): Promise<ResponseItem[]> {
    const lower = text.toLowerCase();
    if (lower.startsWith('set ')) return []; // tedious's connection-initialisation batch
    if (lower === 'select types') return [{ kind: 'resultSet', columns: TYPE_COLUMNS, rows: TYPE_ROWS }];
    if (lower === 'select @@spid') return [one('spid', { type: 'smallint' }, session.spid)];
    if (lower === 'select db_name()') return [one('db', { type: 'nvarchar', length: 128 }, session.database)];
    if (lower === 'multi') {
      return [
        one('a', { type: 'int' }, 1),
        { kind: 'rowCount', count: 3 },
        { kind: 'resultSet', columns: [{ name: 'b', sqlType: { type: 'nvarchar', length: 10 } }], rows: [['x'], ['y']] },
        { kind: 'resultSet', columns: [{ name: 'c', sqlType: { type: 'bit' } }], rows: [] },
      ];
    }
    if (lower === 'error') {
      return [
        { kind: 'info', number: 50001, state: 3, class: 0, message: 'about to fail', procName: 'p_fail', line: 7 },
        { kind: 'error', number: 50000, state: 2, class: 16, message: 'it failed', procName: 'p_fail', line: 8 },
      ];
    }
    if (lower === 'info') return [{ kind: 'info', number: 50002, state: 1, class: 10, message: 'just saying', line: 3 }];
    if (lower === 'throw') throw new Error('handler exploded');
    if (lower === 'bad value') return [one('x', { type: 'int' }, 'not a number')];
    const use = /^use (\w+)$/i.exec(text);
    if (use) {
      const old = session.database;
      session.database = use[1];
      return [{ kind: 'database', newName: use[1], oldName: old }];
    }
    const big = /^big (\d+)$/i.exec(text);
    if (big) {
      const rows: Value[][] = [];
      for (let i = 0; i < Number(big[1]); i++) rows.push([i, `row ${i}`]);
      const columns: Column[] = [
        { name: 'n', sqlType: { type: 'int' } },
        { name: 's', sqlType: { type: 'nvarchar', length: 100 } },
      ];
      return [{ kind: 'resultSet', columns, rows }];
    }
    const waitfor = /^waitfor (\d+)$/i.exec(text);
    if (waitfor) {
      const finished = await wait(Number(waitfor[1]), signal);
      if (!finished) {
        h.aborted.push(session.spid);
        return [];
      }
      return [one('waited', { type: 'int' }, Number(waitfor[1]))];
    }
    if (lower === 'echo') return echoParams(params, undefined);
    return [one('text', { type: 'nvarchar', length: 4000 }, text)];
  }

  return h;
}

/** One row holding every parameter (column = name without '@'); OUTPUT params come back transformed. */
function echoParams(params: RpcParam[], status: number | undefined): ResponseItem[] {
  const items: ResponseItem[] = [
    {
      kind: 'resultSet',
      columns: params.map((p) => ({ name: p.name.replace(/^@/, ''), sqlType: p.sqlType })),
      rows: [params.map((p) => p.value)],
    },
  ];
  for (const p of params) {
    if (!p.output) continue;
    let v = p.value;
    if (typeof v === 'number') v = v * 2;
    else if (typeof v === 'bigint') v = v * 2n;
    else if (typeof v === 'string' && p.sqlType.type !== 'uniqueidentifier' && p.sqlType.type !== 'decimal') v = `${v}!`;
    items.push({ kind: 'outputValue', name: p.name, sqlType: p.sqlType, value: v });
  }
  if (status !== undefined) items.push({ kind: 'returnStatus', value: status });
  return items;
}
