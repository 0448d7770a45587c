// A CREATE TABLE's columns and keys as the table's data holds them (model/tableData.ts): each column's type read from
// its text, a PRIMARY KEY's columns NOT NULL (docs: PRIMARY KEY constraints), keys by column position.
import { Parser } from '../exec/parse';
import { sqlType } from '../exec/values';
import type { TableData } from '../tableData';
import type { DdlStmt } from './ast';

const SIZED = ['nvarchar', 'varchar', 'nchar', 'char', 'varbinary', 'binary'];

export function tableData(s: Extract<DdlStmt, { d: 'create-table' }>): TableData {
  const last = s.name.split('.').pop()!;
  const pk = new Set(s.indexes.filter((i) => i.primaryKey).flatMap((i) => i.cols.map((c) => c.toLowerCase())));
  const columns = s.cols.map((c) => {
    const t = Parser.of(c.type).typeOnly();
    // A character or binary type without a length is 1 long in a column definition (docs: char and varchar).
    const type = SIZED.includes(t.base) && t.length === undefined ? { ...t, length: 1 } : t;
    return {
      name: c.name,
      sqlType: sqlType(type),
      nullable: c.nullable !== false && !pk.has(c.name.toLowerCase()),
      identity: c.identity,
      default: c.default,
    };
  });
  const at = (n: string) => columns.findIndex((c) => c.name.toLowerCase() === n.toLowerCase());
  const keys = s.indexes
    .filter((i) => i.primaryKey || i.unique)
    .map((i) => ({
      name: i.name ?? `${i.primaryKey ? 'PK' : 'UQ'}__${last}`,
      kind: i.primaryKey ? ('PRIMARY KEY' as const) : ('UNIQUE KEY' as const),
      cols: i.cols.map(at),
      ...(i.bucketCount !== undefined ? { bucketCount: i.bucketCount } : {}),
    }));
  const id = s.cols.find((c) => c.identity)?.identity;
  return { columns, keys, count: 0, known: [], complete: true, ...(id ? { nextIdentity: id.seed } : {}) };
}
