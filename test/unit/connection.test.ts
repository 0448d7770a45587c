import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  ConnectionStringError,
  describeServer,
  parseConnectionString,
  quoteConnectionValue,
  redactConnectionString,
} from '../../src/engine/connection';

function message(s: string): string {
  try {
    parseConnectionString(s);
  } catch (e) {
    assert.ok(e instanceof ConnectionStringError, String(e));
    return (e as Error).message;
  }
  assert.fail(`"${s}" should have been rejected`);
}

it('a typical SQL login string', () => {
  const c = parseConnectionString('Server=localhost,14330;Database=SpinlockLab;User ID=sa;Password=Pa55;TrustServerCertificate=true');
  assert.deepEqual(c, {
    server: 'localhost',
    port: 14330,
    instanceName: undefined,
    database: 'SpinlockLab',
    user: 'sa',
    password: 'Pa55',
    authentication: 'sql',
    encrypt: true,
    trustServerCertificate: true,
    connectTimeoutMs: 15_000,
    appName: 'Spinlock Lab',
    ignoredKeywords: [],
  });
});

it('server syntaxes: host, host,port, host\\instance, tcp:host,port, (local)', () => {
  const s = (v: string) => {
    const c = parseConnectionString(`Server=${v};User ID=u;Password=p`);
    return [c.server, c.port, c.instanceName];
  };
  assert.deepEqual(s('db1'), ['db1', 1433, undefined]);
  assert.deepEqual(s('db1,1533'), ['db1', 1533, undefined]);
  assert.deepEqual(s('db1\\SQL2022'), ['db1', null, 'SQL2022']);
  assert.deepEqual(s('tcp:db1.corp.local,1433'), ['db1.corp.local', 1433, undefined]);
  assert.deepEqual(s('TCP: db1 , 1444'), ['db1', 1444, undefined]);
  assert.deepEqual(s('(local)'), ['localhost', 1433, undefined]);
  assert.deepEqual(s('.\\SQLEXPRESS'), ['localhost', null, 'SQLEXPRESS']);
  assert.deepEqual(s('db1\\INST,1500'), ['db1', 1500, undefined], 'an explicit port wins over the instance');
});

it('synonyms, quoting and options', () => {
  const c = parseConnectionString(
    'Data Source=db1;Initial Catalog=Lab;UID=u;PWD={a;b}}c};Encrypt=strict;Connect Timeout=5;App=my app;Pooling=false;MultipleActiveResultSets=true',
  );
  assert.equal(c.database, 'Lab');
  assert.equal(c.password, 'a;b}c');
  assert.equal(c.encrypt, 'strict');
  assert.equal(c.connectTimeoutMs, 5000);
  assert.equal(c.appName, 'my app');
  assert.deepEqual(c.ignoredKeywords, ['pooling', 'multipleactiveresultsets']);
  assert.equal(parseConnectionString('Server=x;User ID=u;Encrypt=no').encrypt, false);
  assert.equal(parseConnectionString('Server=x;User ID=u;Encrypt=Optional').encrypt, false);
  assert.equal(parseConnectionString('Server=x;User ID=u;Password="p;w"').password, 'p;w');
});

it('authentication kinds', () => {
  const ntlm = parseConnectionString('Server=x;Integrated Security=SSPI;User ID=CORP\\alice;Password=p');
  assert.equal(ntlm.authentication, 'ntlm');
  assert.equal(ntlm.domain, 'CORP');
  assert.equal(ntlm.user, 'alice');
  assert.equal(parseConnectionString('Server=x;Authentication=Active Directory Default').authentication, 'azure-active-directory-default');
  assert.equal(parseConnectionString('Server=x;Authentication=ActiveDirectoryMSI').authentication, 'azure-active-directory-msi-vm');
  assert.equal(
    parseConnectionString('Server=x;User ID=a@b.c;Password=p;Authentication="Active Directory Password"').authentication,
    'azure-active-directory-password',
  );
  const tok = parseConnectionString('Server=x;AccessToken=eyJ0eXAi');
  assert.equal(tok.authentication, 'azure-active-directory-access-token');
  assert.equal(tok.accessToken, 'eyJ0eXAi');
});

