// The DDL statements, read by the executor's own parser from the text that arrived: CREATE / DROP / ALTER DATABASE,
// CREATE TABLE (permanent ones; #temp tables stay with exec/parse.ts), DROP TABLE / PROCEDURE / SEQUENCE, CREATE
// SEQUENCE, CREATE PROCEDURE, ALTER SERVER CONFIGURATION SET PROCESS AFFINITY and the EVENT SESSION statements. Anything else of their syntax is
// refused as unsupported, never approximated.
import { lex } from '../../grammar/lex';
import type { ServerMessage } from '../../tds/contract';
import type { Stmt } from '../exec/ast';
import { Parser } from '../exec/parse';
import type { AlterDatabaseAction, DdlStmt, IndexDef, TableColumn } from './ast';
import { eventSession, type StatementCursor } from './xeStatement';

const OBJECT_TYPES: Record<string, 'U' | 'P' | 'SO'> = { table: 'U', procedure: 'P', proc: 'P', sequence: 'SO' };

export class DdlParser extends Parser {
  static ofText(text: string): DdlParser {
    return new DdlParser(lex(text), text);
  }

  override statement(): Stmt {
    const d = this.ddl();
    return d ? { kind: 'ddl', d } : super.statement();
  }

  /** The DDL statement at the cursor, or null when it is none (the executor's other statements). */
  ddl(): DdlStmt | null {
    const w = this.word();
    const w1 = this.word(1);
    if (w === 'create' && w1 === 'table' && !this.peek(2)?.v.startsWith('#')) return this.createTable();
    if (w === 'drop' && w1 in OBJECT_TYPES && !(w1 === 'table' && this.tempAhead())) return this.dropObject();
    if (w === 'create' && (w1 === 'procedure' || w1 === 'proc')) return this.createProcedure();
    if (w === 'create' && w1 === 'sequence') return this.createSequence();
    if (w === 'create' && w1 === 'database') {
      this.i += 2;
      return { d: 'create-database', name: this.name() };
    }
    if (w === 'drop' && w1 === 'database') {
      this.i += 2;
      const ifExists = this.ifExists();
      const names = [this.name()];
      while (this.eatOp(',')) names.push(this.name());
      return { d: 'drop-database', names, ifExists };
    }
    if (w === 'alter' && w1 === 'database') {
      this.i += 2;
      const name = this.name();
      return { d: 'alter-database', name, action: this.alterDatabase() };
    }
    if (w === 'alter' && w1 === 'server') return this.affinity();
    if (['create', 'alter', 'drop'].includes(w) && w1 === 'event' && this.word(2) === 'session') return eventSession(this.cursor());
    return null;
  }

  /** The token cursor, for the statements read by a module of their own (ddl/xeStatement.ts). */
  private cursor(): StatementCursor {
    return {
      toks: this.toks,
      text: this.text,
      at: () => this.i,
      moveTo: (i) => {
        this.i = i;
      },
    };
  }

  private tempAhead(): boolean {
    const o = this.word(2) === 'if' ? 4 : 2;
    return !!this.peek(o)?.v.startsWith('#');
  }

  private ifExists(): boolean {
    if (this.word() !== 'if' || this.word(1) !== 'exists') return false;
    this.i += 2;
    return true;
  }

  private dropObject(): DdlStmt {
    const type = OBJECT_TYPES[this.word(1)];
    this.i += 2;
    const ifExists = this.ifExists();
    const names = [this.dotted()];
    while (this.eatOp(',')) names.push(this.dotted());
    return { d: 'drop-object', type, names, ifExists };
  }

  /** CREATE PROCEDURE takes the rest of the batch as its body (Msg 111 when another statement came before it). */
  private createProcedure(): DdlStmt {
    const first = this.i === 0;
    const start = this.peek()!.start;
    this.i += 2;
    const name = this.dotted();
    this.i = this.toks.length;
    return { d: 'create-procedure', name, text: this.text.slice(start), first };
  }

  private skip(n: number): this {
    this.i += n;
    return this;
  }

  private signedInt(): bigint {
    const neg = this.eatOp('-');
    const t = this.peek();
    if (t?.k !== 'num' || !/^\d+$/.test(t.v)) this.refuse();
    this.i++;
    return neg ? -BigInt(t.v) : BigInt(t.v);
  }

