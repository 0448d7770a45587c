// A series' colour follows its name, not its rank: the same spinlock has the same colour in every run, chart and
// legend, whatever else is shown beside it and in whatever order; names that want the same colour get distinct ones,
// the same way every time.
import assert from 'node:assert/strict';
import { ColorAssigner, PALETTE, preferredSlot } from '../../../src/webview/model/colors';

describe('series colours by name', () => {
  it('gives a name the same slot whatever its rank', () => {
    const one = new ColorAssigner().assign(['LOGCACHE_ACCESS', 'XDESMGR', 'LOCK_HASH']);
    const other = new ColorAssigner().assign(['XDESMGR', 'LOCK_HASH', 'LOGCACHE_ACCESS']);
    for (const n of ['LOGCACHE_ACCESS', 'XDESMGR', 'LOCK_HASH']) assert.equal(one.get(n), other.get(n), n);
  });

  it('a name alone takes the slot its name picks, in any chart', () => {
    for (const n of ['LOGCACHE_ACCESS', 'XDESMGR', 'WRITELOG', 'rows/s']) {
      assert.equal(new ColorAssigner().assign([n]).get(n), preferredSlot(n), n);
      assert.ok(preferredSlot(n) >= 0 && preferredSlot(n) < PALETTE.length);
    }
  });

  it('names that collide get distinct slots, the same way in either order', () => {
    const names = Array.from({ length: 40 }, (_, i) => `SPIN_${i}`);
    const byPref = new Map<number, string[]>();
    for (const n of names) byPref.set(preferredSlot(n), [...(byPref.get(preferredSlot(n)) ?? []), n]);
    const pair = [...byPref.values()].find((v) => v.length >= 2)!;
    const a = new ColorAssigner().assign(pair.slice(0, 2));
    const b = new ColorAssigner().assign(pair.slice(0, 2).reverse());
    assert.notEqual(a.get(pair[0]), a.get(pair[1]));
    assert.deepEqual([a.get(pair[0]), a.get(pair[1])], [b.get(pair[0]), b.get(pair[1])]);
  });

  it('throughput is blue and green on every chart, never red', () => {
    const a = new ColorAssigner();
    const slots = a.assign(['XDESMGR', 'rows/s', 'transactions/s']);
    assert.equal(PALETTE[slots.get('rows/s')!], 'blue');
    assert.equal(PALETTE[slots.get('transactions/s')!], 'green');
    assert.equal(PALETTE[preferredSlot('calls/s')], 'blue');
  });
});
