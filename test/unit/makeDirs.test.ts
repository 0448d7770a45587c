// makeDirs, the `mkdir -p` every output folder goes through: it makes each missing level, returns the first it made,
// and ends with an error where Node's own recursive mkdir would retry for ever (a pseudo file system such as /proc).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeDirs } from '../../src/engine/outFiles';
import { tmp } from '../helpers/common';

describe('makeDirs', () => {
  it('makes every missing level and returns the first one it made; nothing when all are there', () => {
    const root = tmp('makedirs');
    const deep = path.join(root, 'a', 'b', 'c');
    assert.equal(makeDirs(deep), path.join(root, 'a'));
    assert.ok(fs.statSync(deep).isDirectory());
    assert.equal(makeDirs(deep), undefined);
  });

  it('refuses a path through a file, or onto one, as mkdir -p does', () => {
    const root = tmp('makedirs-file');
    const file = path.join(root, 'f');
    fs.writeFileSync(file, '');
    assert.throws(() => makeDirs(path.join(file, 'x')), { code: 'ENOTDIR' });
    assert.throws(() => makeDirs(file), { code: 'EEXIST' });
  });

  it('ends with ENOENT under /proc, where the recursive mkdirSync never returns', function () {
    if (!fs.existsSync('/proc/self')) this.skip(); // no /proc on this platform: nothing to loop on
    assert.throws(() => makeDirs('/proc/spinlab-no-such/x'), { code: 'ENOENT' });
  });
});
