// The simulator's syntax check: the independent T-SQL grammar (antlr4ts-sql) plus the documented shims accept every
// batch the product sends and answer a typo as SQL Server does (Msg 102/156, level 15, the line in the batch).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { listSqlFiles, loadSqlFile } from '../../src/engine/sqlFiles';
import { findSyntaxError, syntaxErrorMessage } from '../../tools/sim/grammar/tsql';

describe('T-SQL grammar in the simulator', () => {
  it('parses every batch of every sql/ file (with its sp_executesql parameters declared)', () => {
    const failed: string[] = [];
    for (const id of listSqlFiles()) {
      const f = loadSqlFile(id);
      f.batches.forEach((b, i) => {
        const e = findSyntaxError(b, f.parameters);
        if (e) failed.push(`sql/${id}.sql batch ${i + 1}: line ${e.line} near '${e.near}'`);
      });
    }
    assert.deepEqual(failed, []);
  });

  it('answers a misspelled keyword inside a procedure body with Msg 102 on its line', () => {
    const text = 'CREATE PROCEDURE dbo.p\n    @n int\nAS\nBEGIN\n    SET NOCOUNT ON;\n    INSRT INTO dbo.t (c1) VALUES (@n);\nEND;';
    const e = findSyntaxError(text);
    assert.ok(e, 'a typo must be a syntax error');
    assert.equal(e.line, 6);
    const msg = syntaxErrorMessage(e);
    assert.equal(msg.class, 15);
    assert.ok(msg.number === 102 || msg.number === 156, `Msg ${msg.number}`);
    assert.equal(msg.line, 6);
  });

  it('names a reserved keyword with Msg 156', () => {
    const e = findSyntaxError('SELECT name FROM sys.objects WHERE WHERE name = 1');
    assert.ok(e);
    assert.deepEqual([syntaxErrorMessage(e).number, syntaxErrorMessage(e).message], [156, "Incorrect syntax near the keyword 'WHERE'."]);
  });

  it('checks BEGIN ATOMIC options against the documented list', () => {
    const ok = "CREATE PROCEDURE dbo.p WITH NATIVE_COMPILATION, SCHEMABINDING AS\nBEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')\n  SELECT 1;\nEND;";
    assert.equal(findSyntaxError(ok), null);
    const bad = ok.replace('SNAPSHOT', 'SNAPSHOTT');
    assert.equal(findSyntaxError(bad)?.line, 2);
    assert.equal(findSyntaxError(ok.replace('NATIVE_COMPILATION', 'NATIVE_COMPILATON'))?.line, 1);
  });

  it('accepts what SQL Server accepts in the product\'s shapes', () => {
    for (const s of ['SELECT NEXT VALUE FOR dbo.s AS k;', 'ALTER DATABASE CURRENT SET DELAYED_DURABILITY = FORCED;',
      'WITH c AS (SELECT 1 AS a) SELECT a FROM c;', 'ALTER SERVER CONFIGURATION SET PROCESS AFFINITY CPU = AUTO;']) {
      assert.equal(findSyntaxError(s), null, s);
    }
  });
});
