// What a custom workload's T-SQL says about itself, read without a server: its GO-separated batches, the variables it
// uses (bound to parameters by name), and whether it may write. The read-only test is deliberately conservative:
// only plain SELECT (no INTO), WAITFOR and EXEC of a few catalogue procedures count as reading; anything else writes.

/** Batches split on lines holding only GO (any case), as sqlcmd and SSMS split them; empty batches dropped. */
export function splitBatches(text: string): string[] {
  return text
    .split(/^[ \t]*go[ \t]*(?:--.*)?$/gim)
    .map((b) => b.trim())
    .filter((b) => masked(b).trim() !== '');
}

/**
 * The text with comments, string literals and [quoted] / "quoted" identifiers blanked (same length), so a keyword or
 * an @name inside them is not mistaken for code.
 */
export function masked(text: string): string {
  let out = '';
  let i = 0;
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  while (i < text.length) {
    const c = text[i];
    const two = text.slice(i, i + 2);
    let end = -1;
    if (two === '--') {
      end = text.indexOf('\n', i);
      if (end < 0) end = text.length;
    } else if (two === '/*') {
      // T-SQL block comments nest.
      let depth = 0;
      let j = i;
      while (j < text.length) {
        if (text.startsWith('/*', j)) {
          depth++;
          j += 2;
        } else if (text.startsWith('*/', j)) {
          depth--;
          j += 2;
          if (depth === 0) break;
        } else j++;
      }
      end = j;
    } else if (c === "'" || c === '"' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      while (j < text.length) {
        if (text[j] === close) {
          if (text[j + 1] === close) {
            j += 2;
            continue;
          }
          break;
        }
        j++;
      }
      end = Math.min(j + 1, text.length);
      // Keep the quote characters so 'N' prefixes and identifiers still read as tokens.
      out += c + blank(text.slice(i + 1, end - 1)) + (end - 1 > i ? text[end - 1] : '');
      i = end;
      continue;
    }
    if (end >= 0) {
      out += blank(text.slice(i, end));
      i = end;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/** The @variables a batch uses but does not DECLARE itself, lower-cased without the @, in order of first use. */
export function unboundVariables(batch: string): string[] {
  const code = masked(batch);
  const declared = new Set<string>();
  for (const m of code.matchAll(/\bdeclare\s+([^;]*)/gi)) {
    for (const v of m[1].matchAll(/(?:^|,)\s*@(\w+)/g)) declared.add(v[1].toLowerCase());
  }
  const seen: string[] = [];
  for (const m of code.matchAll(/(?<![@\w])@(\w+)/g)) {
    const n = m[1].toLowerCase();
    if (!declared.has(n) && !seen.includes(n)) seen.push(n);
  }
  return seen;
}

/** Catalogue procedures that only read. Anything else an EXEC calls is assumed to write. */
export const READ_ONLY_PROCS = ['sp_who', 'sp_who2', 'sp_help', 'sp_helptext', 'sp_helpindex', 'sp_columns', 'sp_tables', 'sp_server_info'];

const STATEMENT_START =
  /\b(select|insert|update|delete|merge|exec|execute|waitfor|with|declare|set|if|while|begin|commit|rollback|save|create|alter|drop|truncate|bulk|grant|revoke|deny|use|dbcc|backup|restore|kill|print|raiserror|throw|return|open|fetch|close|deallocate|receive|send|enable|disable|checkpoint|reconfigure|shutdown|update)\b/gi;

/**
 * Why the batches may write, or null when every statement only reads. Conservative: a statement is reading only when
 * it is a SELECT without INTO, a WAITFOR, or an EXEC of a procedure in READ_ONLY_PROCS.
 */
export function writeReason(batches: string[]): string | null {
  for (const batch of batches) {
    const code = masked(batch).replace(/\s+/g, ' ');
    // Keywords that start a statement, taken where they appear at the top level (not inside parentheses).
    let depth = 0;
    let top = '';
    for (const ch of code) {
      if (ch === '(') {
        top += depth === 0 ? '(' : ' ';
        depth++;
        continue;
      }
      if (ch === ')') {
        depth = Math.max(0, depth - 1);
        top += depth === 0 ? ')' : ' ';
        continue;
      }
      top += depth === 0 ? ch : ' ';
    }
    for (const m of top.matchAll(STATEMENT_START)) {
      const kw = m[1].toLowerCase();
      const rest = top.slice((m.index ?? 0) + m[0].length);
      if (kw === 'select') {
        if (/^[^;]*?\binto\b/i.test(rest.split(/\b(?:select|insert|update|delete|exec|execute|waitfor)\b/i)[0]))
          return 'SELECT ... INTO creates a table';
        continue;
      }
      if (kw === 'waitfor') continue;
      if (kw === 'with' && /^\s*\(/.test(rest)) continue; // a table hint: FROM t WITH (NOLOCK)
      if (kw === 'exec' || kw === 'execute') {
        const target = /^\s*(?:@\w+\s*=\s*)?([\w.[\]]+)/.exec(rest)?.[1]?.replace(/[[\]]/g, '').toLowerCase() ?? '';
        const name = target.split('.').pop() ?? '';
        if (target.startsWith('(') || !READ_ONLY_PROCS.includes(name))
          return target ? `it calls the procedure ${target}, not a known read-only one` : 'it runs dynamic SQL';
        continue;
      }
      return `${kw.toUpperCase()} may write`;
    }
  }
  return null;
}
