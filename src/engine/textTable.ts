// A plain-text table for the terminal and the notebook's text outputs: the first `left` columns (default 1)
// left-aligned, the rest right. fitTables fits the tables in a printed text to a width (the terminal's).
export function table(headers: string[], rows: string[][], left = 1): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < left ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const GAP = 2;
const RULE = /^-+(?: {2}-+)*$/;

/** A word too long for `width` in pieces: after an underscore where one falls (SOS_SUSPEND_ QUEUE), else cut. */
function pieces(word: string, width: number): string[] {
  const out: string[] = [];
  while (word.length > width) {
    const at = word.lastIndexOf('_', width - 1);
    const cut = at > 0 ? at + 1 : width;
    out.push(word.slice(0, cut));
    word = word.slice(cut);
  }
  return [...out, word];
}

/** `text` in lines of at most `width`, broken between words (a longer word broken as pieces() says). */
function wrap(text: string, width: number): string[] {
  if (text.length <= width) return [text];
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const parts = word.length > width ? pieces(word, width) : [word];
    for (const [k, part] of parts.entries()) {
      if (line && k === 0 && line.length + 1 + part.length <= width) line += ` ${part}`;
      else {
        if (line) out.push(line);
        line = part;
      }
    }
  }
  if (line) out.push(line);
  return out.length ? out : [''];
}

/** The longest piece a header keeps whole: its words, broken after underscores. */
const longestToken = (s: string) => Math.max(0, ...s.split(/\s+|(?<=_)/).map((w) => w.length));

/** Column widths within `budget`: headers wrap first (cells kept whole), then the widest cells, down to a floor. */
function fitWidths(headers: string[], rows: string[][], budget: number): number[] {
  const natural = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const cells = headers.map((h, i) => Math.max(longestToken(h), ...rows.map((r) => r[i].length)));
  const sum = (ws: number[]) => ws.reduce((a, b) => a + b, 0);
  // Largest cap c with sum(max(floor, min(from, c))) within budget; the floor where even that does not fit.
  const capped = (from: number[], floor: number[]) => {
    const at = (c: number) => from.map((w, i) => Math.max(floor[i], Math.min(w, c)));
    let lo = 0;
    let hi = Math.max(...from);
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (sum(at(mid)) <= budget) lo = mid;
      else hi = mid - 1;
    }
    return at(lo);
  };
  if (sum(cells) <= budget) return capped(natural, cells);
  // Cells wrap too. Floors, each narrower: a few words a line; the longest word; at last the longest word of a cell
  // (a header's long word cut, never a number). From the first floor that fits, the room left is shared in
  // proportion to what each column would need more; where none fits, the narrowest (wider than asked).
  const cellWord = headers.map((_, i) => Math.max(1, ...rows.map((r) => Math.min(longestToken(r[i]), 24))));
  const word = headers.map((h, i) => Math.max(longestToken(h), cellWord[i]));
  const levels = [
    cells,
    headers.map((h, i) => Math.max(word[i], Math.min(cells[i], 12))),
    word,
    headers.map((h, i) => Math.max(cellWord[i], Math.min(longestToken(h), 6))),
  ];
  for (let k = 1; k < levels.length; k++) {
    const [lo, hi] = [levels[k], levels[k - 1]];
    if (sum(lo) > budget) continue;
    const want = hi.map((h, i) => h - lo[i]);
    const room = budget - sum(lo);
    return lo.map((l, i) => l + (sum(want) ? Math.floor((Math.min(room, sum(want)) * want[i]) / sum(want)) : 0));
  }
  return levels[levels.length - 1];
}

/** One parsed table: its lines' span in the text, its columns' widths and alignment, its header and rows. */
function parseTable(lines: string[], ruleAt: number): { end: number; headers: string[]; rows: string[][]; right: boolean[] } | null {
  const widths = lines[ruleAt].split('  ').map((d) => d.length);
  const total = lines[ruleAt].length;
  const spans = widths.map((w, i) => widths.slice(0, i).reduce((a, b) => a + b + GAP, 0));
  const fits = (l: string) => l.length === total && spans.slice(1).every((s) => l.slice(s - GAP, s) === '  ');
  if (ruleAt === 0 || !fits(lines[ruleAt - 1])) return null;
  let end = ruleAt + 1;
  while (end < lines.length && fits(lines[end])) end++;
  const cut = (l: string) => spans.map((s, i) => l.slice(s, s + widths[i]));
  const raw = lines.slice(ruleAt + 1, end).map(cut);
  // A column is right-aligned when some cell of it starts with padding (table() pads the right-aligned ones on the left).
  const right = widths.map((_, i) => raw.some((r) => /^ /.test(r[i]) && r[i].trim() !== ''));
  return { end, headers: cut(lines[ruleAt - 1]).map((c) => c.trim()), rows: raw.map((r) => r.map((c) => c.trim())), right };
}

/**
 * The tables in `text` (as table() draws them) fitted to `width`: each wider one wraps its headers, then its widest
 * cells, a row's lines kept together and rows apart by a blank line when any wraps. Other lines are untouched.
 */
export function fitTables(text: string, width: number): string {
  if (!Number.isFinite(width)) return text;
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const t = RULE.test(lines[i]) && lines[i].length > width && lines[i].includes('  ') ? parseTable(lines, i) : null;
    if (!t) {
      out.push(lines[i]);
      continue;
    }
    out.pop(); // the header line, drawn again below
    const ws = fitWidths(t.headers, t.rows, width - GAP * (t.headers.length - 1));
    // A column whose cells now wrap is text: left-aligned, as a paragraph reads.
    const right = t.right.map((r, j) => r && t.rows.every((row) => row[j].length <= ws[j]));
    const draw = (cells: string[]) => {
      const wrapped = cells.map((c, j) => wrap(c, ws[j]));
      const height = Math.max(...wrapped.map((w) => w.length));
      return Array.from({ length: height }, (_, k) =>
        wrapped
          .map((w, j) => {
            const c = w[k] ?? '';
            return right[j] ? c.padStart(ws[j]) : c.padEnd(ws[j]);
          })
          .join('  ')
          .trimEnd(),
      );
    };
    out.push(...draw(t.headers), ws.map((w) => '-'.repeat(w)).join('  '));
    // Rows that wrap: the leading cells the row shares with the one above (its arm, threads) are said once.
    const rows = t.rows.map((r, k) => {
      const same = k > 0 && ws.some((w, j) => t.rows.some((x) => x[j].length > w));
      let lead = 0;
      while (same && lead < r.length - 1 && r[lead] === t.rows[k - 1][lead]) lead++;
      return draw(r.map((c, j) => (j < lead ? '' : c)));
    });
    const tall = rows.some((r) => r.length > 1);
    rows.forEach((r, k) => out.push(...(tall && k > 0 ? [''] : []), ...r));
    i = t.end - 1;
  }
  return out.join('\n');
}
