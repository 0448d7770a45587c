// deploy, cleanup, drop-lab and restore said again: each says truthfully what it found, exit 0. A second cleanup said
// "Removed" when nothing was there; a second deploy did not say it replaced what the first one made.
import assert from 'node:assert/strict';
import { withSim } from '../helpers/simClient';
import { targetFor } from '../helpers/simTarget';
import { cleanupCommand, deployCommand, dropLabCommand } from '../../src/cli/commands';

const LAB = 'SpinlockLab';

describe('lab commands said twice', function () {
  this.timeout(60_000);

  it('cleanup with no lab database, and with the scenario gone: "Nothing to remove", never "Removed"', () =>
    withSim({}, async (sim) => {
      const t = targetFor(sim);
      const none = await cleanupCommand(t, 'disk-insert', [], LAB);
      assert.match(none, /^Nothing to remove: no lab database \[SpinlockLab\] on 127\.0\.0\.1,\d+/m);
      assert.doesNotMatch(none, /Removed/);
      assert.match(await deployCommand(t, 'disk-insert', ['seed_rows=0'], LAB), /^Deployed disk-insert into \[SpinlockLab\]/m);
      assert.match(await cleanupCommand(t, 'disk-insert', [], LAB), /^Removed disk-insert from \[SpinlockLab\]\./m);
      const again = await cleanupCommand(t, 'disk-insert', [], LAB);
      assert.match(again, /^Nothing to remove: disk-insert is not deployed in \[SpinlockLab\]/m);
      assert.doesNotMatch(again, /Removed|running sql/);
      assert.match(await dropLabCommand(t, LAB), /^Dropped the lab database/);
      assert.match(await dropLabCommand(t, LAB), /nothing to drop/);
    }));

  it('a second deploy says it replaced the first one (its table emptied and seeded again)', () =>
    withSim({}, async (sim) => {
      const t = targetFor(sim);
      const first = await deployCommand(t, 'disk-insert', ['seed_rows=0'], LAB);
      assert.doesNotMatch(first, /already/);
      const second = await deployCommand(t, 'disk-insert', ['seed_rows=0'], LAB);
      assert.match(second, /^Deployed disk-insert into \[SpinlockLab\] .*: it was deployed already, and is deployed afresh/m);
    }));
});
