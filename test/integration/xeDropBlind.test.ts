// sql/xe/drop-session.sql for a login that may drop event sessions but not see sys.server_event_sessions (no VIEW
// SERVER STATE, as `spinlab restore` may run with): the catalogue shows it nothing, so "absent" and "hidden" look the
// same. The drop is attempted anyway, and the answer is "not confirmed", never a 0 that calls a live session gone.
import assert from 'node:assert/strict';
import * as sql from 'mssql';
import { connect, ourEventSessions, runFile, withSim } from '../helpers/simClient';
import { DbSession } from '../../src/db/client';
import { dropSession } from '../../src/engine/stacks/sessions';
import { targetFor } from '../helpers/simTarget';

const PW = 'Drop-Pw-1!';
const NAME = 'SpinlockLab_LOGCACHE_ACCESS_test_1';

describe('dropping an event session without seeing the catalogue', function () {
  this.timeout(60_000);

  it('drops it and says it cannot confirm; with the catalogue visible it confirms', () =>
    withSim({ logins: [{ name: 'dropper', password: PW, permissions: ['ALTER ANY EVENT SESSION'] }] }, async (sim) => {
      const sa = await connect(sim);
      const create = () =>
        runFile(sa, 'xe/create-session', {
          session: [sql.NVarChar(128), NAME],
          type: [sql.Int, 1],
          slots: [sql.Int, 256],
          partition: [sql.NVarChar(8), 'NONE'],
          max_memory_kb: [sql.Int, 4096],
          max_duration_s: [sql.Int, null],
        });
      const blind = await DbSession.open(targetFor(sim, { user: 'dropper', password: PW }), { database: 'master' });
      try {
        await create();
        assert.deepEqual(await ourEventSessions(sim), [NAME]);
        assert.equal(await dropSession(blind, NAME), null, 'not confirmed');
        assert.deepEqual(await ourEventSessions(sim), [], 'but dropped');
        assert.equal(await dropSession(blind, NAME), null, 'a second drop finds nothing and still cannot say so');
        await create();
        const admin = await DbSession.open(targetFor(sim, { password: sim.password }), { database: 'master' });
        try {
          assert.equal(await dropSession(admin, NAME), true);
        } finally {
          await admin.close();
        }
        assert.deepEqual(await ourEventSessions(sim), []);
      } finally {
        await blind.close();
        await sa.close();
      }
    }));
});
