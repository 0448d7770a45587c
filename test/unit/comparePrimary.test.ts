// `spinlab compare A B --primary NAME.spins_per_row`: the name is checked against the figures the two experiments
// recorded before any verdict, so a misspelt spinlock (which neither recorded, and so reads 0 on both sides) is an
// error with the nearest name, not a verdict of "no comparison" on nothing with exit 0.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { experiment } from '../helpers/builders';
import { programCli } from '../helpers/cliInProcess';
import { tmp } from '../helpers/common';

function saved(id: string): string {
  const dir = path.join(tmp('cmp'), id);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'experiment.json'), JSON.stringify(experiment(id, [8], { ticks: 6 })));
  return dir;
}

describe('spinlab compare --primary: a named figure both experiments recorded', () => {
  const a = saved('a');
  const b = saved('b');

  it('a misspelt spinlock: exit 2, with the nearest name the experiments recorded', async () => {
    const r = await programCli(['compare', a, b, '--primary', 'LOGCACHE_ACESS.spins_per_row']);
    assert.equal(r.code, 2, r.out + r.err);
    assert.match(r.err, /--primary LOGCACHE_ACESS\.spins_per_row: neither experiment recorded a spinlock named LOGCACHE_ACESS/);
    assert.match(r.err, /did you mean LOGCACHE_ACCESS\.spins_per_row\?/);
  });

  it('a wait type named as a spinlock: exit 2, saying which figure it has', async () => {
    const r = await programCli(['compare', a, b, '--primary', 'WRITELOG.spins_per_row']);
    assert.equal(r.code, 2, r.out + r.err);
    assert.match(r.err, /WRITELOG is a wait type.*WRITELOG\.wait_ms_per_row/);
  });

  it('a name either recorded, in any case: compared, with the recorded spelling', async () => {
    const r = await programCli(['compare', a, b, '--primary', 'logcache_access.spins_per_row']);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /LOGCACHE_ACCESS spins per row, the primary figure/);
  });
});
