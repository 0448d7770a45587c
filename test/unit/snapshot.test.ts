// Rebuilding full result sets from delta ticks (src/engine/snapshot.ts): a row that stops moving keeps its last
// values, a moved row replaces its old values in place, a new row is added, a set sent in parts (names once, values
// when they move) is merged by key and loses its hash key, a full snapshot (a reconnect) replaces everything kept, a
// delta with no full snapshot before it is refused, and two names on one key are caught rather than merged.
import assert from 'node:assert/strict';
import { DeltaReader, KeyMismatch, SnapshotKeeper, type DeltaLayout } from '../../src/engine/snapshot';
import type { DbSession, PreparedFile } from '../../src/db/client';
import type { Row } from '../../src/db/rows';
import { parseSample } from '../../src/engine/sampleRows';

// Parts: clock; set 1 by name (as sent whole); set 2 by two columns; set 3 in a name part and a value part on k.
const layout: DeltaLayout = [
  { target: 0 },
  { target: 1, key: ['name'] },
  { target: 2, key: ['a', 'b'] },
  { target: 3, key: ['k'], names: true },
  { target: 3, key: ['k'], named: true },
];
const clock = (t: number) => [{ ms_ticks: t }];

describe('SnapshotKeeper', () => {
  it('keeps the last values of a row that stops moving and updates the rows that moved', () => {
    const k = new SnapshotKeeper(layout);
    k.apply(
      [
        clock(1),
        [
          { name: 'X', spins: 1 },
          { name: 'Y', spins: 5 },
        ],
        [{ a: 1, b: 'p', v: 9 }],
        [],
        [],
      ],
      true,
    );
    const out = k.apply([clock(2), [{ name: 'Y', spins: 7 }], [], [], []], false);
    assert.deepEqual(out[0], clock(2), 'an unkeyed set is taken as sent');
    assert.deepEqual(out[1], [
      { name: 'X', spins: 1 },
      { name: 'Y', spins: 7 },
    ]);
    assert.deepEqual(out[2], [{ a: 1, b: 'p', v: 9 }], 'a set with no moved rows keeps every row');
    const later = k.apply([clock(3), [{ name: 'Z', spins: 1 }], [{ a: 1, b: 'q', v: 1 }], [], []], false);
    assert.deepEqual(
      later[1],
      [
        { name: 'X', spins: 1 },
        { name: 'Y', spins: 7 },
        { name: 'Z', spins: 1 },
      ],
      'a new row is added',
    );
    assert.deepEqual(
      later[2],
      [
        { a: 1, b: 'p', v: 9 },
        { a: 1, b: 'q', v: 1 },
      ],
      'keys of several columns',
    );
  });

  it('merges a name part and a value part by key into the full row, without the key', () => {
    const k = new SnapshotKeeper(layout);
    const first = k.apply(
      [
        clock(1),
        [],
        [],
        [
          { k: 7, wait_type: 'WRITELOG' },
          { k: -3, wait_type: 'PAGELATCH_EX' },
        ],
        [
          { k: 7, wait_ms: 10 },
          { k: -3, wait_ms: 2 },
        ],
      ],
      true,
    );
    assert.deepEqual(first[3], [
      { wait_type: 'WRITELOG', wait_ms: 10 },
      { wait_type: 'PAGELATCH_EX', wait_ms: 2 },
    ]);
    const next = k.apply([clock(2), [], [], [], [{ k: -3, wait_ms: 5 }]], false);
    assert.deepEqual(
      next[3],
      [
        { wait_type: 'WRITELOG', wait_ms: 10 },
        { wait_type: 'PAGELATCH_EX', wait_ms: 5 },
      ],
      'values by key alone',
    );
    const seen = k.apply([clock(3), [], [], [{ k: 9, wait_type: 'LCK_M_X' }], [{ k: 9, wait_ms: 1 }]], false);
    assert.deepEqual(
      seen[3].map((r) => r.wait_type),
      ['WRITELOG', 'PAGELATCH_EX', 'LCK_M_X'],
      'a name first seen later joins',
    );
  });

  it('two names on one key, or values for a key never named, are a KeyMismatch; the row that collided keeps its last values', () => {
    const k = new SnapshotKeeper(layout);
    k.apply([clock(1), [], [], [{ k: 7, wait_type: 'WRITELOG' }], [{ k: 7, wait_ms: 10 }]], true);
    assert.throws(() => k.apply([clock(2), [], [], [{ k: 7, wait_type: 'LCK_M_X' }], [{ k: 7, wait_ms: 1 }]], false), KeyMismatch);
    assert.throws(() => k.apply([clock(2), [], [], [], [{ k: 8, wait_ms: 1 }]], false), KeyMismatch);
    assert.throws(
      () =>
        new SnapshotKeeper(layout).apply(
          [
            clock(1),
            [],
            [],
            [
              { k: 1, wait_type: 'A' },
              { k: 1, wait_type: 'B' },
            ],
            [],
          ],
          true,
        ),
      KeyMismatch,
      'within one full snapshot too',
    );
    const out = k.apply([clock(3), [], [], [], []], false);
    assert.deepEqual(out[3], [{ wait_type: 'WRITELOG', wait_ms: 10 }], 'not renamed, not given the stray values');
  });

  it('a full snapshot (after a reconnect) replaces everything kept', () => {
    const k = new SnapshotKeeper(layout);
    k.apply(
      [
        clock(1),
        [
          { name: 'X', spins: 1 },
          { name: 'Y', spins: 5 },
        ],
        [{ a: 1, b: 'p', v: 9 }],
        [],
        [],
      ],
      true,
    );
    const out = k.apply([clock(2), [{ name: 'Y', spins: 6 }], [], [], []], true);
    assert.deepEqual(out[1], [{ name: 'Y', spins: 6 }], 'rows the full snapshot does not list are gone');
    assert.deepEqual(out[2], []);
  });

  it('refuses a delta before any full snapshot, and after reset()', () => {
    const k = new SnapshotKeeper(layout);
    assert.throws(() => k.apply([clock(1), [], [], [], []], false), /before any full snapshot/);
    k.apply([clock(1), [], [], [], []], true);
    k.reset();
    assert.throws(() => k.apply([clock(2), [], [], [], []], false), /before any full snapshot/);
  });
});

