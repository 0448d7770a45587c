// Parameter rows for a custom workload, as SqlQueryStress users know them: from a CSV file or a query's result, bound
// by column name to the batch's variables, a different row for each call. Values always travel as typed RPC
// parameters (sp_executesql), never spliced into the text; each column's type is inferred once from all its values.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DbSession } from '../../db/client';
import type { DbTarget } from '../../db/target';
import type { CustomWorkload } from '../../shared/experiment';
import { SpinlabError } from '../../shared/spinlabError';
import { plural } from '../../shared/plural';

export type ParamType = 'int' | 'bigint' | 'float' | 'bit' | 'nvarchar(4000)';
export interface ParamColumn {
  name: string;
  type: ParamType;
}
export interface ParamTable {
  columns: ParamColumn[];
  rows: unknown[][];
}

export class ParamsError extends SpinlabError {
  constructor(message: string) {
    super('user-input', message);
  }
}

/** RFC 4180 CSV: quoted fields, doubled quotes, CRLF or LF; a trailing empty line ignored. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const s = text.replace(/^\uFEFF/, '');
  while (i < s.length) {
    const c = s[i];
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') {
        quoted = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      i++;
      continue;
    }
    if (c === ',') {
      row.push(field);
      field = '';
      i++;
      continue;
    }
    if (c === '\r' && s[i + 1] === '\n') i++;
    if (c === '\n' || c === '\r') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
      continue;
    }
    field += c;
    i++;
  }
  if (quoted) throw new ParamsError('the CSV ends inside a quoted field: a closing " is missing');
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0] === ''));
}

const INT = /^-?\d+$/;
const FLOAT = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

function inferType(values: unknown[]): ParamType {
  const present = values.filter((v) => v !== null);
  if (present.length === 0) return 'nvarchar(4000)';
  if (present.every((v) => typeof v === 'boolean')) return 'bit';
  const texts = present.map((v) => (typeof v === 'number' || typeof v === 'bigint' ? String(v) : typeof v === 'string' ? v : null));
  if (texts.every((t) => t !== null && INT.test(t))) {
    return texts.every((t) => Math.abs(Number(t)) <= 2147483647) ? 'int' : 'bigint';
  }
  if (texts.every((t) => t !== null && FLOAT.test(t))) return 'float';
  return 'nvarchar(4000)';
}

function convert(v: unknown, type: ParamType): unknown {
  if (v === null || v === undefined) return null;
  switch (type) {
    case 'int':
    case 'float':
      return Number(v);
    case 'bigint':
      return String(v); // tedious takes bigint as a string, keeping precision
    case 'bit':
      return Boolean(v);
    default:
      return v instanceof Date ? v.toISOString() : String(v);
  }
}

/** Builds a table from a header and rows of raw values: column names lose a leading @; types inferred per column. */
export function paramTable(header: string[], raw: unknown[][], where: string): ParamTable {
  const names = header.map((h) => h.trim().replace(/^@/, ''));
  names.forEach((n, i) => {
    if (!/^\w+$/.test(n))
      throw new ParamsError(
        `${where}: column ${i + 1} is named '${header[i]}'; a parameter column needs a name made of letters, digits and _ (the variable's name, with or without @).`,
      );
  });
  const dup = names.find((n, i) => names.findIndex((m) => m.toLowerCase() === n.toLowerCase()) !== i);
  if (dup) throw new ParamsError(`${where}: the column '${dup}' appears twice.`);
  if (raw.length === 0) throw new ParamsError(`${where}: no rows; a parameter source needs at least one row of values.`);
  raw.forEach((r, i) => {
    if (r.length !== names.length)
      throw new ParamsError(`${where}: row ${i + 1} has ${plural(r.length, 'value')} for ${plural(names.length, 'column')}.`);
  });
  const columns = names.map((name, c) => ({ name, type: inferType(raw.map((r) => r[c])) }));
  return { columns, rows: raw.map((r) => r.map((v, c) => convert(v, columns[c].type))) };
}

