// Mutation test of the simulator's strictness: for every batch of every sql/ file, misspelled keywords, a wrong
// column name of each sys.* view it reads, and (for natively compiled modules) unsupported constructs must each be
// caught: by the grammar (Msg 102/156), the column catalogue, or the native-module check (Msg 10794). Prints the counts.
import assert from 'node:assert/strict';
import { listSqlFiles, loadSqlFile } from '../../src/db/sqlFiles';
import { unknownColumns } from '../../tools/sim/catalog';
import { checkNativeModule } from '../../tools/sim/grammar/native';
import { columnReferences } from '../../tools/sim/grammar/references';
import { findSyntaxError } from '../../tools/sim/grammar/tsql';

const KEYWORDS = [
  'SELECT',
  'FROM',
  'WHERE',
  'INSERT',
  'INTO',
  'VALUES',
  'UPDATE',
  'DELETE',
  'CREATE',
  'PROCEDURE',
  'TABLE',
  'BEGIN',
  'END',
  'WHILE',
  'IF',
  'ELSE',
  'DECLARE',
  'EXEC',
  'ALTER',
  'DROP',
  'JOIN',
  'GROUP',
  'ORDER',
  'UNION',
  'COMMIT',
  'TRANSACTION',
  'NULL',
  'PRIMARY',
  'DEFAULT',
  'CONSTRAINT',
  'RETURN',
  'THROW',
  'CASE',
  'WHEN',
  'THEN',
  'EXISTS',
  'SEQUENCE',
  'DATABASE',
];
const UNSUPPORTED_IN_NATIVE = [
  "PRINT N'x';",
  'BEGIN TRANSACTION;',
  'SET NOCOUNT ON;',
  'DECLARE @m bigint = NEXT VALUE FOR dbo.s;',
  "IF N'a' LIKE N'a%' RETURN;",
  'DECLARE @c int = COALESCE(1, 2);',
];

/** Code with comments and string literals blanked, so mutants land only in code. */
const codeOnly = (t: string) => t.replace(/--[^\n]*|\/\*[\s\S]*?\*\/|N?'(?:[^']|'')*'/g, (m) => m.replace(/[^\n]/g, ' '));

interface Tally {
  total: number;
  caught: number;
  missed: string[];
}
const tally = (): Tally => ({ total: 0, caught: 0, missed: [] });
const count = (t: Tally, caught: boolean, what: string) => {
  t.total++;
  if (caught) t.caught++;
  else t.missed.push(what);
};

describe('mutation test of the simulator strictness', () => {
  it('catches misspelled keywords, wrong column names and unsupported native constructs in every sql/ file', function () {
    this.timeout(900_000); // ~450 mutants, each parsed in full: minutes on a loaded machine
    const kw = tally(),
      col = tally(),
      nat = tally();
    for (const id of listSqlFiles()) {
      const f = loadSqlFile(id);
      f.batches.forEach((batch, bi) => {
        const code = codeOnly(batch);
        const where = `sql/${id}.sql batch ${bi + 1}`;
        // 1. One misspelling (last letter doubled) of the first occurrence of each keyword the batch uses.
        for (const k of KEYWORDS) {
          const m = new RegExp(`(?<![@\\w.#])${k}(?![\\w])`, 'i').exec(code);
          if (!m) continue;
          const mutant = batch.slice(0, m.index) + m[0] + m[0].slice(-1) + batch.slice(m.index + m[0].length);
          count(kw, findSyntaxError(mutant, f.parameters) !== null, `${where}: ${m[0]} -> ${m[0]}${m[0].slice(-1)}`);
        }
        // 2. Each sys.* column reference renamed (a trailing x) in turn: the catalogue check must flag it.
        const refs = columnReferences(batch);
        const seen = new Set<string>();
        for (const r of refs) {
          if (seen.has(`${r.view}.${r.column}`)) continue;
          seen.add(`${r.view}.${r.column}`);
          // A qualified reference (alias.column) anywhere, dynamic SQL included; else the bare name in code.
          // The one under the alias that reads the view first: a derived table may repeat the name under its own alias.
          const at =
            (r.alias ? new RegExp(`(?<=(?<![\\w@#])\\[?${r.alias}\\]?\\.\\[?)${r.column}\\b`, 'i').exec(r.dynamic ? batch : code) : null) ??
            new RegExp(`(?<=\\.)${r.column}\\b`, 'i').exec(r.dynamic ? batch : code) ??
            new RegExp(`(?<=[\\s(,=])${r.column}\\b`, 'i').exec(code);
          if (!at) continue;
          const mutant = batch.slice(0, at.index) + at[0] + 'x' + batch.slice(at.index + at[0].length);
          count(col, unknownColumns(columnReferences(mutant)).length > 0, `${where}: ${r.view}.${r.column} -> ${r.column}x`);
        }
        // 3. Natively compiled modules: each unsupported construct put at the top of the atomic block.
        if (/\bNATIVE_COMPILATION\b/i.test(code)) {
          const atomic = /BEGIN\s+ATOMIC\s+WITH\s*\([^)]*\)/i.exec(batch)!;
          for (const stmt of UNSUPPORTED_IN_NATIVE) {
            const mutant = batch.slice(0, atomic.index + atomic[0].length) + `\n    ${stmt}` + batch.slice(atomic.index + atomic[0].length);
            for (const v of [13, 17]) count(nat, checkNativeModule(mutant, v)?.number === 10794, `${where} @${v}: ${stmt}`);
          }
        }
      });
    }
    for (const [name, t] of [
      ['misspelled keywords', kw],
      ['wrong column names', col],
      ['unsupported native constructs', nat],
    ] as const) {
      console.log(`# mutants, ${name}: ${t.caught} of ${t.total} caught`);
      for (const m of t.missed) console.log(`#   not caught: ${m}`);
    }
    assert.ok(kw.total > 100 && col.total > 50 && nat.total > 20, 'too few mutants: the generator is broken');
    assert.deepEqual([...kw.missed, ...col.missed, ...nat.missed], []);
  });
});
