// Dropping the lab database: only one Spinlock Lab marked, and through the race where another session takes the
// single-user slot between SET SINGLE_USER and DROP (3702): the engine ends that session and tries again.
import assert from 'node:assert/strict';
import * as sql from 'mssql';
import { connect, runFile, withSim } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import { DbSession } from '../../src/db/client';
import { dropLab } from '../../src/engine/lab';
import { dropLabCommand } from '../../src/cli/commands';
import { targetFor } from '../helpers/simTarget';
import { failFile } from '../helpers/simFaults';

const LAB = 'SpinlockLab';
const identity = { login: 'sa', majorVersion: 16 } as Parameters<typeof dropLab>[2];

async function createLab(sim: Simulator): Promise<void> {
  const pool = await connect(sim);
  try {
    await runFile(pool, 'lab/create', { db: [sql.NVarChar(128), LAB], mark: [sql.NVarChar(256), 'spinlab test'] });
  } finally {
    await pool.close();
  }
}

describe('drop-lab', function () {
  this.timeout(30_000);

  it('ends the session that took the single-user slot (3702) and drops on the next attempt', () =>
    withSim({}, async (sim) => {
      await createLab(sim);
      const holder = await connect(sim, 'sa', undefined, LAB);
      const holderSpid = (await holder.request().query('SELECT @@SPID AS spid')).recordset[0].spid as number;
      // The race as SQL Server shows it: the first DROP finds the database in use.
      failFile(sim, 'lab/drop', {
        number: 3702,
        message: `Cannot drop database "${LAB}" because it is currently in use.`,
        times: 1,
      });
      const admin = await DbSession.open(targetFor(sim), { database: 'master' });
      try {
        const r = await dropLab(admin, LAB, identity);
        assert.deepEqual(r, { existed: true, killed: [holderSpid] });
        assert.equal(sim.model.database(LAB), undefined);
        await assert.rejects(holder.request().query('SELECT 1'), 'the holder session was ended');
      } finally {
        await admin.close();
        await holder.close().catch(() => undefined);
      }
    }));

  it('gives up after five attempts with the server error, and says ALTER ANY CONNECTION is needed when KILL is refused', () =>
    withSim({ logins: [{ name: 'dba', password: 'Dba-Pw-1!', permissions: ['ALTER ANY DATABASE', 'VIEW SERVER STATE'] }] }, async (sim) => {
      await createLab(sim);
      failFile(sim, 'lab/drop', { number: 3702, message: `Cannot drop database "${LAB}" because it is currently in use.` });
      const admin = await DbSession.open(targetFor(sim), { database: 'master' });
      try {
        await assert.rejects(dropLab(admin, LAB, identity), /currently in use/);
      } finally {
        await admin.close();
      }
      const holder = await connect(sim, 'sa', undefined, LAB);
      await holder.request().query('SELECT 1');
      const dba = await DbSession.open(targetFor(sim, { user: 'dba', password: 'Dba-Pw-1!' }), { database: 'master' });
      try {
        await assert.rejects(dropLab(dba, LAB, { login: 'dba', majorVersion: 16 } as typeof identity), (e: Error & { fix?: string }) =>
          /ALTER ANY CONNECTION/.test(`${e.message} ${e.fix ?? ''}`),
        );
      } finally {
        await dba.close();
        await holder.close().catch(() => undefined);
      }
    }));

  it('ends the user session, never a system one: an In-Memory lab has checkpoint workers in it (KILL refuses them, 6107)', () =>
    withSim({}, async (sim) => {
      await createLab(sim);
      const pool = await connect(sim);
      try {
        await runFile(pool, 'lab/add-xtp-filegroup', { db: [sql.NVarChar(128), LAB] });
      } finally {
        await pool.close();
      }
      const holder = await connect(sim, 'sa', undefined, LAB);
      const holderSpid = (await holder.request().query('SELECT @@SPID AS spid')).recordset[0].spid as number;
      failFile(sim, 'lab/drop', {
        number: 3702,
        message: `Cannot drop database "${LAB}" because it is currently in use.`,
        times: 1,
      });
      const admin = await DbSession.open(targetFor(sim), { database: 'master' });
      try {
        assert.deepEqual(await dropLab(admin, LAB, identity), { existed: true, killed: [holderSpid] });
        assert.equal(sim.model.database(LAB), undefined);
      } finally {
        await admin.close();
        await holder.close().catch(() => undefined);
      }
    }));

  it('finds a session in another database whose open transaction holds locks in the lab', () =>
    withSim({}, async (sim) => {
      await createLab(sim);
      // A transaction opened in the lab that then moves to master: its locks in the lab stay until it ends.
      const holder = await connect(sim, 'sa', undefined, LAB);
      const tx = new sql.Transaction(holder);
      await tx.begin();
      const holderSpid = (await new sql.Request(tx).query('SELECT @@SPID AS spid')).recordset[0].spid as number;
      await new sql.Request(tx).batch('USE master');
      failFile(sim, 'lab/drop', {
        number: 3702,
        message: `Cannot drop database "${LAB}" because it is currently in use.`,
        times: 1,
      });
      const admin = await DbSession.open(targetFor(sim), { database: 'master' });
      try {
        assert.deepEqual(await dropLab(admin, LAB, identity), { existed: true, killed: [holderSpid] });
      } finally {
        await admin.close();
        // The killed session's transaction object still holds its pooled connection until it is ended.
        await tx.rollback().catch(() => undefined);
        await holder.close().catch(() => undefined);
      }
    }));

  it('spinlab drop-lab drops a marked lab database and says so; a second run finds nothing', () =>
    withSim({}, async (sim) => {
      await createLab(sim);
      assert.match(await dropLabCommand(targetFor(sim), LAB), /Dropped the lab database \[SpinlockLab\]/);
      assert.match(await dropLabCommand(targetFor(sim), LAB), /nothing to drop/);
    }));
});
