// No Node deprecation warning reaches a spinlab user: the CLI entry drops them before anything
// loads; other warnings still show, and SPINLAB_SHOW_WARNINGS=1 brings them back.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const warnings = path.join(__dirname, '../../src/cli/warnings.js');
function run(code: string, env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['-e', `require(${JSON.stringify(warnings)}).quietDeprecations(); ${code}`], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '--pending-deprecation', ...env },
  });
}

describe('CLI warnings', () => {
  it('a library loading the deprecated punycode module prints nothing (DEP0040)', () => {
    const r = run("require('punycode'); process.emitWarning('old API', 'DeprecationWarning', 'DEP9999');");
    assert.equal(r.stderr, '');
  });
  it('other warnings still show; SPINLAB_SHOW_WARNINGS=1 shows deprecations', () => {
    assert.match(run("process.emitWarning('careful', 'ExperimentalWarning');").stderr, /careful/);
    assert.match(run("require('punycode');", { SPINLAB_SHOW_WARNINGS: '1' }).stderr, /DEP0040|punycode/);
  });
});
