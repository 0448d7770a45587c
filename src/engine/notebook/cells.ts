// Do a notebook's visible cells still say what its record will run? The cells a reader goes by (the title, the knobs
// and load, a preset's arms, the command line, the workload's T-SQL) are written again from the record and compared
// with the file's; each difference is named with the line the reader sees and the line the record implies. Cells made
// from sql/ files, results, charts and the summary are left out: they do not describe what a re-run does.
import type { Cell, Notebook } from './nbformat';
import { buildNotebook, type SpinlabNotebookRecord } from './write';

const text = (c: Cell) => (Array.isArray(c.source) ? c.source.join('') : String(c.source ?? '')).replace(/\r\n/g, '\n');

/** The cells that describe what runs, by a name a reader can find them with. */
function describingCells(cells: readonly Cell[]): Map<string, string> {
  const out = new Map<string, string>();
  const count = new Map<string, number>();
  const put = (name: string, t: string) => {
    const n = (count.get(name) ?? 0) + 1;
    count.set(name, n);
    out.set(n === 1 ? name : `${name} (${n})`, t);
  };
  for (const c of cells) {
    const t = text(c);
    const first = t.split('\n', 1)[0];
    if (c.cell_type === 'markdown') {
      if (/^# /.test(first)) put('the title cell', t);
      else if (/^## Knobs/.test(first)) put('the Knobs cell', t);
      else if (/^## Preset/.test(first)) put('the Preset cell', t);
      else if (/^## Replay by hand/.test(first)) put('the Replay by hand cell (command lines)', t);
      else if (/^## Custom workload/.test(first)) put('the Custom workload cell', t);
      continue;
    }
    const role = (c.metadata?.spinlab as { role?: string } | undefined)?.role;
    const statement = (c.metadata?.spinlab as { statement?: unknown } | undefined)?.statement;
    if (role === 'workload')
      put(statement === 'params' ? 'the parameter query cell' : `the T-SQL cell of statement ${String(statement)}`, t);
    else if (role === 'replay' && /^-- Workload:/.test(first)) put('the workload call cell', t);
    else if (role === 'replay' && /^-- (Delayed durability|Process affinity) (?!back)/.test(first)) put('the knob T-SQL cell', t);
  }
  return out;
}

const clip = (s: string, at: number) => {
  const from = Math.max(0, at - 60);
  return `${from ? '...' : ''}${s.slice(from, from + 160)}${s.length > from + 160 ? '...' : ''}`;
};

function firstDifference(shown: string, expected: string): string {
  const a = shown.split('\n').map((l) => l.trimEnd());
  const b = expected.split('\n').map((l) => l.trimEnd());
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    let at = 0;
    while (at < x.length && x[at] === y[at]) at++;
    return `line ${i + 1} shows "${clip(x, at)}" where the record says "${clip(y, at)}"`;
  }
  return '';
}

/** What in the notebook's visible cells disagrees with its record; empty when they agree. */
export function cellMismatches(notebook: Notebook, record: SpinlabNotebookRecord): string[] {
  const shown = describingCells(notebook.cells ?? []);
  const expected = describingCells(buildNotebook(record.experiments).cells);
  const out: string[] = [];
  for (const [name, want] of expected) {
    const have = shown.get(name);
    if (have === undefined) out.push(`${name} is missing from the notebook; the record has it: "${clip(want.split('\n', 1)[0], 0)}".`);
    else {
      const d = firstDifference(have, want);
      if (d) out.push(`${name}: ${d}.`);
    }
  }
  for (const name of shown.keys()) if (!expected.has(name)) out.push(`${name} is in the notebook but not in its record (it does not run).`);
  return out;
}
