// Turns the model's ResponseItem[] into the token stream SQL Server would send for a batch or an RPC.

import type { ResponseItem, RpcParam, ServerMessage, SessionContext } from './contract';
import { BufWriter } from './bufwriter';
import { codecFor } from './encode';
import { CurCmd, DoneStatus, EnvChange, Token } from './protocol';
import {
  writeColMetadata,
  writeDone,
  writeEnvChangeBytes,
  writeEnvChangeString,
  writeMessage,
  writeReturnStatus,
  writeReturnValue,
  writeRow,
} from './tokens';

export interface ReplyContext {
  serverName: string;
  session: SessionContext;
  /** 'batch': statements end in DONE; 'rpc': in DONEINPROC, and the call ends in DONEPROC. */
  mode: 'batch' | 'rpc';
  params?: RpcParam[];
  /** False for all but the last RPC of a multi-RPC request (its DONEPROC carries MORE). */
  last: boolean;
}

/** The model handed us a value the wire cannot carry: answer like SQL Server's conversion error, keep the session. */
function encodingError(err: unknown): ServerMessage {
  const detail = err instanceof Error ? err.message : String(err);
  return { kind: 'error', number: 245, state: 1, class: 16, message: `Conversion failed in the simulator: ${detail}` };
}

export function writeReply(w: BufWriter, items: ResponseItem[], ctx: ReplyContext): void {
  const inner = ctx.mode === 'rpc' ? Token.DONEINPROC : Token.DONE;
  let anyError = false;
  let stmtError = false;
  let sawReturnStatus = false;
  const n = items.length;
  // SET NOCOUNT ON: a batch's statements still end in DONE, without DONE_COUNT (an RPC's: see 'rowCount').
  const count = ctx.session.noCount ? 0 : DoneStatus.COUNT;
  // In a batch, the last statement's DONE is the final one (no extra empty DONE), as SQL Server sends it.
  const lastIsStatement = ctx.mode === 'batch' && n > 0 && (items[n - 1].kind === 'resultSet' || items[n - 1].kind === 'rowCount');

  for (let i = 0; i < n; i++) {
    const item = items[i];
    const final = lastIsStatement && i === n - 1;
    const start = w.pos;
    try {
      switch (item.kind) {
        case 'resultSet': {
          if (item.columns.length > 0) {
            const codecs = item.columns.map((c) => codecFor(c.sqlType));
            writeColMetadata(w, item.columns, codecs);
            const rows = item.rows;
            for (let r = 0; r < rows.length; r++) writeRow(w, codecs, rows[r]);
          }
          const status = (final ? 0 : DoneStatus.MORE) | count | (stmtError ? DoneStatus.ERROR : 0);
          writeDone(w, inner, status, CurCmd.SELECT, item.rows.length);
          stmtError = false;
          break;
        }
        case 'rowCount': {
          // SET NOCOUNT ON in a procedure (an RPC): a statement that returns no rows sends no DONEINPROC at all (the
          // SET NOCOUNT page: "prevents the sending of DONEINPROC messages ... for each statement in a stored
          // procedure"); a failed one still ends in its DONEINPROC with ERROR. A result set keeps its DONEINPROC.
          if (ctx.mode === 'rpc' && ctx.session.noCount && !stmtError) break;
          const status = (final ? 0 : DoneStatus.MORE) | count | (stmtError ? DoneStatus.ERROR : 0);
          const cmd = item.cmd === 'delete' ? CurCmd.DELETE : item.cmd === 'select' ? CurCmd.SELECT : CurCmd.INSERT;
          writeDone(w, inner, status, cmd, item.count);
          stmtError = false;
          break;
        }
        case 'error':
        case 'info':
          writeMessage(w, item, ctx.serverName);
          if (item.class >= 11) anyError = stmtError = true;
          // The statement that failed ends in a DONE of its own (ERROR set) before the next statement's results, as
          // SQL Server sends it; JDBC reads an error up to that DONE and would otherwise take the next result set too.
          if (stmtError && i + 1 < n && (items[i + 1].kind === 'resultSet' || items[i + 1].kind === 'rowCount')) {
            writeDone(w, inner, DoneStatus.MORE | DoneStatus.ERROR, CurCmd.NONE, 0);
            stmtError = false;
          }
          break;
        case 'database':
          writeEnvChangeString(w, EnvChange.DATABASE, item.newName, item.oldName);
          ctx.session.database = item.newName;
          break;
        case 'returnStatus':
          writeReturnStatus(w, item.value);
          sawReturnStatus = true;
          break;
        case 'transaction': {
          const empty = Buffer.alloc(0);
          if (item.op === 'begin') writeEnvChangeBytes(w, EnvChange.BEGIN_TXN, item.descriptor, empty);
          else writeEnvChangeBytes(w, item.op === 'commit' ? EnvChange.COMMIT_TXN : EnvChange.ROLLBACK_TXN, empty, item.descriptor);
          break;
        }
        case 'outputValue': {
          // RETURNSTATUS comes before the RETURNVALUEs (MS-TDS 2.2.7.18/19, as SQL Server sends them); a driver
          // (mssql-jdbc) that meets RETURNVALUEs first does not take them as the call's OUTPUT parameters.
          if (ctx.mode === 'rpc' && !sawReturnStatus && !anyError) {
            writeReturnStatus(w, 0);
            sawReturnStatus = true;
          }
          const idx = item.ordinal ?? (ctx.params ? ctx.params.findIndex((p) => p.name.toLowerCase() === item.name.toLowerCase()) : -1);
          writeReturnValue(w, Math.max(idx, 0), item.name, codecFor(item.sqlType), item.value);
          break;
        }
      }
    } catch (err) {
      w.pos = start;
      writeMessage(w, encodingError(err), ctx.serverName);
      anyError = stmtError = true;
      if (final) writeDone(w, inner, DoneStatus.ERROR, CurCmd.NONE, 0);
    }
  }

  if (ctx.mode === 'rpc') {
    // SQL Server sends RETURNSTATUS for every procedure that ran; a call that failed outright has none.
    if (!sawReturnStatus && !anyError) writeReturnStatus(w, 0);
    const status = (ctx.last ? 0 : DoneStatus.MORE) | (anyError ? DoneStatus.ERROR : 0);
    writeDone(w, Token.DONEPROC, status, CurCmd.EXECUTE, 0);
  } else if (!lastIsStatement) {
    writeDone(w, Token.DONE, anyError ? DoneStatus.ERROR : 0, CurCmd.NONE, 0);
  }
}
