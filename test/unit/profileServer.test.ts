// The panel's connection form: a port typed into the Server field (127.0.0.1:15000, or 127.0.0.1,15000 as connection
// strings write it) is refused with the Port field to use, instead of a host lookup that fails (issue #45).
import assert from 'node:assert/strict';
import { connectionProfileSchema } from '../../src/shared/connectionProfile';

const profile = (server: string) => ({
  id: 'p1',
  label: 'x',
  server,
  port: null,
  instanceName: null,
  authentication: 'sql',
  user: 'sa',
  domain: '',
  encrypt: 'mandatory',
  trustServerCertificate: false,
  labDatabase: 'SpinlockLab',
});

describe('the connection form: Server holds a host, Port the port', () => {
  for (const server of ['127.0.0.1:15000', 'db1,1433']) {
    it(`"${server}" names the Port field`, () => {
      const r = connectionProfileSchema.safeParse(profile(server));
      assert.equal(r.success, false);
      assert.match(JSON.stringify(r.error?.issues), /put the port in the Port field/);
    });
  }
  it('a name, an address and an IPv6 address pass', () => {
    for (const server of ['db1', '10.0.0.5', '::1', 'fe80::1'])
      assert.equal(connectionProfileSchema.safeParse(profile(server)).success, true, server);
  });
});

describe('a server string from the MSSQL extension or Azure Data Studio', () => {
  it('host:port is refused with the comma form, as the command line does; IPv6 stays an address', async () => {
    const { parseServerString } = await import('../../src/host/profiles');
    assert.throws(
      () => parseServerString('127.0.0.1:15000'),
      /SQL Server writes host,port \(a comma\), not host:port: write Server=127\.0\.0\.1,15000/,
    );
    assert.deepEqual(parseServerString('::1'), { server: '::1', port: null, instanceName: null });
    assert.deepEqual(parseServerString('[::1],1500'), { server: '::1', port: 1500, instanceName: null });
  });
});