it('clear errors with an example', () => {
  assert.match(message(''), /it is empty\. Example: Server=localhost,1433;/);
  assert.match(message('Sever=localhost;User ID=u'), /unknown keyword "sever" \(did you mean "Server"\?\)\. Example: Server=/);
  assert.match(message('Database=x;User ID=u'), /no Server \(or Data Source\)/);
  assert.match(message('Server=x;Password=p'), /no User ID/);
  assert.match(message('Server=x;User ID=u;Password={abc'), /terminated unexpectedly.*wrapped in braces/);
  assert.match(message('Server=x;User ID=u;Password="ab"c'), /malformed/);
  assert.match(message('Server=x;localhost'), /"localhost" has no value/);
  assert.match(message('Server=x,99999;User ID=u'), /"99999" is not a TCP port/);
  assert.match(message('Server=np:\\\\.\\pipe\\sql\\query;User ID=u'), /only TCP connections are supported/);
  assert.match(message('Server=(localdb)\\MSSQLLocalDB;User ID=u'), /LocalDB/);
  assert.match(message('Server=x;User ID=u;Encrypt=maybe'), /Encrypt=maybe is not true or false/);
  assert.match(message('Server=x;User ID=u;Connect Timeout=0'), /not a positive number of seconds/);
  assert.match(message('Server=x;Integrated Security=true'), /DOMAIN\\user;Password=/);
  assert.match(message('Server=x;Authentication=Active Directory Interactive'), /not supported; use Sql Password/);
});

it('redaction removes Password, Pwd and AccessToken values, quoted or not, and keeps the rest', () => {
  assert.equal(redactConnectionString('Server=x;User ID=sa;Password=hunter2;Database=d'), 'Server=x;User ID=sa;Password=***;Database=d');
  assert.equal(redactConnectionString('pwd = {a;b}}c} ;Server=x'), 'pwd = *** ;Server=x');
  assert.equal(redactConnectionString("Server=x;AccessToken='tok;en'"), 'Server=x;AccessToken=***');
  assert.equal(redactConnectionString('Server=x;Password=a;;b;App=z'), 'Server=x;Password=***;App=z');
  assert.equal(redactConnectionString('Server=x;Password={unterminated'), 'Server=x;Password=***');
  assert.equal(redactConnectionString('App={Password=not a secret};Server=x'), 'App={Password=not a secret};Server=x');
});

it('describeServer says where and how, never the secret', () => {
  const c = parseConnectionString('Server=db1\\SQL2022;Database=Lab;User ID=sa;Password=S3cret!;TrustServerCertificate=yes');
  const d = describeServer(c);
  assert.equal(d, 'db1\\SQL2022, database Lab, as sa (SQL login), encrypted, certificate not verified');
  assert.ok(!d.includes('S3cret'));
  assert.equal(
    describeServer(parseConnectionString('Server=db1,1500;Integrated Security=true;User ID=CORP\\al;Password=x;Encrypt=false')),
    'db1,1500, as CORP\\al (Windows), not encrypted',
  );
});

it('property: any password survives quoting and parsing, and never survives redaction', () => {
  fc.assert(
    fc.property(fc.string({ minLength: 1 }), fc.constantFrom('Password', 'Pwd', 'PASSWORD'), (pw, kw) => {
      const secret = `Zq${pw}`;
      const s = `Server=db1,1433;User ID=sa;${kw}=${quoteConnectionValue(secret)};Database=Lab`;
      assert.equal(parseConnectionString(s).password, secret);
      const r = redactConnectionString(s);
      assert.ok(!r.includes(secret), r);
      assert.ok(r.startsWith('Server=db1,1433;User ID=sa;') && r.endsWith(';Database=Lab'), r);
    }),
  );
});