describe('SnapshotKeeper: a value sent as its change', () => {
  // The schedulers' busy part: CPU ms in full when the row is new to the snapshot, else as the change since it.
  const adds: DeltaLayout = [{ target: 0, key: ['id'], as: { ms: 'cpu' }, adds: { dms: 'cpu' } }];

  it('adds the change to the kept value, takes a full value as sent, and drops the change column', () => {
    const k = new SnapshotKeeper(adds);
    assert.deepEqual(k.apply([[{ id: 1, ms: '5000000000', dms: null, r: 0 }]], true), [[{ id: 1, cpu: '5000000000', r: 0 }]]);
    assert.deepEqual(k.apply([[{ id: 1, ms: null, dms: 250, r: 3 }]], false), [[{ id: 1, cpu: 5000000250, r: 3 }]]);
    assert.deepEqual(k.apply([[{ id: 2, ms: '7', dms: null, r: 0 }]], false), [
      [
        { id: 1, cpu: 5000000250, r: 3 },
        { id: 2, cpu: '7', r: 0 },
      ],
    ]);
    assert.deepEqual(k.apply([[{ id: 1, ms: null, dms: 1000, r: 1 }]], false)[0][0], { id: 1, cpu: 5000001250, r: 1 });
  });

  it('a change column sent before the value column still adds to the kept value (the NULL full value does not win)', () => {
    const k = new SnapshotKeeper(adds);
    k.apply([[{ id: 1, ms: '100', dms: null, r: 0 }]], true);
    assert.deepEqual(k.apply([[{ dms: 5, id: 1, ms: null, r: 2 }]], false), [[{ id: 1, cpu: 105, r: 2 }]]);
  });

  it('a rebuilt row is a new object: the rows handed out for the previous tick keep their values', () => {
    const k = new SnapshotKeeper(adds);
    const first = k.apply([[{ id: 1, ms: '100', dms: null, r: 0 }]], true)[0][0];
    k.apply([[{ id: 1, ms: null, dms: 5, r: 2 }]], false);
    assert.deepEqual(first, { id: 1, cpu: '100', r: 0 });
  });

  it('a change for a row never kept is a KeyMismatch (the reader then reads the full file)', () => {
    const k = new SnapshotKeeper(adds);
    k.apply([[{ id: 1, ms: '10', dms: null, r: 0 }]], true);
    assert.throws(() => k.apply([[{ id: 9, ms: null, dms: 5, r: 0 }]], false), KeyMismatch);
  });
});

