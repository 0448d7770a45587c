// A servers file's "server" is a host: a port written into it (h1:14330, as most tools write it, or h1,14330, as
// connection strings do) is refused before anything starts, with the "port" key to use (issue #45's Server=host:port).
import assert from 'node:assert/strict';
import { parseServers } from '../../src/cli/fleetConfig';

const ENV = { PW_A: 'secret-a' };
const entry = (server: string) => [{ name: 'a', server, user: 'u', passwordEnv: 'PW_A' }];

describe('the servers file: a port inside "server"', () => {
  for (const [server, host, port] of [
    ['h1:14330', 'h1', '14330'],
    ['h1,14330', 'h1', '14330'],
    ['tcp:10.0.0.5,1433', '10.0.0.5', '1433'],
  ]) {
    it(`"server": "${server}" is refused, naming "server": "${host}" and "port": ${port}`, () => {
      assert.throws(
        () => parseServers(entry(server), 'servers.yaml', ENV),
        (e: Error) => e.message.includes(`"server": "${host}" with "port": ${port}`),
      );
    });
  }

  it('an IPv6 address and a plain name are hosts', () => {
    assert.equal(parseServers(entry('::1'), 'servers.yaml', ENV)[0].target.server, '::1');
    assert.equal(parseServers(entry('db1.corp.local'), 'servers.yaml', ENV)[0].target.server, 'db1.corp.local');
  });
});
