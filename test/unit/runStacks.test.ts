// spinlab run --stacks: its options are checked before anything runs, with what to type instead.
import assert from 'node:assert/strict';
import { runStacksPlan } from '../../src/cli/runStacks';

it('run --stacks: a spinlock name and a duration of 1 s or more (10 s unless given); --stacks-duration alone is refused', () => {
  assert.equal(runStacksPlan(undefined, undefined), null);
  assert.deepEqual(runStacksPlan('XDESMGR', undefined), { spinlock: 'XDESMGR', durationMs: 10_000 });
  assert.deepEqual(runStacksPlan('LOGCACHE_ACCESS', '3s'), { spinlock: 'LOGCACHE_ACCESS', durationMs: 3000 });
  assert.throws(() => runStacksPlan('LOG; DROP', undefined), /--stacks takes a spinlock name such as LOGCACHE_ACCESS/);
  assert.throws(() => runStacksPlan('XDESMGR', '500ms'), /--stacks-duration must be 1s or more/);
  assert.throws(() => runStacksPlan(undefined, '5s'), /--stacks-duration goes with --stacks NAME/);
});
