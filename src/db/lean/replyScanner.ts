// The lean client path's reply reader: TDS packets in whatever chunks the socket hands over are joined into messages
// ([MS-TDS] 2.2.3: a message ends with the packet whose status has EOM), and each message's token stream is scanned
// for what a client-loop call needs: DONE/DONEPROC/DONEINPROC status bits ([MS-TDS] 2.2.7.6-8), RETURNSTATUS, ERROR
// (0xAA), and the transaction descriptor of ENVCHANGE 8-10. Rows are stepped over by their column metadata without
// building values; a type it cannot step over is refused (LeanUnsupported), never guessed.
import { LeanUnsupported, readColumns, skipRow, type Column } from './rowSkipper';

export { LeanUnsupported };

/** An ERROR token ([MS-TDS] 2.2.7.10), with the fields the ordinary driver reports. */
export interface ServerError {
  number: number;
  state: number;
  class: number;
  message: string;
  serverName: string;
  procName: string;
  lineNumber: number;
}

/** What one reply message said. */
export interface ReplyMessage {
  errors: ServerError[];
  returnStatus: number | null;
  /** A DONE* token had DONE_ERROR (0x2). */
  doneError: boolean;
  /** A DONE* token had DONE_ATTN (0x20): the server acknowledged an ATTENTION. */
  attentionAck: boolean;
  /** The last DONE* token had DONE_MORE (0x1) clear: the request's reply is complete. */
  final: boolean;
  /** ENVCHANGE: a transaction began (its descriptor), ended (null), or no change (undefined). */
  transaction: Buffer | null | undefined;
}

const EOM = 0x01;
const DONE_MORE = 0x01;
const DONE_ERROR = 0x02;
const DONE_ATTN = 0x20;
const TDS_TABULAR = 0x04;

export class ReplyScanner {
  private pending: Buffer | null = null;
  private parts: Buffer[] = [];
  private columns: Column[] | null = null;

  /** Takes the next chunk from the socket; returns each message it completes (usually none or one). */
  push(chunk: Buffer): ReplyMessage[] {
    let buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    const out: ReplyMessage[] = [];
    while (buf.length >= 8) {
      const length = buf.readUInt16BE(2);
      if (length < 8) throw new LeanUnsupported(`a TDS packet with length ${length}`);
      if (buf.length < length) break;
      if (buf[0] !== TDS_TABULAR) throw new LeanUnsupported(`a TDS packet of type 0x${buf[0].toString(16)} from the server`);
      this.parts.push(buf.subarray(8, length));
      if (buf[1] & EOM) {
        const message = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
        this.parts = [];
        out.push(this.scan(message));
      }
      buf = buf.subarray(length);
    }
    if (buf.length) this.pending = Buffer.from(buf); // a copy: the socket's chunk is not ours to keep
    for (let i = 0; i < this.parts.length; i++) this.parts[i] = Buffer.from(this.parts[i]);
    return out;
  }

  private scan(b: Buffer): ReplyMessage {
    const m: ReplyMessage = {
      errors: [],
      returnStatus: null,
      doneError: false,
      attentionAck: false,
      final: false,
      transaction: undefined,
    };
    let o = 0;
    while (o < b.length) {
      const token = b[o++];
      switch (token) {
        case 0xfd: // DONE
        case 0xfe: // DONEPROC
        case 0xff: {
          // DONEINPROC: Status, CurCmd, DoneRowCount (8 bytes since TDS 7.2)
          const status = b.readUInt16LE(o);
          if (status & DONE_ERROR) m.doneError = true;
          if (status & DONE_ATTN) m.attentionAck = true;
          m.final = (status & DONE_MORE) === 0;
          o += 12;
          break;
        }
        case 0x79: // RETURNSTATUS
          m.returnStatus = b.readInt32LE(o);
          o += 4;
          break;
        case 0xaa: // ERROR
          m.errors.push(readError(b, o + 2));
          o += 2 + b.readUInt16LE(o);
          break;
        case 0xe3: // ENVCHANGE
          envChange(b, o + 2, m);
          o += 2 + b.readUInt16LE(o);
          break;
        case 0xab: // INFO
        case 0xa9: // ORDER
        case 0xa4: // TABNAME
        case 0xa5: // COLINFO
          o += 2 + b.readUInt16LE(o);
          break;
        case 0xe4: // SESSIONSTATE
          o += 4 + b.readUInt32LE(o);
          break;
        case 0x81: {
          // COLMETADATA: later ROW/NBCROW tokens are read by these columns
          const r = readColumns(b, o);
          this.columns = r.columns;
          o = r.offset;
          break;
        }
        case 0xd1: // ROW
        case 0xd2: // NBCROW
          if (!this.columns) throw new LeanUnsupported('a row with no column metadata before it');
          o = skipRow(b, o, this.columns, token === 0xd2);
          break;
        default:
          throw new LeanUnsupported(`the TDS token 0x${token.toString(16)} (the lean path reads no output parameters)`);
      }
    }
    if (o !== b.length) throw new LeanUnsupported('a token ran past the end of its message');
    return m;
  }
}

function bVarchar(b: Buffer, o: number): [string, number] {
  const n = b[o];
  return [b.toString('utf16le', o + 1, o + 1 + n * 2), o + 1 + n * 2];
}

function readError(b: Buffer, o: number): ServerError {
  const number = b.readInt32LE(o);
  const state = b[o + 4];
  const cls = b[o + 5];
  const len = b.readUInt16LE(o + 6);
  const message = b.toString('utf16le', o + 8, o + 8 + len * 2);
  const [serverName, p1] = bVarchar(b, o + 8 + len * 2);
  const [procName, p2] = bVarchar(b, p1);
  return { number, state, class: cls, message, serverName, procName, lineNumber: b.readInt32LE(p2) };
}

/** ENVCHANGE 8 (begin transaction) gives the new descriptor; 9, 10 and 17 (commit, rollback, ended) clear it. */
function envChange(b: Buffer, o: number, m: ReplyMessage): void {
  const type = b[o];
  if (type === 8) {
    const n = b[o + 1];
    m.transaction = Buffer.from(b.subarray(o + 2, o + 2 + n));
  } else if (type === 9 || type === 10 || type === 17) m.transaction = null;
}
