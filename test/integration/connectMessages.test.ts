// Messages for the first real connection: a login failure says the server was reached and which
// authentication was tried; an untrusted (self-signed) certificate says which setting to change; an unreachable
// server says no login was attempted. The password never appears.
import assert from 'node:assert/strict';
import { DbSession } from '../../src/db/client';
import { targetFromArgs } from '../../src/cli/commands';
import { SIM_PASSWORD, withSim } from '../helpers/simClient';

async function failure(conn: string): Promise<string> {
  try {
    const s = await DbSession.open(targetFromArgs(conn, {}), { appName: 'test' });
    await s.close();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected the connection to fail');
}

describe('first-connection messages', () => {
  it('a wrong password: reachable, SQL Server authentication as that login was tried', () =>
    withSim({}, async (sim) => {
      const msg = await failure(`Server=127.0.0.1,${sim.port};User ID=sa;Password=Not-It-9;Encrypt=false`);
      assert.match(msg, /Login failed for user 'sa'/);
      assert.match(msg, /is reachable and answered, but refused the login: SQL Server authentication as the login 'sa' was tried/);
      assert.doesNotMatch(msg, /Not-It-9/);
    }));

  it('a database that cannot be opened: Msg 4060 is the cause told, not the 18456 the server sends after it', () =>
    withSim({}, async (sim) => {
      const msg = await failure(`Server=127.0.0.1,${sim.port};User ID=sa;Password=${SIM_PASSWORD};Database=NoSuchLab;Encrypt=false`);
      assert.match(msg, /Cannot open database "NoSuchLab" requested by the login/);
      assert.match(msg, /Msg 4060/);
      assert.match(msg, /the login worked, but the database in the connection string cannot be opened/);
    }));

  it('a self-signed certificate: names TrustServerCertificate=true and installing the CA', () =>
    withSim({}, async (sim) => {
      const msg = await failure(
        `Server=127.0.0.1,${sim.port};User ID=sa;Password=${SIM_PASSWORD};Encrypt=true;TrustServerCertificate=false`,
      );
      assert.match(msg, /certificate/i);
      assert.match(msg, /TrustServerCertificate=true/);
      assert.match(msg, /install the CA/);
    }));

  it('nothing listening: not reached, no login attempted', async () => {
    const msg = await failure('Server=127.0.0.1,1;User ID=sa;Password=x;Encrypt=false;Connect Timeout=5');
    assert.match(msg, /could not be reached \(no login was attempted\)/);
  });
});
