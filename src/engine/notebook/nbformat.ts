// The parts of Jupyter's nbformat 4.5 that Spinlock Lab writes: markdown cells, SQL code cells, and display_data
// outputs (HTML, plain text, SVG, and our own series type). Cell ids are required from 4.5 on; they are derived from
// the content so that saving the same experiment twice gives the same file.
import { createHash } from 'node:crypto';

export type MimeBundle = Record<string, string | string[] | object>;

export interface DisplayDataOutput {
  output_type: 'display_data';
  data: MimeBundle;
  metadata: Record<string, unknown>;
}

export interface MarkdownCell {
  cell_type: 'markdown';
  id: string;
  metadata: Record<string, unknown>;
  source: string[];
}

export interface CodeCell {
  cell_type: 'code';
  id: string;
  metadata: Record<string, unknown>;
  source: string[];
  execution_count: null;
  outputs: DisplayDataOutput[];
}

export type Cell = MarkdownCell | CodeCell;

export interface Notebook {
  nbformat: 4;
  nbformat_minor: 5;
  metadata: Record<string, unknown>;
  cells: Cell[];
}

/** What Azure Data Studio's SQL kernel and the MSSQL extension's SQL notebooks both open as SQL. */
export const SQL_KERNELSPEC = { name: 'SQL', display_name: 'SQL', language: 'sql' } as const;
export const SQL_LANGUAGE_INFO = { name: 'sql', version: '' } as const;

/** nbformat stores multi-line text as a list of lines, each but the last ending in \n. */
export function lines(text: string): string[] {
  const parts = text.split('\n');
  return parts.map((l, i) => (i < parts.length - 1 ? `${l}\n` : l)).filter((l, i, a) => !(i === a.length - 1 && l === ''));
}

export class NotebookBuilder {
  private readonly cells: Cell[] = [];
  private readonly seen = new Map<string, number>();

  private id(kind: string, text: string): string {
    const base = createHash('sha256').update(kind).update('\0').update(text).digest('hex').slice(0, 12);
    const n = this.seen.get(base) ?? 0;
    this.seen.set(base, n + 1);
    return n ? `${base}-${n}` : base;
  }

  markdown(text: string, metadata: Record<string, unknown> = {}): this {
    this.cells.push({ cell_type: 'markdown', id: this.id('md', text), metadata, source: lines(text) });
    return this;
  }

  /** A SQL cell: runnable in ADS, VS Code SQL notebooks and SSMS (paste). */
  sql(text: string, outputs: DisplayDataOutput[] = [], metadata: Record<string, unknown> = {}): this {
    this.cells.push({
      cell_type: 'code',
      id: this.id('sql', text + JSON.stringify(metadata)),
      source: lines(text),
      execution_count: null,
      outputs,
      metadata: { ...metadata, vscode: { languageId: 'sql' } },
    });
    return this;
  }

  build(metadata: Record<string, unknown>): Notebook {
    return {
      nbformat: 4,
      nbformat_minor: 5,
      metadata: { kernelspec: { ...SQL_KERNELSPEC }, language_info: { ...SQL_LANGUAGE_INFO }, ...metadata },
      cells: this.cells,
    };
  }
}

export function displayData(data: MimeBundle, metadata: Record<string, unknown> = {}): DisplayDataOutput {
  const out: MimeBundle = {};
  for (const [k, v] of Object.entries(data)) out[k] = typeof v === 'string' && !k.endsWith('json') ? lines(v) : v;
  return { output_type: 'display_data', data: out, metadata };
}
