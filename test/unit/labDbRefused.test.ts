// --lab-db names the database Spinlock Lab creates, alters and may drop: a system database (master, msdb, tempdb,
// distribution, SSISDB, ReportServer...) is refused before anything connects, with exit 2, by every command that takes
// it, however it is spelled (case, brackets); and a notebook whose record names one is not re-run (issue #45).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { mainCli } from '../helpers/cliInProcess';
import { labDatabaseProblem } from '../../src/shared/labDatabase';
import { connectionProfileSchema } from '../../src/shared/connectionProfile';
import { readExperimentFile } from '../../src/engine/notebook/export';
import { writeNotebookFile } from '../../src/engine/notebook/export';

const root = path.resolve(__dirname, '..', '..', '..');
const fixture = path.join(root, 'test', 'fixtures', 'experiment-v1.json');

describe('--lab-db: system databases refused before connecting (issue #45)', function () {
  this.timeout(60_000);
  let server: net.Server;
  let connections = 0;
  let conn = '';
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-labdb-'));
  before(async () => {
    server = net.createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    conn = `Server=127.0.0.1,${(server.address() as net.AddressInfo).port};User ID=sa;Password=x;Encrypt=false`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(work, { recursive: true, force: true });
  });

  const commands: [string, string[]][] = [
    ['check', ['check']],
    ['deploy', ['deploy', '--scenario', 'disk-insert']],
    ['cleanup', ['cleanup', '--scenario', 'disk-insert']],
    ['drop-lab', ['drop-lab']],
    ['run --scenario', ['run', '--scenario', 'disk-insert', '--threads', '1', '--duration', '2s']],
    ['run --preset', ['run', '--preset', 'writelog']],
    ['tune', ['tune', '--scenario', 'disk-insert', '--budget', '2m']],
  ];
  for (const [name, args] of commands) {
    for (const db of ['master', 'TempDB', '[msdb]']) {
      it(`${name} --lab-db ${db}: exit 2, nothing connects`, async () => {
        const before = connections;
        const r = await mainCli([...args, '-c', conn, '--lab-db', db], {});
        assert.equal(r.code, 2, r.output);
        assert.match(r.output, /is a system database/);
        assert.doesNotMatch(r.output, /drop that database yourself/);
        assert.equal(connections, before, 'nothing connected');
      });
    }
  }

  it('rerun --lab-db model, and a notebook whose record names master: refused before connecting', async () => {
    const e = readExperimentFile(fixture);
    const nb = writeNotebookFile(path.join(work, 'master.ipynb'), [{ ...e, labDatabase: 'master' }]);
    const good = writeNotebookFile(path.join(work, 'good.ipynb'), [e]);
    const before = connections;
    const given = await mainCli(['rerun', good, '-c', conn, '--lab-db', 'model', '--yes'], {});
    assert.equal(given.code, 2, given.output);
    assert.match(given.output, /model is a system database/);
    const recorded = await mainCli(['rerun', nb, '-c', conn, '--yes'], {});
    assert.equal(recorded.code, 2, recorded.output);
    assert.match(recorded.output, /master is a system database/);
    assert.match(recorded.output, /--lab-db/);
    assert.equal(connections, before, 'nothing connected');
  });

  it('the names: system databases in any case and brackets; a whole name in brackets; an ordinary name passes', () => {
    for (const n of [
      'master',
      'MODEL',
      'msdb',
      'tempdb',
      'distribution',
      'SSISDB',
      'ReportServer',
      'ReportServerTempDB',
      'ReportServer$SQL2022',
      'ReportServer$SQL2022TempDB',
      '[master]',
      ' master ',
    ])
      assert.match(labDatabaseProblem(n) ?? '', /is a system database/, n);
    assert.match(labDatabaseProblem('[SpinlockLab]') ?? '', /without the brackets \(SpinlockLab, not \[SpinlockLab\]\)/);
    for (const n of ['SpinlockLab', 'lab]1', 'masters', 'my_tempdb']) assert.equal(labDatabaseProblem(n), null, n);
  });

  it("the panel's lab database field refuses them too (the connection profile's schema)", () => {
    const profile = {
      id: 'p1',
      label: 'x',
      server: 'db1',
      port: null,
      instanceName: null,
      authentication: 'sql',
      user: 'sa',
      domain: '',
      encrypt: 'mandatory',
      trustServerCertificate: false,
    };
    const bad = connectionProfileSchema.safeParse({ ...profile, labDatabase: 'msdb' });
    assert.equal(bad.success, false);
    assert.match(JSON.stringify(bad.error?.issues), /system database/);
    assert.equal(connectionProfileSchema.safeParse({ ...profile, labDatabase: 'SpinlockLab' }).success, true);
  });
});

describe('--lab-db: an empty name, and run with a custom workload', function () {
  this.timeout(60_000);
  it('deploy --lab-db "": refused before connecting (it reached the server as Msg 208)', async () => {
    const r = await mainCli(['deploy', '--scenario', 'disk-insert', '-c', 'Server=127.0.0.1,1;User ID=sa;Password=x', '--lab-db', '']);
    assert.equal(r.code, 2, r.output);
    assert.match(r.output, /--lab-db : no name was given/);
  });

  it('run --sql ... --lab-db master: the custom workload is told to use --database (where master is allowed)', async () => {
    const r = await mainCli(['run', '--sql', 'SELECT 1', '-c', 'Server=127.0.0.1,1;User ID=sa;Password=x', '--lab-db', 'master']);
    assert.equal(r.code, 2, r.output);
    assert.match(r.output, /a custom workload runs in --database: use --database instead/);
    assert.doesNotMatch(r.output, /system database/);
  });
});
