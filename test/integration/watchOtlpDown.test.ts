// `spinlab watch --otlp URL` whose collector does not answer: the watch goes on (its samples are on disk, and a
// collector may come up later), but it says that the pushes fail, once per outage, with the URL and the reason,
// instead of pushing into nothing in silence.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSimProcess } from '../helpers/simProcess';
import { freePort, startProc, waitFor, type Proc } from '../helpers/fleet';
import { BIN } from '../helpers/cliChild';

const PW = 'Otlp-Down-Pw1!';

describe('spinlab watch --otlp to a collector that is not there', function () {
  this.timeout(120_000);
  let proc: Proc | undefined;
  let sim: { port: number; stop(): Promise<void> } | undefined;
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-otlp-down-'))));
  after(async () => {
    await proc?.stop();
    await sim?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('says the push failed (URL and reason) once, and keeps watching', async () => {
    sim = await startSimProcess(PW);
    const url = `http://127.0.0.1:${await freePort()}/v1/metrics`;
    const conn = `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=false`;
    const p = startProc(
      process.execPath,
      [BIN, 'watch', '-c', conn, '--out', path.join(dir, 'w'), '--otlp', url, '--otlp-interval', '1s'],
      {
        ...process.env,
        SPINLAB_PASSWORD: PW,
      },
    );
    proc = p;
    const line = await waitFor(
      'a line saying the push failed',
      () => {
        if (p.proc.exitCode !== null) throw new Error(`spinlab watch exited:\n${p.text()}`);
        return /^.*metrics push to .* failed.*$/m.exec(p.text())?.[0];
      },
      30_000,
    );
    assert.ok(line.includes(url), line);
    assert.match(line, /ECONNREFUSED|refused/i);
    assert.match(line, /keeps trying|the watch goes on/);
    // Later failures of the same outage are not said again.
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal(p.text().match(/metrics push to .* failed/g)?.length, 1, p.text());
    assert.equal(p.proc.exitCode, null, 'the watch goes on');
  });
});
