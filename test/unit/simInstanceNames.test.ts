// The names `spinlab sim --instances N` gives its instances, as the README and the simulator's help say them: the
// same as the simulator prints (tools/sim/instances.ts), so a servers file written from the README connects by name.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { instanceName } from '../../tools/sim/instances';
import { runSimCommand } from '../../tools/sim/simulator';

const ROOT = path.join(__dirname, '..', '..', '..');
const BASE = 'SPINLAB-SIM';

/** Every SPINLAB-SIM-<n> a text names, each one some --instances count really produces. */
function assertNamesReal(text: string, where: string): void {
  for (const token of text.match(/SPINLAB-SIM-\d+/g) ?? []) {
    const m = Number(token.slice(BASE.length + 1));
    const real = Array.from({ length: 998 }, (_, i) => i + 2).some((n) => m <= n && instanceName(BASE, m - 1, n) === token);
    assert.ok(real, `${where} names ${token}, which no --instances count produces`);
  }
}

describe('simulated instances: the names the docs give are the ones the simulator prints', () => {
  it('the README names the first of a few instances as the simulator does, and no name it never gives', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    assert.ok(readme.includes(`\`${instanceName(BASE, 0, 2)}\``), `the README names ${instanceName(BASE, 0, 2)}`);
    assertNamesReal(readme, 'README.md');
    const docs = path.join(ROOT, 'docs');
    for (const f of fs.readdirSync(docs).filter((x) => x.endsWith('.md')))
      assertNamesReal(fs.readFileSync(path.join(docs, f), 'utf8'), `docs/${f}`);
  });

  it("the simulator's --help says the same names", async () => {
    let out = '';
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((s: string) => {
      out += s;
      return true;
    }) as typeof process.stdout.write;
    try {
      await runSimCommand(['--help'], (s) => {
        out += s;
      }).catch(() => 0);
    } finally {
      process.stdout.write = write;
    }
    const flat = out.replace(/\s+/g, ' ');
    assert.ok(flat.includes(instanceName(BASE, 0, 2)), `--help names ${instanceName(BASE, 0, 2)}: ${flat.slice(0, 300)}`);
    assertNamesReal(flat, 'sim --help');
  });
});
