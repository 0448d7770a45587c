// `spinlab --version` and `-V`: the version from package.json, exit 0 (issue #45: there was none).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mainCli } from '../helpers/cliInProcess';

const root = path.resolve(__dirname, '..', '..', '..');
const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;

describe('spinlab --version', () => {
  for (const flag of ['--version', '-V']) {
    it(`${flag}: the package's version, alone on a line, exit 0`, async () => {
      const r = await mainCli([flag]);
      assert.equal(r.code, 0, r.output);
      assert.equal(r.stdout, `${version}\n`);
      assert.equal(r.stderr, '');
    });
  }

  it('listed in --help', async () => {
    const r = await mainCli(['--help']);
    assert.equal(r.code, 0, r.output);
    assert.match(r.stdout, /-V, --version\s+print the version/);
  });

  it("a command's own --version is its own: sim --version 16 (the SQL Server version it imitates) is not the tool's", async () => {
    const r = await mainCli(['sim', '--version', '16', '--help']);
    assert.equal(r.code, 0, r.output);
    assert.match(r.stdout, /Start the Spinlock Lab TDS simulator/);
    assert.doesNotMatch(r.stdout, new RegExp(`^${version.replace(/\./g, '\\.')}$`, 'm'));
  });
});
