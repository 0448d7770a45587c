// Microsoft's SQL extension's saved connections as Spinlock Lab reads them (src/host/sqlExtension.ts): its profile
// fields mapped to ours, never a password carried along, a damaged entry left out with a log line that quotes no
// value, and which of its export shapes still hands out credentials.
import assert from 'node:assert/strict';
import {
  credentialApi,
  nodeConnectionInfo,
  sharesCredentials,
  sqlExtensionConnection,
  sqlExtensionConnections,
} from '../../../src/host/sqlExtension';
import { ProfileError } from '../../../src/host/profiles';
import { connectionProfileSchema } from '../../../src/shared/protocol';

const log = () => {
  const lines: string[] = [];
  return { lines, port: { info: (l: string) => lines.push(l), warn: (l: string) => lines.push(l), error: (l: string) => lines.push(l) } };
};

describe("Microsoft's SQL extension's saved connections", () => {
  it('maps its profiles to ours: server, port, database, authentication, user; a password in its setting goes nowhere', () => {
    const l = log();
    const list = sqlExtensionConnections(
      [
        {
          id: 'a1b2',
          profileName: 'Prod-ish',
          server: 'sql01,1500',
          database: 'Sales',
          authenticationType: 'SqlLogin',
          user: 'spin',
          password: 'Pl41n!text',
        },
        { server: 'CORP-DB\\LAB', authenticationType: 'Integrated', user: 'CORP\\alice' },
        { server: 'x.database.windows.net', authenticationType: 'AzureMFA', user: 'alice@contoso.com' },
      ],
      l.port,
    );
    assert.deepEqual(
      list.map((c) => c.view),
      [
        { id: 'mssql-a1b2', label: 'Prod-ish', server: 'sql01,1500', database: 'Sales', authentication: 'sql', user: 'spin' },
        { id: list[1].view.id, label: 'CORP-DB\\LAB', server: 'CORP-DB\\LAB', database: null, authentication: 'ntlm', user: 'CORP\\alice' },
        {
          id: list[2].view.id,
          label: 'x.database.windows.net',
          server: 'x.database.windows.net',
          database: null,
          authentication: 'entra',
          user: '',
        },
      ],
    );
    assert.match(list[1].view.id, /^mssql-[A-Za-z0-9_-]{16}$/, 'no id of its own: a digest of where it points');
    assert.equal(list[0].profile.port, 1500);
    assert.equal(list[1].profile.instanceName, 'LAB');
    for (const c of list) assert.ok(connectionProfileSchema.safeParse(c.profile).success, 'a profile our schema accepts');
    const shown = JSON.stringify(list.map((c) => [c.view, c.profile]));
    assert.ok(!shown.includes('Pl41n!text'), 'no password in what is shown or in our profile');
    assert.deepEqual(l.lines, []);
  });

  it('leaves out an entry it cannot use, saying so without quoting it; the same connection twice is listed once', () => {
    const l = log();
    const list = sqlExtensionConnections(
      [{ id: 'g1', server: 'a' }, 'garbage', { user: 'sa', password: 'S3cret!' }, { id: 'g1', server: 'a' }],
      l.port,
    );
    assert.deepEqual(
      list.map((c) => c.view.id),
      ['mssql-g1'],
    );
    assert.equal(l.lines.length, 2);
    assert.match(l.lines[0], /#2/);
    assert.match(l.lines[1], /#3.*no server name/);
    assert.ok(!l.lines.join('\n').includes('S3cret!'));
  });

  it('an Object Explorer node: its connectionProfile (or older connectionInfo); none on a folder node', () => {
    assert.equal(nodeConnectionInfo({ connectionProfile: { server: 'db1' } }).server, 'db1');
    assert.equal(nodeConnectionInfo({ connectionInfo: { server: 'db2' } }).server, 'db2');
    assert.throws(() => nodeConnectionInfo({ label: 'Tables' }), ProfileError);
    assert.throws(() => nodeConnectionInfo(undefined), ProfileError);
    assert.equal(sqlExtensionConnection(nodeConnectionInfo({ connectionProfile: { id: 'n1', server: 'db1' } })).view.id, 'mssql-n1');
  });

  it('credentials only from exports that have connect and getConnectionString (its releases up to 1.45)', () => {
    const old = { connect: async () => 'uri', getConnectionString: async () => '', listDatabases: async () => [] };
    assert.equal(credentialApi(old), old);
    assert.equal(sharesCredentials(old), true);
    // After August 2026 it exports connection sharing and URI ownership only; before activation, nothing.
    for (const e of [
      { connectionSharing: {}, uriOwnershipApi: {} },
      { uriOwnershipApi: {} },
      undefined,
      null,
      { connect: 'no' },
      { connect: async () => 'uri' },
    ]) {
      assert.equal(credentialApi(e), null, JSON.stringify(e));
      assert.equal(sharesCredentials(e), false);
    }
  });
});
