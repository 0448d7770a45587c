// Statically checked typing rules for every statement in sql/, from Microsoft's docs:
// - "Constants (Transact-SQL)": an integer constant greater than 2,147,483,647 is typed decimal, not bigint; compared
//   with a bigint key that converts the column and costs a seek (the review's finding on the ring-buffer slot key).
import assert from 'node:assert/strict';
import { listSqlFiles, loadSqlFile } from '../../src/db/sqlFiles';

/** The batch without comments and string literals (their digits are not constants). */
function codeOnly(text: string): string {
  return text
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/N?'(?:[^']|'')*'/g, "''");
}

/** Integer constants above the int range that are not the operand of CAST(... AS bigint). */
export function decimalTypedIntegers(text: string): string[] {
  const code = codeOnly(text);
  const out: string[] = [];
  for (const m of code.matchAll(/(?<![\w.@$#])(\d+)(?![\w.])/g)) {
    if (BigInt(m[1]) <= 2147483647n) continue;
    const before = code.slice(0, m.index).replace(/\s+/g, ' ');
    const after = code.slice(m.index! + m[1].length).replace(/\s+/g, ' ');
    if (/CAST ?\( ?$/i.test(before) && /^ ?AS bigint ?\)/i.test(after)) continue;
    out.push(m[1]);
  }
  return out;
}

describe('sql/ typing', () => {
  it('finds a bare integer constant above the int range (the rule itself)', () => {
    assert.deepEqual(decimalTypedIntegers('WHERE k = (@s % 16) * 4294967296 + 1 -- 9999999999'), ['4294967296']);
    assert.deepEqual(decimalTypedIntegers("WHERE k = CAST(4294967296 AS bigint) AND m = N'9999999999'"), []);
  });

  it('no statement in sql/ compares or computes with a decimal-typed integer constant', () => {
    for (const id of listSqlFiles()) {
      const f = loadSqlFile(id);
      f.batches.forEach((b, i) => {
        assert.deepEqual(
          decimalTypedIntegers(b),
          [],
          `${id} batch ${i + 1}: an integer constant above 2147483647 is decimal; write CAST(n AS bigint)`,
        );
      });
    }
  });
});
