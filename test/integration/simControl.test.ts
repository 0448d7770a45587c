// The simulator's session runs what drivers send about transactions and procedure calls, as SQL Server does:
// IF @@TRANCOUNT ... with BEGIN ... END and ELSE (mssql-jdbc's commit(), rollback() and setSavepoint()), and
// EXEC @rc = proc ..., @p OUTPUT inside sp_executesql (mssql-jdbc's {? = call proc(?)}), through tedious.
import assert from 'node:assert/strict';
import * as sql from 'mssql';
import { connect, withSim } from '../helpers/simClient';

type Rows = Record<string, unknown>[][];

describe('simulator IF and EXEC outputs', () => {
  it('runs IF <@@TRANCOUNT> <op> <number> with BEGIN ... END and ELSE, as mssql-jdbc sends it', function () {
    this.timeout(30_000);
    return withSim({}, async (sim) => {
      const pool = await connect(sim);
      try {
        // One connection for the whole check: a transaction is the session's.
        const r = await pool.request().query(
          `SET IMPLICIT_TRANSACTIONS ON
          IF @@TRANCOUNT = 0 BEGIN BEGIN TRAN IF @@TRANCOUNT = 2 COMMIT TRAN END SAVE TRAN sp1
          SELECT @@TRANCOUNT AS n
          IF @@TRANCOUNT > 0 ROLLBACK TRAN sp1
          SELECT @@TRANCOUNT AS n
          IF @@TRANCOUNT > 0 ROLLBACK TRAN
          SELECT @@TRANCOUNT AS n
          IF @@TRANCOUNT > 0 COMMIT TRAN set implicit_transactions off`,
        );
        assert.deepEqual(
          (r.recordsets as unknown as Rows).map((rs) => rs[0].n),
          [1, 1, 0],
        );
        const e = await pool.request().query('IF 1 > 2 SELECT 1 AS a ELSE SELECT 2 AS a');
        assert.deepEqual(e.recordset, [{ a: 2 }]);
        // The condition is read at run time; a COMMIT it lets through with no transaction fails as on SQL Server.
        await assert.rejects(pool.request().query('IF @@TRANCOUNT = 0 COMMIT TRAN'), (err: { number?: number }) => err.number === 3902);
      } finally {
        await pool.close();
      }
    });
  });

  it('EXEC @rc = sp_executesql ..., @p OUTPUT inside sp_executesql returns the status and the OUTPUT value', function () {
    this.timeout(30_000);
    return withSim({}, async (sim) => {
      const pool = await connect(sim);
      try {
        const req = pool.request();
        req.output('rc', sql.Int);
        req.output('x', sql.Int);
        const r = await req.query("EXEC @rc = sp_executesql N'SET @o = @i * 2', N'@i int, @o int OUTPUT', 21, @x OUTPUT");
        assert.deepEqual(r.output, { rc: 0, x: 42 });
      } finally {
        await pool.close();
      }
    });
  });
});
