// Misuses of the commands that print results: `spinlab compare A A` (an experiment against itself: the same folder
// twice, or a copy) is refused, saying so, instead of a verdict that "B is the same"; an --out folder where none can
// be made is a files error naming it, not an internal error.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { programCli } from '../helpers/cliInProcess';
import { tmp } from '../helpers/common';
import * as b from '../helpers/builders';

function saved(e: ReturnType<typeof b.experiment>, dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'experiment.json'), JSON.stringify(e));
  return dir;
}

describe('spinlab compare of an experiment with itself', () => {
  it('the same folder twice, or a copy of it: exit 2, naming the experiment', async () => {
    const e = b.experiment('2026-12-01T10-00-00-000Z-disk-insert', [1, 2]);
    const a = saved(e, path.join(tmp('cmp-same'), 'a'));
    const copy = saved(e, path.join(tmp('cmp-same'), 'copy'));
    for (const other of [a, copy]) {
      const r = await programCli(['compare', a, other]);
      assert.equal(r.code, 2, r.out + r.err);
      assert.match(r.err, /A and B are the same experiment \(2026-12-01T10-00-00-000Z-disk-insert[,)]/);
      assert.equal(r.out, '');
    }
    const other = saved({ ...e, id: '2026-12-01T11-00-00-000Z-disk-insert' }, path.join(tmp('cmp-same'), 'b'));
    const r = await programCli(['compare', a, other]);
    assert.equal(r.code, 0, r.err);
  });
});

describe('an --out folder that cannot be made (a pseudo file system)', () => {
  it('demo and run: a files error naming the folder (exit 5), not an internal error', async () => {
    for (const args of [
      ['demo', '--out', '/proc/spinlab-demo'],
      ['run', '-c', 'Server=127.0.0.1,1;User ID=sa', '--scenario', 'disk-insert', '--out', '/proc/spinlab-run'],
    ]) {
      const r = await programCli(args);
      assert.equal(r.code, 5, r.err);
      assert.match(r.err, /Could not write \/proc\/spinlab-(demo|run): /);
      assert.doesNotMatch(r.err, /internal error/);
    }
  });
});