it('property: arbitrary text is parsed or rejected with a ConnectionStringError, and redaction never throws', () => {
  fc.assert(
    fc.property(fc.string(), (s) => {
      redactConnectionString(s);
      try {
        parseConnectionString(s);
      } catch (e) {
        assert.ok(e instanceof ConnectionStringError, `${String(e)} for ${JSON.stringify(s)}`);
      }
    }),
  );
});

describe('Server=host:port, refused before connecting with the comma SQL Server writes (issue #45)', () => {
  it('an IPv4 address, a name, and a tcp: prefix: say Server=host,port', () => {
    assert.match(message('Server=127.0.0.1:15000;User ID=u;Password=p'), /Server=127\.0\.0\.1:15000.*host,port.*Server=127\.0\.0\.1,15000/);
    assert.match(message('Server=localhost:1433;User ID=u;Password=p'), /Server=localhost,1433/);
    assert.doesNotMatch(message('Server=localhost:1433;User ID=u;Password=p'), /only TCP connections/);
    assert.match(message('Server=tcp:db1.corp.local:1533;User ID=u;Password=p'), /Server=tcp:db1\.corp\.local,1533/);
    assert.match(message('Data Source=db1:1433,1500;User ID=u;Password=p'), /Server=db1,1433/);
  });

  it('a named instance with a colon port: the instance or the port', () => {
    assert.match(message('Server=db1\\SQL2022:1500;User ID=u;Password=p'), /Server=db1\\SQL2022 .*Server=db1,1500/);
    assert.match(message('Server=db1:1500\\SQL2022;User ID=u;Password=p'), /Server=db1,1500/);
  });

  it('IPv6 literals are addresses, not host:port (bracketed with a colon port: the comma form)', () => {
    const s = (v: string) => {
      const c = parseConnectionString(`Server=${v};User ID=u;Password=p`);
      return [c.server, c.port, c.instanceName];
    };
    assert.deepEqual(s('::1'), ['::1', 1433, undefined]);
    assert.deepEqual(s('fe80::1,1500'), ['fe80::1', 1500, undefined]);
    assert.deepEqual(s('tcp:2001:db8::5,1433'), ['2001:db8::5', 1433, undefined]);
    assert.deepEqual(s('[::1],1500'), ['::1', 1500, undefined]);
    assert.deepEqual(s('abcd::1'), ['abcd::1', 1433, undefined], 'hex letters before :: are not a protocol prefix');
    assert.match(message('Server=[::1]:1500;User ID=u;Password=p'), /Server=\[::1\],1500/);
  });

  it('named pipes, shared memory and the DAC prefix are still refused as not TCP', () => {
    assert.match(message('Server=np:db1;User ID=u'), /only TCP connections are supported/);
    assert.match(message('Server=lpc:db1;User ID=u'), /only TCP connections are supported/);
    assert.match(message('Server=admin:db1;User ID=u'), /only TCP connections are supported/);
  });
});

it('a URL or a lone colon in Server is not a host name (refused before the driver looks it up)', () => {
  assert.match(
    message('Server=https://db1.example.com/;User ID=u;Password=p'),
    /a URL is not a server name.*Server=db1\.example\.com,1433/,
  );
  assert.match(message('Server=db1:sql;User ID=u;Password=p'), /"db1:sql" is not a host name/);
});

it('Port=N (as JDBC writes it) is told to go in Server after a comma, not "did you mean Password"', () => {
  const m = message('Server=127.0.0.1;Port=15433;User ID=sa;Password=p');
  assert.match(m, /there is no Port keyword: the port goes in Server, after a comma: Server=127\.0\.0\.1,15433/);
  assert.doesNotMatch(m, /did you mean/);
  assert.match(message('port=1500;Data Source=db1;User ID=u'), /Server=db1,1500/);
});