/** A CSV file with a header row naming the variables; an empty field is NULL. */
export function paramsFromCsv(file: string): ParamTable {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new ParamsError(`--params-csv ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
  return paramsFromCsvText(text, `--params-csv ${file}`);
}

export function paramsFromCsvText(text: string, where: string): ParamTable {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw new ParamsError(`${where}: the file is empty; write a header row of variable names, then one row per call.`);
  return paramTable(
    header,
    rows.map((r) => r.map((v) => (v === '' ? null : v))),
    where,
  );
}

/** CSV text up to this size travels inside the experiment record (and so the notebook); a larger file by its path. */
export const EMBED_CSV_MAX_BYTES = 256 * 1024;

/** { csvText } for a parameter file small enough to keep in the record, else {}. */
export function embeddedCsv(file: string): { csvText?: string } {
  try {
    if (fs.statSync(file).size > EMBED_CSV_MAX_BYTES) return {};
    return { csvText: fs.readFileSync(file, 'utf8') };
  } catch {
    return {};
  }
}

/** Checks every variable the batches use is a column of the table (or there is no table and no variable). */
export function checkBinding(variables: string[], table: ParamTable | null): void {
  if (variables.length === 0) return;
  const have = new Set((table?.columns ?? []).map((c) => c.name.toLowerCase()));
  const missing = variables.filter((v) => !have.has(v));
  if (missing.length === 0) return;
  if (!table) {
    throw new ParamsError(
      `The workload uses ${missing.map((m) => `@${m}`).join(', ')} without declaring it: give values with --params-csv FILE or --params-query QUERY (a column per variable), or DECLARE it in the batch.`,
    );
  }
  throw new ParamsError(
    `The workload uses ${missing.map((m) => `@${m}`).join(', ')}, which the parameter source lacks (its columns: ${table.columns.map((c) => c.name).join(', ')}).`,
  );
}

export type PickOrder = 'round-robin' | 'random';
export type PickScope = 'session' | 'shared';

/** Hands out row indexes: round robin or random, each session on its own cursor or all sessions on one. */
export class RowPicker {
  private shared = 0;
  private readonly cursors: number[] = [];
  constructor(
    private readonly count: number,
    private readonly order: PickOrder,
    private readonly scope: PickScope,
    private readonly random: () => number = Math.random,
  ) {}

  next(session: number): number {
    if (this.order === 'random') return Math.floor(this.random() * this.count) % this.count;
    if (this.scope === 'shared') return this.shared++ % this.count;
    // Per session: each starts at its own offset so N sessions do not all send row 0 first.
    const c = this.cursors[session] ?? session;
    this.cursors[session] = c + 1;
    return c % this.count;
  }
}

/** Runs the parameter query once, in the workload's database, and keeps its rows (never saved with the results). */
export async function paramsFromQuery(target: DbTarget, database: string, query: string): Promise<ParamTable> {
  const s = await DbSession.open(target, { database, appName: 'Spinlock Lab' });
  try {
    const [rows = []] = await s.runFile({
      id: '(--params-query)',
      purpose: "the user's parameter query",
      permission: '',
      parameters: '',
      batches: [query],
      batchLines: [1],
    });
    if (!rows.length)
      throw new ParamsError('--params-query returned no rows; it must return one row per set of values, a column per variable.');
    const header = Object.keys(rows[0]);
    return paramTable(
      header,
      rows.map((r) => header.map((h) => r[h] ?? null)),
      '--params-query',
    );
  } finally {
    await s.close();
  }
}

/**
 * Where a saved workload's CSV rows come from on a re-run: the text the record carries; else the file beside the
 * notebook (its path relative to it); else the path it was read from when it ran.
 */
export function csvSource(
  p: NonNullable<CustomWorkload['params']>,
  notebookDir?: string,
): { kind: 'embedded' } | { kind: 'file'; file: string; why: 'near-notebook' | 'original' } {
  if (typeof p.csvText === 'string') return { kind: 'embedded' };
  if (p.nearNotebook && notebookDir) return { kind: 'file', file: path.resolve(notebookDir, p.nearNotebook), why: 'near-notebook' };
  return { kind: 'file', file: p.from, why: 'original' };
}

/** A saved workload's parameter rows, read again from where they came from (for a re-run). */
export async function reloadParams(target: DbTarget, w: CustomWorkload, notebookDir?: string): Promise<ParamTable | null> {
  if (!w.params) return null;
  if (w.params.kind === 'query') return paramsFromQuery(target, w.database, w.params.from);
  const src = csvSource(w.params, notebookDir);
  return src.kind === 'embedded'
    ? paramsFromCsvText(w.params.csvText!, `the parameter rows saved with the notebook (from ${path.basename(w.params.from)})`)
    : paramsFromCsv(src.file);
}
