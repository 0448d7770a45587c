// Connection profiles: to the engine's target for each authentication, server strings, defaults, and the prefill from
// the MSSQL extension's Object Explorer node and from Azure Data Studio, including shapes we cannot use.
import assert from 'node:assert/strict';
import { connectionProfileSchema } from '../../../src/shared/protocol';
import {
  ProfileError,
  defaultProfile,
  describeProfile,
  matchSavedProfile,
  parseServerString,
  profileFromAzdata,
  profileFromMssqlNode,
  profileToTarget,
} from '../../../src/host/profiles';

it('a new profile: localhost, SQL login, encryption mandatory, the default lab database, a fresh valid id', () => {
  const a = defaultProfile();
  const b = defaultProfile();
  assert.notEqual(a.id, b.id);
  assert.equal(connectionProfileSchema.safeParse(a).success, true);
  assert.deepEqual(
    { ...a, id: '' },
    {
      id: '',
      label: '',
      server: 'localhost',
      port: null,
      instanceName: null,
      authentication: 'sql',
      user: '',
      domain: '',
      encrypt: 'mandatory',
      trustServerCertificate: false,
      labDatabase: 'SpinlockLab',
    },
  );
});

it('profile -> target: SQL login with port; encrypt mandatory/optional/strict', () => {
  const p = defaultProfile({ server: 'db1', port: 14330, user: 'sa', encrypt: 'optional', trustServerCertificate: true });
  const t = profileToTarget(p, { password: 'pw' });
  assert.deepEqual(
    [t.server, t.port, t.instanceName, t.authentication, t.user, t.password, t.encrypt, t.trustServerCertificate],
    ['db1', 14330, undefined, 'sql', 'sa', 'pw', false, true],
  );
  assert.equal(profileToTarget({ ...p, encrypt: 'mandatory' }, {}).encrypt, true);
  assert.equal(profileToTarget({ ...p, encrypt: 'strict' }, {}).encrypt, 'strict');
  assert.equal(profileToTarget({ ...p, port: null }, {}).port, 1433, 'no port: 1433');
});

it('profile -> target: a named instance leaves the port to SQL Browser', () => {
  const t = profileToTarget(defaultProfile({ server: 'db1', instanceName: 'SQL22', user: 'sa' }), { password: 'x' });
  assert.equal(t.instanceName, 'SQL22');
  assert.equal(t.port, undefined);
});

it('profile -> target: Entra uses the access token; NTLM carries the domain', () => {
  const e = profileToTarget(defaultProfile({ server: 'x.database.windows.net', authentication: 'entra' }), { accessToken: 'tok' });
  assert.deepEqual(
    [e.authentication, e.accessToken, e.user, e.password],
    ['azure-active-directory-access-token', 'tok', undefined, undefined],
  );
  assert.throws(() => profileToTarget(defaultProfile({ authentication: 'entra' }), {}), ProfileError);
  const n = profileToTarget(defaultProfile({ authentication: 'ntlm', user: 'alice', domain: 'CORP' }), { password: 'pw' });
  assert.deepEqual([n.authentication, n.user, n.domain, n.password], ['ntlm', 'alice', 'CORP', 'pw']);
  assert.throws(() => profileToTarget(defaultProfile({ authentication: 'sql', user: '' }), { password: 'x' }), /needs a user name/);
});

it('server strings: host, host,port, tcp:host,port, host\\instance, . and (local); bad ones say why', () => {
  assert.deepEqual(parseServerString('db1'), { server: 'db1', port: null, instanceName: null });
  assert.deepEqual(parseServerString(' db1 , 14330 '), { server: 'db1', port: 14330, instanceName: null });
  assert.deepEqual(parseServerString('tcp:db1,1533'), { server: 'db1', port: 1533, instanceName: null });
  assert.deepEqual(parseServerString('db1\\SQL22'), { server: 'db1', port: null, instanceName: 'SQL22' });
  assert.deepEqual(parseServerString('db1\\SQL22,1444'), { server: 'db1', port: 1444, instanceName: null }, 'an explicit port wins');
  assert.deepEqual(parseServerString('.'), { server: 'localhost', port: null, instanceName: null });
  assert.deepEqual(parseServerString('(local)\\X'), { server: 'localhost', port: null, instanceName: 'X' });
  assert.throws(() => parseServerString('np:\\\\db1\\pipe'), /only TCP/);
  assert.throws(() => parseServerString('db1,99999'), /not a TCP port/);
  assert.throws(() => parseServerString(',1433'), /no host name/);
});

it('MSSQL Object Explorer node: connectionProfile (newer) with host,port, SqlLogin, encrypt and trust', () => {
  const p = profileFromMssqlNode({
    label: 'prod',
    connectionProfile: {
      server: 'tcp:db1,14330',
      database: 'master',
      authenticationType: 'SqlLogin',
      user: 'sa',
      password: 'never-used',
      encrypt: 'Optional',
      trustServerCertificate: true,
      profileName: 'Prod box',
    },
  });
  assert.deepEqual(
    [p.server, p.port, p.instanceName, p.authentication, p.user, p.encrypt, p.trustServerCertificate, p.label],
    ['db1', 14330, null, 'sql', 'sa', 'optional', true, 'Prod box'],
  );
  assert.ok(!JSON.stringify(p).includes('never-used'), 'a password on the node is ignored');
});

