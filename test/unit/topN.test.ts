import assert from 'node:assert/strict';
import fc from 'fast-check';
import { rankBy, topN } from '../../src/engine/topN';

const spins = {
  LOGCACHE_ACCESS: { spins: 900, backoffs: 3 },
  LOCK_HASH: { spins: 50, backoffs: 9 },
  XDESMGR: { spins: 50, backoffs: 1 },
  BLOCKER_ENUM: { spins: 50, backoffs: 0 },
  SOS_CACHESTORE: { spins: 0, backoffs: 0 },
};

it('highest first, ties by name', () => {
  assert.deepEqual(
    topN(spins, 'spins', 4).map((r) => [r.name, r.value]),
    [
      ['LOGCACHE_ACCESS', 900],
      ['BLOCKER_ENUM', 50],
      ['LOCK_HASH', 50],
      ['XDESMGR', 50],
    ],
  );
});

it('metric as a function, ascending, skipZero', () => {
  assert.deepEqual(
    topN(spins, (e) => e.backoffs, 2).map((r) => r.name),
    ['LOCK_HASH', 'LOGCACHE_ACCESS'],
  );
  assert.deepEqual(
    topN(spins, 'spins', 2, { order: 'asc', skipZero: true }).map((r) => r.name),
    ['BLOCKER_ENUM', 'LOCK_HASH'],
  );
  assert.equal(topN(spins, 'spins', 10).length, 5);
  assert.deepEqual(topN(spins, 'spins', 0), []);
});

it('entries whose metric is not a number go last', () => {
  const r = rankBy({ a: { v: Number.NaN }, b: { v: 1 }, c: { v: -Infinity } }, 'v');
  assert.deepEqual(
    r.map((x) => x.name),
    ['b', 'c', 'a'],
  );
});

it('a bad n is a caller bug', () => {
  assert.throws(() => topN(spins, 'spins', -1), /non-negative integer/);
  assert.throws(() => topN(spins, 'spins', 1.5), /non-negative integer/);
});

it('property: the result is sorted, a prefix of the full ranking, independent of insertion order', () => {
  const entries = fc
    .uniqueArray(fc.tuple(fc.string({ maxLength: 6 }), fc.integer({ min: -5, max: 5 })), {
      selector: ([k]) => k,
      maxLength: 30,
    })
    .filter((es) => es.every(([k]) => k !== '__proto__'));
  fc.assert(
    fc.property(entries, fc.nat(40), (es, n) => {
      const rec = Object.fromEntries(es.map(([k, v]) => [k, { v }]));
      const reversed = Object.fromEntries([...es].reverse().map(([k, v]) => [k, { v }]));
      const top = topN(rec, 'v', n);
      assert.equal(top.length, Math.min(n, es.length));
      assert.deepEqual(top, topN(reversed, 'v', n));
      for (let i = 1; i < top.length; i++) {
        const [a, b] = [top[i - 1], top[i]];
        assert.ok(a.value > b.value || (a.value === b.value && a.name < b.name));
      }
    }),
  );
});
