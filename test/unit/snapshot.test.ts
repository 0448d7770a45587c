// Rebuilding full result sets from delta ticks (src/engine/snapshot.ts): a row that stops moving keeps its last
// values, a moved row replaces its old values in place, a new row is added, a full snapshot (a reconnect) replaces
// everything kept, and a delta with no full snapshot before it is refused.
import assert from 'node:assert/strict';
import { SnapshotKeeper } from '../../src/engine/snapshot';

const keys = new Map([[1, ['name']], [2, ['a', 'b']]]);
const clock = (t: number) => [{ ms_ticks: t }];

describe('SnapshotKeeper', () => {
  it('keeps the last values of a row that stops moving and updates the rows that moved', () => {
    const k = new SnapshotKeeper(keys);
    k.apply([clock(1), [{ name: 'X', spins: 1 }, { name: 'Y', spins: 5 }], [{ a: 1, b: 'p', v: 9 }]], true);
    const out = k.apply([clock(2), [{ name: 'Y', spins: 7 }], []], false);
    assert.deepEqual(out[0], clock(2), 'an unkeyed set is taken as sent');
    assert.deepEqual(out[1], [{ name: 'X', spins: 1 }, { name: 'Y', spins: 7 }]);
    assert.deepEqual(out[2], [{ a: 1, b: 'p', v: 9 }], 'a set with no moved rows keeps every row');
    const later = k.apply([clock(3), [{ name: 'Z', spins: 1 }], [{ a: 1, b: 'q', v: 1 }]], false);
    assert.deepEqual(later[1], [{ name: 'X', spins: 1 }, { name: 'Y', spins: 7 }, { name: 'Z', spins: 1 }], 'a new row is added');
    assert.deepEqual(later[2], [{ a: 1, b: 'p', v: 9 }, { a: 1, b: 'q', v: 1 }], 'keys of several columns');
  });

  it('a full snapshot (after a reconnect) replaces everything kept', () => {
    const k = new SnapshotKeeper(keys);
    k.apply([clock(1), [{ name: 'X', spins: 1 }, { name: 'Y', spins: 5 }], [{ a: 1, b: 'p', v: 9 }]], true);
    const out = k.apply([clock(2), [{ name: 'Y', spins: 6 }], []], true);
    assert.deepEqual(out[1], [{ name: 'Y', spins: 6 }], 'rows the full snapshot does not list are gone');
    assert.deepEqual(out[2], []);
  });

  it('refuses a delta before any full snapshot, and after reset()', () => {
    const k = new SnapshotKeeper(keys);
    assert.throws(() => k.apply([clock(1), [], []], false), /before any full snapshot/);
    k.apply([clock(1), [], []], true);
    k.reset();
    assert.throws(() => k.apply([clock(2), [], []], false), /before any full snapshot/);
  });
});
