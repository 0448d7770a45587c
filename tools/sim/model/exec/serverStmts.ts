// The server-level statements the executor runs itself: KILL, DBCC TRACESTATUS and NEXT VALUE FOR a sequence, each
// answered from the model's state with SQL Server's result sets and errors (docs: "KILL (Transact-SQL)", "DBCC
// TRACESTATUS (Transact-SQL)", "NEXT VALUE FOR (Transact-SQL)"; messages from sys.messages).
import type { ResponseItem } from '../../tds/contract';
import { isSystemSession } from '../holds';
import { cols, T } from '../types';
import type { ExecContext } from './context';
import { fail, Typed } from './values';

/** KILL n: ends the model's session with that id, as SQL Server refuses it when it may not. */
export function kill(ctx: ExecContext, spid: number): ResponseItem[] {
  const m = ctx.model;
  if (!m.hasPermission(ctx.session.login, 'ALTER ANY CONNECTION'))
    fail(6102, 'User does not have permission to use the KILL statement.', 14);
  if (spid === ctx.session.spid) fail(6104, 'Cannot use KILL to kill your own process.');
  if (isSystemSession(m, spid)) fail(6107, 'Only user processes can be killed.', 14);
  if (!m.connections.kill(spid)) fail(6106, `Process ID ${spid} is not an active process ID.`);
  return [];
}

/**
 * DBCC TRACESTATUS: -1 lists every flag on globally (the model's --trace-flag list; it has no session flags), named
 * flags are listed whether on or off, no argument lists the session's (none). WITH NO_INFOMSGS drops DBCC's closing
 * message 2528.
 */
export function traceStatus(ctx: ExecContext, flags: number[], noInfoMsgs: boolean): ResponseItem[] {
  const global = new Set(ctx.model.traceFlags);
  const named = flags.filter((f) => f !== -1);
  const listed = named.length ? named : flags.includes(-1) ? [...global] : [];
  const rows = listed.map((f) => [f, global.has(f) ? 1 : 0, global.has(f) ? 1 : 0, 0]);
  const out: ResponseItem[] = [
    {
      kind: 'resultSet',
      columns: cols([
        ['TraceFlag', T.smallint],
        ['Status', T.smallint],
        ['Global', T.smallint],
        ['Session', T.smallint],
      ]),
      rows,
    },
  ];
  if (!noInfoMsgs)
    out.push({
      kind: 'info',
      number: 2528,
      state: 1,
      class: 10,
      message: 'DBCC execution completed. If DBCC printed error messages, contact your system administrator.',
    });
  return out;
}

const SEQUENCE_RANGE: Record<string, [bigint, bigint]> = {
  tinyint: [0n, 255n],
  smallint: [-32768n, 32767n],
  int: [-2147483648n, 2147483647n],
  bigint: [-9223372036854775808n, 9223372036854775807n],
};

/**
 * NEXT VALUE FOR seq: the sequence's next value, in its type. A NO CACHE sequence writes its metadata on every draw
 * (a cached one once per cache block), which queues on the METADATA_SEQUENCE_GENERATOR latch: synthetic, 1 ms a write.
 */
export function nextValue(ctx: ExecContext, name: string): Typed {
  const db = ctx.model.database(ctx.session.database);
  const seq = db && ctx.model.findObject(db, name);
  if (!seq || seq.type !== 'SO') return fail(208, `Invalid object name '${name}'.`);
  const typeName = seq.meta?.type ?? 'bigint';
  const [min, max] = SEQUENCE_RANGE[typeName] ?? SEQUENCE_RANGE.bigint;
  const v = seq.nextValue ?? 1n;
  if (v < min || v > max)
    fail(
      11728,
      `The sequence object '${name.split('.').pop()}' has reached its minimum or maximum value. Restart the sequence object to allow new values to be generated.`,
    );
  const increment = BigInt(seq.meta?.increment ?? '1');
  seq.nextValue = v + increment;
  const cache = Number(seq.meta?.cache ?? '0');
  const drawn = Number(seq.meta?.drawn ?? '0') + 1;
  seq.meta = { ...seq.meta, drawn: String(drawn) };
  if (cache === 0 || (drawn - 1) % cache === 0) {
    const latch = ctx.model.counters.latches.get('METADATA_SEQUENCE_GENERATOR');
    if (latch) {
      latch.count += 1;
      latch.ms += 1;
      latch.maxMs = Math.max(latch.maxMs, 1);
    }
  }
  const type = typeName === 'bigint' ? T.bigint : typeName === 'smallint' ? T.smallint : typeName === 'tinyint' ? T.tinyint : T.int;
  return { v: typeName === 'bigint' ? v : Number(v), type };
}