it('MSSQL Object Explorer node: connectionInfo (older) with instance, Integrated with DOMAIN\\user, strict, port field', () => {
  const p = profileFromMssqlNode({
    connectionInfo: { server: 'db2\\SQL19', authenticationType: 'Integrated', user: 'CORP\\alice', encrypt: 'Strict' },
  });
  assert.deepEqual(
    [p.server, p.port, p.instanceName, p.authentication, p.user, p.domain, p.encrypt],
    ['db2', null, 'SQL19', 'ntlm', 'alice', 'CORP', 'strict'],
  );
  const q = profileFromMssqlNode({
    connectionInfo: { server: 'db3', port: 1455, authenticationType: 'AzureMFA', user: 'bob@x.com', encrypt: true },
  });
  assert.deepEqual([q.server, q.port, q.authentication, q.user, q.encrypt], ['db3', 1455, 'entra', '', 'mandatory']);
  assert.equal(profileFromMssqlNode({ connectionProfile: { server: 'db4', encrypt: false } }).encrypt, 'optional');
  assert.equal(profileFromMssqlNode({ connectionProfile: { server: 'db4' } }).encrypt, 'mandatory', 'missing: mandatory');
});

it('MSSQL node shapes we cannot use give a ProfileError, never a crash', () => {
  for (const bad of [
    undefined,
    null,
    'db1',
    42,
    [],
    {},
    { connectionProfile: null },
    { connectionProfile: { server: '' } },
    { connectionInfo: { server: 17 } },
    { connectionProfile: { server: 'np:pipe' } },
    { connectionProfile: { server: 'x'.repeat(300) } },
  ]) {
    assert.throws(() => profileFromMssqlNode(bad), ProfileError, JSON.stringify(bad));
  }
});

it('ADS: ObjectExplorerContext and IConnectionProfile, with options and the connection id', () => {
  const ctx = {
    isConnectionNode: true,
    connectionProfile: {
      id: 'conn-1',
      serverName: 'db5,1500',
      userName: 'sa',
      authenticationType: 'SqlLogin',
      password: '',
      options: { encrypt: 'Mandatory', trustServerCertificate: true, connectionName: 'Five' },
    },
    nodeInfo: { nodeType: 'Server' },
  };
  const r = profileFromAzdata(ctx);
  assert.equal(r.connectionId, 'conn-1');
  assert.deepEqual(
    [
      r.profile.server,
      r.profile.port,
      r.profile.user,
      r.profile.authentication,
      r.profile.encrypt,
      r.profile.trustServerCertificate,
      r.profile.label,
    ],
    ['db5', 1500, 'sa', 'sql', 'mandatory', true, 'Five'],
  );
  const direct = profileFromAzdata({ serverName: 'db6\\INST', userName: 'CORP\\bob', authenticationType: 'Integrated', options: {} });
  assert.deepEqual(
    [direct.profile.instanceName, direct.profile.authentication, direct.profile.domain, direct.profile.user, direct.connectionId],
    ['INST', 'ntlm', 'CORP', 'bob', null],
  );
  assert.equal(
    profileFromAzdata({ connectionProfile: { options: { server: 'db7', authenticationType: 'AzureMFA' } } }).profile.authentication,
    'entra',
  );
});

it('ADS shapes we cannot use give a ProfileError', () => {
  for (const bad of [
    undefined,
    null,
    'x',
    {},
    { connectionProfile: {} },
    { connectionProfile: { serverName: '   ' } },
    { serverName: 5 },
  ]) {
    assert.throws(() => profileFromAzdata(bad), ProfileError, JSON.stringify(bad));
  }
});

it('a prefill for a saved server keeps the saved id and lab database; others stay new', () => {
  const saved = defaultProfile({ id: 'saved-1', label: 'mine', server: 'DB1', port: 14330, user: 'sa', labDatabase: 'MyLab' });
  const m = matchSavedProfile([saved], defaultProfile({ server: 'db1', port: 14330, user: 'SA', trustServerCertificate: true }));
  assert.deepEqual([m.id, m.label, m.labDatabase, m.trustServerCertificate], ['saved-1', 'mine', 'MyLab', true]);
  const other = defaultProfile({ server: 'db1', port: 1433, user: 'sa' });
  assert.equal(matchSavedProfile([saved], other).id, other.id);
  assert.equal(describeProfile(saved), 'DB1,14330 as sa');
  assert.equal(
    describeProfile(defaultProfile({ server: 'h', instanceName: 'I', authentication: 'ntlm', user: 'u', domain: 'D' })),
    'h\\I as D\\u',
  );
});
