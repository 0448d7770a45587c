// The simulator's syntax check: the independent T-SQL grammar (antlr4ts-sql) plus the documented shims accept every
// batch the product sends and answer a typo as SQL Server does (Msg 102/156, level 15, the line in the batch).
import assert from 'node:assert/strict';
import { listSqlFiles, loadSqlFile } from '../../src/db/sqlFiles';
import { findSyntaxError, syntaxErrorMessage } from '../../tools/sim/grammar/tsql';
import { checkNativeModule } from '../../tools/sim/grammar/native';

describe('T-SQL grammar in the simulator', () => {
  it('parses every batch of every sql/ file (with its sp_executesql parameters declared)', function () {
    this.timeout(300_000);
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
    const ok =
      "CREATE PROCEDURE dbo.p WITH NATIVE_COMPILATION, SCHEMABINDING AS\nBEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')\n  SELECT 1;\nEND;";
    assert.equal(findSyntaxError(ok), null);
    const bad = ok.replace('SNAPSHOT', 'SNAPSHOTT');
    assert.equal(findSyntaxError(bad)?.line, 2);
    assert.equal(findSyntaxError(ok.replace('NATIVE_COMPILATION', 'NATIVE_COMPILATON'))?.line, 1);
  });

  it("accepts what SQL Server accepts in the product's shapes", () => {
    for (const s of [
      'SELECT NEXT VALUE FOR dbo.s AS k;',
      'ALTER DATABASE CURRENT SET DELAYED_DURABILITY = FORCED;',
      'WITH c AS (SELECT 1 AS a) SELECT a FROM c;',
      'ALTER SERVER CONFIGURATION SET PROCESS AFFINITY CPU = AUTO;',
    ]) {
      assert.equal(findSyntaxError(s), null, s);
    }
  });
});

describe('natively compiled modules at CREATE time', () => {
  const proc = (body: string, options = 'NATIVE_COMPILATION, SCHEMABINDING') =>
    `CREATE PROCEDURE dbo.p @n int\nWITH ${options}\nAS\nBEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')\n${body}\nEND;`;

  it('accepts every natively compiled module the product deploys, at every version', function () {
    this.timeout(120_000);
    const refused: string[] = [];
    for (const id of listSqlFiles()) {
      loadSqlFile(id).batches.forEach((b, i) => {
        for (let v = 13; v <= 17; v++) {
          const m = checkNativeModule(b, v);
          if (m) refused.push(`sql/${id}.sql batch ${i + 1} at ${v}: ${m.message}`);
        }
      });
    }
    assert.deepEqual(refused, []);
  });

  it('refuses what the docs list, with Msg 10794 on the line', () => {
    const cases: [string, string][] = [
      ['    DECLARE @x bigint = NEXT VALUE FOR dbo.s;', "The operator 'NEXT VALUE FOR' is not supported with natively compiled modules."],
      ['    BEGIN TRANSACTION;', "The feature 'BEGIN TRANSACTION' is not supported with natively compiled modules."],
      ["    SELECT c1 FROM dbo.t WHERE c2 LIKE N'a%';", "The operator 'LIKE' is not supported with natively compiled modules."],
      [
        '    INSERT INTO dbo.t (c1) VALUES (1), (2);',
        "The feature 'multi-row INSERT ... VALUES statements' is not supported with natively compiled modules.",
      ],
      ['    SELECT COALESCE(@n, 0);', "The function 'COALESCE' is not supported with natively compiled modules."],
      ['    SET NOCOUNT ON;', "The set option 'SET' is not supported with natively compiled modules."],
    ];
    for (const [body, message] of cases) {
      const m = checkNativeModule(proc(body), 16);
      assert.ok(m, body);
      assert.deepEqual([m.number, m.class, m.message, m.line], [10794, 16, message, 5]);
    }
    assert.equal(checkNativeModule(proc('    SELECT @n;', 'NATIVE_COMPILATION'), 16)?.number, 10794);
    assert.equal(
      checkNativeModule(proc('    SELECT CASE WHEN @n = 1 THEN 1 ELSE 0 END;'), 13)?.message,
      "The feature 'CASE' is not supported with natively compiled modules.",
    );
    assert.equal(checkNativeModule(proc('    SELECT CASE WHEN @n = 1 THEN 1 ELSE 0 END;'), 14), null);
    assert.equal(
      checkNativeModule('CREATE PROCEDURE dbo.q AS BEGIN BEGIN TRANSACTION; COMMIT; END;', 16),
      null,
      'interpreted procedures are not checked',
    );
  });
});