  private createSequence(): DdlStmt {
    this.i += 2;
    const s: Extract<DdlStmt, { d: 'create-sequence' }> = {
      d: 'create-sequence',
      name: this.dotted(),
      type: 'bigint',
      increment: 1n,
      cache: 50,
    };
    for (;;) {
      if (this.eatWord('as')) s.type = this.typeName().base;
      else if (this.word() === 'start' && this.word(1) === 'with') s.start = this.skip(2).signedInt();
      else if (this.word() === 'increment' && this.word(1) === 'by') s.increment = this.skip(2).signedInt();
      else if (this.eatWord('minvalue') || this.eatWord('maxvalue')) this.signedInt();
      else if (this.eatWord('cycle')) continue;
      else if (this.eatWord('cache')) s.cache = this.peek()?.k === 'num' ? Number(this.signedInt()) : 50;
      else if (this.word() === 'no' && ['minvalue', 'maxvalue', 'cycle', 'cache'].includes(this.word(1))) {
        if (this.word(1) === 'cache') s.cache = null;
        this.i += 2;
      } else return s;
    }
  }

  private alterDatabase(): AlterDatabaseAction {
    if (this.eatWord('add')) {
      if (this.eatWord('filegroup')) {
        const filegroup = this.name();
        if (!this.eatWord('contains')) return { a: 'add-filegroup', filegroup, memoryOptimized: false };
        this.needWord('memory_optimized_data');
        return { a: 'add-filegroup', filegroup, memoryOptimized: true };
      }
      this.needWord('file');
      const opts = this.options();
      this.needWord('to');
      this.needWord('filegroup');
      return { a: 'add-file', file: String(opts.get('name') ?? ''), filegroup: this.name() };
    }
    this.needWord('set');
    const w = this.word();
    this.i++;
    if (w === 'recovery') {
      const m = this.word().toUpperCase();
      if (m !== 'SIMPLE' && m !== 'FULL' && m !== 'BULK_LOGGED') this.refuse();
      this.i++;
      return { a: 'recovery', model: m };
    }
    if (w === 'delayed_durability') {
      this.needOp('=');
      const m = this.word().toUpperCase();
      if (m !== 'DISABLED' && m !== 'ALLOWED' && m !== 'FORCED') this.refuse();
      this.i++;
      return { a: 'delayed-durability', mode: m };
    }
    if (w === 'single_user' || w === 'restricted_user' || w === 'multi_user') {
      if (this.eatWord('with')) {
        if (this.eatWord('rollback')) {
          if (!this.eatWord('immediate')) {
            this.needWord('after');
            this.signedInt();
            this.eatWord('seconds');
          }
        } else this.needWord('no_wait');
      }
      return { a: 'user-access', mode: w.toUpperCase() as 'MULTI_USER' };
    }
    return this.refuse();
  }

  /** ( NAME = value, ... ): an option list whose values are words, numbers or strings. */
  private options(): Map<string, string> {
    const out = new Map<string, string>();
    this.needOp('(');
    do {
      const key = this.name().toLowerCase();
      this.needOp('=');
      const v = this.peek();
      if (!v || (v.k !== 'word' && v.k !== 'num' && v.k !== 'str' && v.k !== 'qname')) this.refuse();
      this.i++;
      out.set(key, v.v);
    } while (this.eatOp(','));
    this.needOp(')');
    return out;
  }

  private affinity(): DdlStmt {
    this.i += 2;
    for (const w of ['configuration', 'set', 'process', 'affinity']) this.needWord(w);
    const start = this.peek();
    if (this.word() !== 'cpu' && this.word() !== 'numanode') this.refuse();
    this.i++;
    this.needOp('=');
    let end = this.peek();
    while (this.peek() && (this.peek()!.k === 'num' || this.isOp(',') || ['to', 'auto'].includes(this.word()))) end = this.toks[this.i++];
    if (!start || !end) this.refuse();
    return { d: 'affinity', spec: this.text.slice(start.start, end.end) };
  }

  private createTable(): DdlStmt {
    this.i += 2;
    const name = this.dotted();
    const cols: TableColumn[] = [];
    const indexes: IndexDef[] = [];
    this.needOp('(');
    do {
      if (['constraint', 'primary', 'unique', 'index'].includes(this.word())) indexes.push(this.tableIndex());
      else cols.push(this.column(indexes));
    } while (this.eatOp(','));
    this.needOp(')');
    let memoryOptimized = false;
    let durability: 'SCHEMA_AND_DATA' | 'SCHEMA_ONLY' = 'SCHEMA_AND_DATA';
    if (this.eatWord('with')) {
      const o = this.options();
      for (const [k, v] of o) {
        if (k === 'memory_optimized') memoryOptimized = v.toUpperCase() === 'ON';
        else if (k === 'durability' && /^(SCHEMA_AND_DATA|SCHEMA_ONLY)$/i.test(v)) durability = v.toUpperCase() as typeof durability;
        else this.refuse();
      }
    }
    return { d: 'create-table', name, cols, indexes, memoryOptimized, durability };
  }