describe('DeltaReader', () => {
  /** A monitor connection that answers the delta file with the given ticks in turn, and the full file with its own sets. */
  function fakeDb(ticks: Row[][][]) {
    const calls: string[] = [];
    const db = {
      connectionsLost: 0,
      runFile: async (id: string) => {
        calls.push(`run ${id}`);
        return id === 'full' ? [[{ full: true }]] : [];
      },
      prepare: async (id: string) => {
        calls.push(`prepare ${id}`);
        return { id } as unknown as PreparedFile;
      },
      executePrepared: async () => {
        calls.push('execute');
        return ticks.shift() ?? [];
      },
    };
    return { db: db as unknown as DbSession, calls };
  }
  const marker = (n: number) => [{ ticks_kept: n }];

  it('after two names on one key, says so once and reads the full file every tick from then on', async () => {
    const { db, calls } = fakeDb([
      [marker(0), clock(1), [], [], [{ k: 7, n: 'WRITELOG' }], [{ k: 7, ms: 1 }]],
      [marker(1), clock(2), [], [], [{ k: 7, n: 'LCK_M_X' }], [{ k: 7, ms: 2 }]],
    ]);
    const said: string[] = [];
    const r = new DeltaReader(
      'delta',
      [
        { target: 0 },
        { target: 1, key: ['name'] },
        { target: 2, key: ['a', 'b'] },
        { target: 3, key: ['k'], names: true, as: { n: 'wait_type' } },
        { target: 3, key: ['k'], named: true, as: { ms: 'wait_ms' } },
      ],
      'full',
      (m) => said.push(m),
    );
    const first = await r.read(db, {});
    assert.deepEqual(first.sets[3], [{ wait_type: 'WRITELOG', wait_ms: 1 }], 'aliases named back');
    const second = await r.read(db, {});
    assert.deepEqual(second, { sets: [[{ full: true }]], full: true }, 'the full file answers the tick that collided');
    assert.equal(said.length, 1);
    assert.match(said[0], /share the key 7.*sql\/full\.sql in full/);
    await r.read(db, {});
    assert.deepEqual(
      calls,
      ['run dmv/snapshot-setup', 'prepare delta', 'execute', 'execute', 'run full', 'run full'],
      'no delta tick after the fallback',
    );
    assert.equal(said.length, 1, 'said once');
  });
});

describe('parseSample over rebuilt sets', () => {
  // The spinlocks as the keeper keeps them: a row that did not move is the same object from tick to tick.
  const spinLayout: DeltaLayout = [{ target: 0 }, { target: 1, key: ['name'] }];
  const clockRow = (ms: number) => ({ server_time_utc: 't', ms_ticks: ms, cpu_ticks: 0, sqlserver_start_time: 's' });
  const spin = (name: string, spins: number) => ({ name, collisions: 0, spins, sleep_time: 0, backoffs: 0 });
  const parse = (sets: Row[][]) => parseSample([sets[0], sets[1], [], [], [], [], [], [], []], 0);

  it('parses a row again when it moved, and gives the same figures for one that did not (parsed once, then reused)', () => {
    const k = new SnapshotKeeper(spinLayout);
    const a = parse(k.apply([[clockRow(1)], [spin('LOCK_HASH', 10), spin('SOS_CACHESTORE', 5)]], true));
    const b = parse(k.apply([[clockRow(2)], [spin('LOCK_HASH', 25)]], false));
    assert.deepEqual(
      b.spinlocks.map((s) => [s.name, s.spins]),
      [
        ['LOCK_HASH', 25],
        ['SOS_CACHESTORE', 5],
      ],
    );
    assert.equal(a.spinlocks[0].spins, 10, "the previous sample's figures stay as they were");
    assert.equal(b.spinlocks[1], a.spinlocks[1], 'the row that did not move is not parsed again');
    assert.notEqual(b.spinlocks[0], a.spinlocks[0]);
  });

  it('keeps the parsed form out of sight: a parsed row copies, lists its columns and writes as JSON as before', () => {
    const row = spin('LOCK_HASH', 10);
    const first = parse([[clockRow(1)], [row]]).spinlocks[0];
    assert.deepEqual(Object.keys(row), ['name', 'collisions', 'spins', 'sleep_time', 'backoffs']);
    assert.equal(JSON.stringify(row), JSON.stringify(spin('LOCK_HASH', 10)));
    const moved = { ...row, spins: 11 };
    assert.equal(parse([[clockRow(2)], [moved]]).spinlocks[0].spins, 11, 'a copy of a parsed row is parsed again');
    assert.equal(parse([[clockRow(3)], [row]]).spinlocks[0], first, 'the same row: its parsed form, not parsed again');
  });
});
