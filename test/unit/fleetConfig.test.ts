// The servers file of `spinlab watch --servers`: a good file becomes targets with the passwords from the environment;
// a bad one is refused before anything starts, every problem named with its fix, and a password in the file never
// accepted (nor echoed).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseServers, readServersFile } from '../../src/cli/fleetConfig';
import { parseListen } from '../../src/cli/fleet';
import { waitCategory } from '../../src/engine/metrics/waitCategory';

const ENV = { PW_A: 'secret-a', PW_B: 'secret-b' };

describe('the servers file', () => {
  it('reads YAML and JSON lists into targets, passwords from the environment', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'servers-'));
    try {
      const yamlFile = path.join(dir, 's.yaml');
      fs.writeFileSync(
        yamlFile,
        'servers:\n  - name: a\n    server: h1\n    user: u\n    passwordEnv: PW_A\n  - name: b\n    server: h2\n    port: 14330\n    user: u\n    passwordEnv: PW_B\n    interval: 500ms\n    encrypt: false\n',
      );
      const s = readServersFile(yamlFile, ENV);
      assert.deepEqual(
        s.map((x) => [x.name, x.target.server, x.target.port, x.target.password, x.intervalMs, x.target.encrypt, x.target.database]),
        [
          ['a', 'h1', 1433, 'secret-a', 1000, true, 'master'],
          ['b', 'h2', 14330, 'secret-b', 500, false, 'master'],
        ],
      );
      const jsonFile = path.join(dir, 's.json');
      fs.writeFileSync(jsonFile, JSON.stringify([{ name: 'a', server: 'h1', user: 'u', passwordEnv: 'PW_A' }]));
      assert.equal(readServersFile(jsonFile, ENV)[0].target.password, 'secret-a');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a missing file or a connection string in an entry: what to write instead, no errno text', () => {
    assert.throws(
      () => readServersFile(path.join(os.tmpdir(), 'no-such-servers.yaml'), ENV),
      (e: Error) =>
        /no-such-servers\.yaml: it does not exist\. Give a YAML or JSON list of servers .*\n- name: prod1/s.test(e.message) &&
        !/ENOENT/.test(e.message),
    );
    assert.throws(
      () => parseServers([{ name: 'a', connection: 'Server=h;User Id=u;Password=p' }], 'f.yaml', ENV),
      (e: Error) => /"connection": a servers file spells a connection out/.test(e.message) && !/Password=p/.test(e.message),
    );
  });

  it('names every problem at once, with its fix, and refuses a secret in the file without echoing it', () => {
    const doc = [
      { name: 'a', server: 'h', user: 'u', passwordEnv: 'PW_A', password: 'hunter2-in-file' },
      { name: 'a', server: 'h', user: 'u', passwordEnv: 'MISSING_VAR', port: 70000, interval: '10ms' },
      { name: 'bad name!', server: '', passwordEnv: 'PW_A', colour: 'blue' },
    ];
    assert.throws(
      () => parseServers(doc, 'servers.yaml', ENV),
      (e: Error) => {
        const m = e.message;
        assert.match(m, /servers\.yaml has \d+ problems; nothing was started/);
        assert.match(m, /entry 1 \(a\): "password" holds a secret.*passwordEnv/);
        assert.ok(!m.includes('hunter2-in-file'), 'the secret was echoed');
        assert.match(m, /the name "a" is used twice/);
        assert.match(m, /MISSING_VAR .*is not set: export it/);
        assert.match(m, /"port" must be a whole number from 1 to 65535, not 70000/);
        assert.match(m, /"interval" must be a time of 250ms or more/);
        assert.match(m, /entry 3.*"name" must be/);
        assert.match(m, /unknown key "colour"/);
        assert.match(m, /"user" must be the login name/);
        return true;
      },
    );
    assert.throws(() => parseServers({ servers: [] }, 'f.yaml', ENV), /non-empty list of servers/);
  });

  it('--prometheus takes [host]:port', () => {
    assert.deepEqual(parseListen(':9464'), { host: undefined, port: 9464 });
    assert.deepEqual(parseListen('127.0.0.1:0'), { host: '127.0.0.1', port: 0 });
    assert.deepEqual(parseListen('[::1]:9464'), { host: '::1', port: 9464 });
    assert.throws(() => parseListen('9464x'), /must be \[host\]:port/);
  });

  it('wait categories follow Query Store', () => {
    assert.equal(waitCategory('WRITELOG'), 'Tran Log IO');
    assert.equal(waitCategory('LCK_M_X'), 'Lock');
    assert.equal(waitCategory('PAGELATCH_EX'), 'Buffer Latch');
    assert.equal(waitCategory('PAGEIOLATCH_SH'), 'Buffer IO');
    assert.equal(waitCategory('SOS_SCHEDULER_YIELD'), 'CPU');
    assert.equal(waitCategory('SOMETHING_NEW'), 'Other');
  });
});