  private column(indexes: IndexDef[]): TableColumn {
    const name = this.name();
    const c: TableColumn = { name, type: this.written(() => this.typeName()) };
    for (;;) {
      if (this.eatWord('identity')) {
        c.identity = { seed: 1n, increment: 1n };
        if (this.eatOp('(')) {
          c.identity.seed = this.signedInt();
          this.needOp(',');
          c.identity.increment = this.signedInt();
          this.needOp(')');
        }
      } else if (this.word() === 'not' && this.word(1) === 'null') c.nullable = !this.skip(2);
      else if (this.eatWord('null')) c.nullable = true;
      else {
        const constraint = this.eatWord('constraint') ? this.name() : undefined;
        if (this.eatWord('default')) c.default = this.written(() => this.expr());
        else if (this.word() === 'primary' || this.word() === 'unique') indexes.push(this.keyConstraint(constraint, [c.name]));
        else if (constraint) this.refuse();
        else return c;
      }
    }
  }

  /** The text a sub-parser consumed, as written. */
  private written(read: () => unknown): string {
    const from = this.peek()?.start ?? this.text.length;
    read();
    return this.text.slice(from, this.toks[this.i - 1].end);
  }

  private tableIndex(): IndexDef {
    if (this.eatWord('index')) {
      const name = this.name();
      const unique = this.eatWord('unique');
      return { ...this.indexBody(undefined), name, unique, primaryKey: false };
    }
    const name = this.eatWord('constraint') ? this.name() : undefined;
    return this.keyConstraint(name, undefined);
  }

  /** PRIMARY KEY | UNIQUE [CLUSTERED | NONCLUSTERED [HASH]] [(cols)] [WITH (...)]. */
  private keyConstraint(name: string | undefined, columnOf: string[] | undefined): IndexDef {
    const primaryKey = this.eatWord('primary');
    if (primaryKey) this.needWord('key');
    else this.needWord('unique');
    return { ...this.indexBody(columnOf), name, primaryKey, unique: true };
  }

  private indexBody(columnOf: string[] | undefined): Omit<IndexDef, 'primaryKey' | 'unique' | 'name'> {
    const clustered = this.eatWord('clustered');
    if (!clustered) this.eatWord('nonclustered');
    const hash = this.eatWord('hash');
    let cols = columnOf ?? [];
    if (this.isOp('(')) {
      this.i++;
      cols = [];
      do {
        cols.push(this.name());
        if (!this.eatWord('asc')) this.eatWord('desc');
      } while (this.eatOp(','));
      this.needOp(')');
    }
    if (cols.length === 0) this.refuse();
    let bucketCount: number | undefined;
    if (this.eatWord('with')) {
      for (const [k, v] of this.options()) {
        if (k === 'bucket_count') bucketCount = Number(v);
        else if (!['allow_row_locks', 'allow_page_locks', 'fillfactor', 'pad_index'].includes(k)) this.refuse();
      }
    }
    return { clustered, hash, cols, bucketCount };
  }
}

/** The statements of one batch, DDL among them (the executor's entry point: exec/batch.ts). */
export function parseBatch(text: string): Stmt[] {
  const p = DdlParser.ofText(text);
  const out: Stmt[] = [];
  while (!p.atEnd()) out.push(p.statement());
  return out;
}

/** Msg 111 when CREATE PROCEDURE follows another statement of its batch (a compile error: nothing runs). */
export function procedureNotFirst(text: string): ServerMessage | null {
  const t = lex(text).filter((x) => !(x.k === 'op' && x.v === ';'));
  const w = (i: number) => (t[i]?.k === 'word' ? t[i].v.toLowerCase() : '');
  const at = t.findIndex(
    (_, i) => w(i) === 'create' && (['proc', 'procedure'].includes(w(i + 1)) || (w(i + 1) === 'or' && w(i + 2) === 'alter')),
  );
  if (at <= 0) return null;
  return {
    kind: 'error',
    number: 111,
    state: 1,
    class: 15,
    message: "'CREATE/ALTER PROCEDURE' must be the first statement in a query batch.",
    line: 1,
  };
}
