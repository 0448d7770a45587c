// The simulator's session layer in pieces: splitting batches into statements, binding parameters by position and
// name, RAISERROR's message formatting and severity, and the types SQL Server gives literals.
import assert from 'node:assert/strict';
import { lex, splitBatch } from '../../tools/sim/grammar/lex';
import { bindParameters, parseParamDefs, procedureParameters } from '../../tools/sim/model/params';
import { formatMessage, raiseError } from '../../tools/sim/model/transactions';
import { selectSyntax } from '../../tools/sim/session/layer';
import { execSetup } from '../helpers/simExec';
import { SqlError } from '../../tools/sim/model/errors';
import type { RpcParam } from '../../tools/sim/tds/contract';

const texts = (sql: string) => splitBatch(sql).map((s) => s.text);
const p = (name: string, value: number | string | null): RpcParam => ({ name, value, output: false, sqlType: { type: 'int' } });
const sqlNumber = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof SqlError) return e.messages[0].number;
    throw e;
  }
  return 0;
};

describe('simulator session layer', () => {
  it('splits batches at ; and where a statement evidently starts, never inside strings, comments or parentheses', () => {
    assert.deepEqual(texts('SELECT 1; SELECT 2'), ['SELECT 1', 'SELECT 2']);
    assert.deepEqual(texts('SET NOCOUNT ON\nSET ANSI_NULLS ON\nSELECT 1'), ['SET NOCOUNT ON', 'SET ANSI_NULLS ON', 'SELECT 1']);
    assert.deepEqual(texts("PRINT 'a; SELECT b' -- ; SELECT c\nSELECT (SELECT 1)"), ["PRINT 'a; SELECT b'", 'SELECT (SELECT 1)']);
    assert.deepEqual(texts('SELECT 1 UNION ALL SELECT 2'), ['SELECT 1 UNION ALL SELECT 2']);
    assert.deepEqual(texts('INSERT INTO t (a) SELECT 1'), ['INSERT INTO t (a) SELECT 1']);
    assert.deepEqual(texts('UPDATE t SET a = 1 WHERE b = 2'), ['UPDATE t SET a = 1 WHERE b = 2']);
    assert.deepEqual(texts('BEGIN TRAN SELECT 1 COMMIT'), ['BEGIN TRAN', 'SELECT 1', 'COMMIT']);
    assert.deepEqual(texts('IF 1 = 1 SELECT 1 ELSE SELECT 2'), ['IF 1 = 1 SELECT 1 ELSE SELECT 2']);
  });

  it('reports unclosed quotes and comments as SQL Server does (105, 113)', () => {
    assert.throws(
      () => lex("SELECT 'abc"),
      (e: { number: number }) => e.number === 105,
    );
    assert.throws(
      () => lex('SELECT 1 /* open'),
      (e: { number: number }) => e.number === 113,
    );
    assert.equal(lex("SELECT N'it''s'")[1].v, "it's");
    assert.equal(lex("SELECT N'x'")[1].unicode, true);
  });

  it('reads parameter declarations of sp_executesql and CREATE PROCEDURE', () => {
    assert.deepEqual(
      parseParamDefs("@a int, @b nvarchar(10) = N'x' OUTPUT, @c decimal(5, 2)").map((d) => [d.name, d.type, d.output, d.hasDefault]),
      [
        ['@a', 'int', false, false],
        ['@b', 'nvarchar(10)', true, true],
        ['@c', 'decimal(5,2)', false, false],
      ],
    );
    const defs = procedureParameters(
      'CREATE PROCEDURE dbo.p\n    @key_base bigint,\n    @rows bigint = NULL\nAS\nBEGIN SET NOCOUNT ON; END',
    );
    assert.deepEqual(
      defs.map((d) => [d.name, d.hasDefault]),
      [
        ['@key_base', false],
        ['@rows', true],
      ],
    );
  });

  it("binds values by position, then by name, with SQL Server's errors 119, 8144, 8145 and 201", () => {
    const defs = parseParamDefs('@a int, @b int, @c int = 3');
    const bound = bindParameters('dbo.p', defs, [p('', 1), p('@b', 2)]);
    assert.deepEqual(
      [...bound].map(([k, v]) => [k, v.value]),
      [
        ['@a', 1],
        ['@b', 2],
      ],
    );
    assert.equal(
      sqlNumber(() => bindParameters('dbo.p', defs, [p('@a', 1), p('', 2)])),
      119,
    );
    assert.equal(
      sqlNumber(() => bindParameters('dbo.p', defs, [p('', 1), p('', 2), p('', 3), p('', 4)])),
      8144,
    );
    assert.equal(
      sqlNumber(() => bindParameters('dbo.p', defs, [p('', 1), p('@zz', 2)])),
      8145,
    );
    assert.equal(
      sqlNumber(() => bindParameters('dbo.p', defs, [p('', 1)])),
      201,
    );
  });

  it('formats RAISERROR messages and sends severity 10 as class 0', () => {
    assert.equal(
      formatMessage('%s has %d rows (%5.2s|%-4d|%04d|%x|%%)', ['t', 12, 'abcdef', 7, 42, 255]),
      't has 12 rows (   ab|7   |0042|ff|%)',
    );
    const [info] = raiseError('at %d', 10, 1, [7], false, false);
    assert.deepEqual([info.kind, info.number, info.class, info.message], ['info', 50000, 0, 'at 7']);
    const [e] = raiseError('x', 16, 2, [], false, false);
    assert.deepEqual([e.kind, e.class, e.state], ['error', 16, 2]);
    assert.equal(raiseError('x', 20, 1, [], false, false)[0].number, 2754);
  });

  it('types literals as SQL Server does', async () => {
    const { run } = execSetup();
    const [rs] = await run("SELECT 1 AS a, 1.5 AS b, 0.5 AS c, 3000000000 AS d, 1e3 AS e, 'abc' AS f, N'abc' AS g");
    assert.ok(rs.kind === 'resultSet');
    assert.deepEqual(
      rs.columns.map((c) => c.sqlType),
      [
        { type: 'int' },
        { type: 'decimal', precision: 2, scale: 1 },
        { type: 'decimal', precision: 1, scale: 1 },
        { type: 'decimal', precision: 10, scale: 0 },
        { type: 'float' },
        { type: 'varchar', length: 3 },
        { type: 'nvarchar', length: 3 },
      ],
    );
  });

  it('finds the plain syntax errors of a SELECT (102, 156)', () => {
    const num = (sql: string) => {
      const r = selectSyntax(lex(sql));
      return r && r.kind === 'error' ? [r.number, r.message] : undefined;
    };
    assert.deepEqual(num('SELECT FROM t'), [156, "Incorrect syntax near the keyword 'FROM'."]);
    assert.deepEqual(num('SELECT 1,'), [102, "Incorrect syntax near ','."]);
    assert.deepEqual(num('SELECT a FROM t WHERE'), [156, "Incorrect syntax near the keyword 'WHERE'."]);
    assert.deepEqual(num('SELECT 1)'), [102, "Incorrect syntax near ')'."]);
    assert.equal(num('SELECT * FROM t WHERE a > -1 ORDER BY a'), undefined);
    assert.equal(num('SELECT COUNT(*), t.* FROM t'), undefined);
  });
});
