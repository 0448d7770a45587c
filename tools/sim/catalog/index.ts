// The column catalogue (columns.json): the DMVs and catalog views the product reads, with their columns and types as
// Microsoft's docs give them, per SQL Server version. The simulator serves exactly these columns (conformToCatalog),
// and a unit test checks every column a sql/ file names exists in every supported version.
import type { Column, SqlType, Value } from '../tds/contract';
import data from './columns.json';

/** What the catalogue needs of a query's context: the simulated version (the model's QueryContext has it). */
export interface VersionedContext {
  model: { version: number; managedInstance?: boolean };
}

/** What the catalogue needs of a modelled view (the model's SystemView): its columns and rows for a context. */
export interface CatalogView<C extends VersionedContext> {
  name: string;
  columns(ctx: C): Column[];
  rows(ctx: C, args: Value[] | null): Value[][];
}

export const MIN_VERSION = 13;
export const MAX_VERSION = 17;

export interface CatalogColumn {
  name: string;
  type: string;
  notNull: boolean;
  since: number;
  until: number;
}

interface ViewSpec {
  doc: string;
  commit: string;
  inherits?: string;
  only?: string;
  columns: (string | number)[][];
  notes?: string;
}
const VIEWS = data.views as Record<string, ViewSpec>;

export function catalogViewNames(): string[] {
  return Object.keys(VIEWS);
}

export function catalogDoc(view: string): { doc: string; commit: string } | undefined {
  const v = VIEWS[view.toLowerCase()];
  return v && { doc: v.doc, commit: v.commit };
}

/** Every column of `view` in the docs (inherited ones first, as SQL Server lists them), whatever the version. */
export function allCatalogColumns(view: string): CatalogColumn[] | undefined {
  const v = VIEWS[view.toLowerCase()];
  if (!v) return undefined;
  const own = v.columns.map(([name, type, nullability, since, until]) => ({
    name: String(name),
    type: String(type),
    notNull: nullability === 'not null',
    since: typeof since === 'number' ? since : MIN_VERSION,
    until: typeof until === 'number' ? until : MAX_VERSION,
  }));
  return v.inherits ? [...(allCatalogColumns(v.inherits) ?? []), ...own] : own;
}

/** The columns `view` has in SQL Server `version` (13..17), or undefined when the view is not in the catalogue. */
export function catalogColumns(view: string, version: number, managedInstance = false): CatalogColumn[] | undefined {
  // A view the docs give for another product only ('only', e.g. Azure SQL Managed Instance) has no columns in SQL Server.
  const only = VIEWS[view.toLowerCase()]?.only;
  if (only) return managedInstance && only === 'Azure SQL Managed Instance' ? allCatalogColumns(view) : [];
  return allCatalogColumns(view)?.filter((c) => c.since <= version && version <= c.until);
}

/** The wire type of a documented type name. */
export function sqlTypeOf(type: string): SqlType {
  const t = type.toLowerCase().replace(/\s+/g, '');
  let m: RegExpExecArray | null;
  if (t === 'sysname') return { type: 'nvarchar', length: 128 };
  if ((m = /^(nvarchar|nchar|varchar|char|varbinary|binary)\((\d+|max)\)$/.exec(t))) {
    return { type: m[1] as 'nvarchar', length: m[2] === 'max' ? 'max' : Number(m[2]) } as SqlType;
  }
  // The docs give sys.dm_io_virtual_file_stats.file_handle as bare varbinary: a handle is 8 bytes.
  if (t === 'varbinary') return { type: 'varbinary', length: 8 };
  if ((m = /^(?:numeric|decimal)\((\d+),(\d+)\)$/.exec(t))) return { type: 'decimal', precision: Number(m[1]), scale: Number(m[2]) };
  // sql_variant has no encoder in the wire layer yet: sent as nvarchar(4000) (columns.json says so for the one column).
  // datetime2 without a scale is datetime2(7).
  if (t === 'datetime2') return { type: 'datetime2', scale: 7 };
  if (t === 'sql_variant') return { type: 'nvarchar', length: 4000 };
  if (['bit', 'tinyint', 'smallint', 'int', 'bigint', 'real', 'float', 'datetime', 'uniqueidentifier'].includes(t))
    return { type: t } as SqlType;
  throw new Error(`columns.json: no wire type for '${type}'`);
}

function zeroOf(t: SqlType): Value {
  switch (t.type) {
    case 'bit':
      return false;
    case 'bigint':
      return 0n;
    case 'tinyint':
    case 'smallint':
    case 'int':
    case 'real':
    case 'float':
      return 0;
    case 'decimal':
      return '0';
    case 'datetime':
    case 'datetime2':
      return new Date(0);
    case 'uniqueidentifier':
      return '00000000-0000-0000-0000-000000000000';
    case 'varbinary':
    case 'binary':
      return Buffer.alloc(t.length === 'max' ? 0 : Math.min(8, t.length));
    default:
      return '';
  }
}

/**
 * The view as SQL Server has it at the simulator's version: the catalogue's columns, in its order, with its types and
 * nullability; columns the model does not compute come back NULL (or a zero where the docs say NOT NULL), and columns
 * the model has but the docs do not are dropped.
 */
export function conformToCatalog<C extends VersionedContext, V extends CatalogView<C>>(v: V): V {
  if (!allCatalogColumns(v.name)) return v;
  const columns = (c: C): Column[] =>
    catalogColumns(v.name, c.model.version, c.model.managedInstance)!.map((col) => ({
      name: col.name,
      sqlType: sqlTypeOf(col.type),
      nullable: !col.notNull,
    }));
  return {
    ...v,
    columns,
    rows: (c: C, args: Value[] | null) => {
      const target = columns(c);
      const own = v.columns(c).map((x) => x.name.toLowerCase());
      const from = target.map((t) => own.indexOf(t.name.toLowerCase()));
      return v.rows(c, args).map((r) =>
        from.map((i, k) => {
          const val = i >= 0 ? r[i] : null;
          return val === null && target[k].nullable === false ? zeroOf(target[k].sqlType) : val;
        }),
      );
    },
  };
}

/** sys.* view columns a batch names that the catalogue lacks in some supported version ('view.column@version'). */
export function unknownColumns(refs: { view: string; column: string }[]): string[] {
  const out: string[] = [];
  for (const r of refs) {
    const all = allCatalogColumns(r.view);
    if (!all) {
      out.push(`${r.view} (not catalogued)`);
      continue;
    }
    for (let v = MIN_VERSION; v <= MAX_VERSION; v++) {
      if (!catalogColumns(r.view, v)!.some((c) => c.name === r.column)) out.push(`${r.view}.${r.column}@${v}`);
    }
  }
  return out;
}
