// The state message's tick columns (src/shared/tickColumns.ts, stateSnapshot.ts): lossless for every kind of leaf a
// tick holds, and checked on arrival, so a malformed payload is refused rather than drawn.
import assert from 'node:assert/strict';
import type { Tick } from '../../src/shared/experiment';
import { checkTickColumns, decodeTick, decodeTicks, encodeTicks, widthOf, type TickColumns } from '../../src/shared/tickColumns';
import { checkStateTicks, fullStatePayload } from '../../src/shared/stateSnapshot';
import { addTickToTotals, emptyRunTotals } from '../../src/shared/analysis';
import * as b from '../helpers/builders';

/** Ticks with every kind of leaf: entries that come and go, nulls, a boolean, a branch null at some ticks only. */
function mixedTicks(): Tick[] {
  return b.ticks(40, { threads: 4 }).map((t, i) => ({
    ...t,
    ...(i % 7 === 3 ? { gap: true } : {}),
    ...(i % 5 === 0 ? { hiddenCpuMs: i * 1.5 } : {}),
    monitor: i % 4 === 0 ? null : { cpuMs: i, logicalReads: 10, writes: 0, scheduledMs: 2, recompiles: i % 2 ? null : 1, compilations: 3 },
    log: { ...t.log, avgWriteStallMs: i % 3 ? null : 0.25 },
  }));
}

/** A copy of the columns with its typed arrays copied too (the tests below break one). */
const copy = (c: TickColumns): TickColumns => ({
  length: c.length,
  columns: c.columns.map((x) => ({ ...x, path: [...x.path], values: x.values.slice(), ...(x.state ? { state: x.state.slice() } : {}) })),
});

describe('tick columns', () => {
  it('decode to the very ticks encoded: numbers, nulls, absent entries, booleans, a branch that is null at some ticks', () => {
    const ticks = mixedTicks();
    const cols = encodeTicks(ticks);
    assert.deepEqual(decodeTicks(cols), ticks);
    assert.deepEqual(decodeTick(cols, 21), ticks[21]);
    // One array per leaf, the narrowest that holds it (whole ms up to 40 s: 16 bits), and the timestamps once.
    assert.deepEqual(cols.columns.find((c) => c.path.join('.') === 't')?.values, Uint16Array.from(ticks.map((t) => t.t)));
    assert.equal(cols.columns.find((c) => c.path.join('.') === 't')?.state, undefined, 'a leaf every tick holds has no state bytes');
    assert.ok(
      cols.columns.find((c) => c.path.join('.') === 'spinlocks.SOS_CACHESTORE.spins')?.state,
      'an entry that comes and goes says where',
    );
    assert.deepEqual(checkTickColumns(cols), cols);
  });

  it('each column travels in the narrowest array that holds all its values exactly: counts in 8, 16 or 32 bits, the rest as floats', () => {
    const values: Record<string, number[]> = {
      small: [0, 1, 255],
      medium: [0, 256, 65_535],
      large: [65_536, 4_294_967_295],
      single: [0.5, -3, 16_777_216 * 4],
      negativeZero: [0, -0],
      fraction: [0.1, 2],
      huge: [4_294_967_296 + 1, 0],
      notANumber: [1, NaN],
      infinite: [Infinity, 1],
    };
    const n = 3;
    const ticks = Array.from({ length: n }, (_, i) => {
      const t: Record<string, unknown> = { t: i, gap: i === 1 };
      for (const [k, v] of Object.entries(values)) if (i < v.length) t[k] = v[i];
      return t as unknown as Tick;
    });
    const cols = encodeTicks(ticks);
    const type = (name: string) => cols.columns.find((c) => c.path[0] === name)?.values.constructor.name;
    assert.deepEqual(Object.fromEntries(['t', 'gap', ...Object.keys(values)].map((k) => [k, type(k)])), {
      t: 'Uint8Array',
      gap: 'Uint8Array',
      small: 'Uint8Array',
      medium: 'Uint16Array',
      large: 'Uint32Array',
      single: 'Float32Array',
      negativeZero: 'Float32Array',
      fraction: 'Float64Array',
      huge: 'Float64Array',
      notANumber: 'Float64Array',
      infinite: 'Float32Array',
    });
    // Exact: every value, -0 and NaN included, decodes as it was.
    const back = decodeTicks(checkTickColumns(cols)) as unknown as Record<string, unknown>[];
    for (let i = 0; i < n; i++)
      for (const [k, v] of Object.entries(values))
        if (i < v.length) assert.ok(Object.is(back[i][k], v[i]), `${k} at ${i}: ${String(back[i][k])}`);
    assert.equal(widthOf(-1), 3, 'a negative count is not unsigned');
  });

  it('a full snapshot carries the active runs ticks as columns, with their totals folded beside them', () => {
    const ticks = b.ticks(30, { threads: 8 });
    const state = b.connectedState({
      active: {
        experimentId: 'e',
        title: 't',
        scenarioId: 'disk-insert',
        simulated: true,
        status: 'running',
        message: '',
        events: [],
        runs: [{ index: 2, threads: 8, status: 'running', ticks }],
      },
    });
    const p = fullStatePayload(state);
    assert.deepEqual(p.state.active?.runs[0].ticks, []);
    assert.deepEqual(p.state.active?.runs[0].totals, ticks.reduce(addTickToTotals, emptyRunTotals()));
    const [run] = checkStateTicks(p.ticks);
    assert.equal(run.index, 2);
    assert.deepEqual(decodeTicks(run.columns), ticks);
    assert.deepEqual(state.active?.runs[0].ticks, ticks, 'the host keeps its own ticks');
  });

  it('a snapshot after more ticks arrived encodes the new ones onto the old: the same columns and totals as from scratch', () => {
    const all = mixedTicks();
    const ticks = all.slice(0, 10);
    const run = { index: 0, threads: 4, status: 'running', ticks };
    const active = {
      experimentId: 'e',
      title: 't',
      scenarioId: 'disk-insert',
      simulated: true,
      status: 'running',
      message: '',
      events: [],
      runs: [run],
    };
    const state = b.connectedState({ active } as Parameters<typeof b.connectedState>[0]);
    const first = fullStatePayload(state);
    ticks.push(...all.slice(10)); // the host appends as runTick messages go out
    const second = fullStatePayload(state);
    assert.deepEqual(decodeTicks(checkStateTicks(second.ticks)[0].columns), all);
    assert.deepEqual(second.ticks?.[0].columns, encodeTicks(all));
    assert.deepEqual(second.state.active?.runs[0].totals, all.reduce(addTickToTotals, emptyRunTotals()));
    // The first payload was handed out already: neither its columns nor its totals moved.
    assert.equal(first.ticks?.[0].columns.length, 10);
    assert.deepEqual(first.state.active?.runs[0].totals, all.slice(0, 10).reduce(addTickToTotals, emptyRunTotals()));
  });

  it('refuses a malformed payload', () => {
    const good = encodeTicks(mixedTicks());
    const broken: [string, (c: TickColumns) => unknown, RegExp][] = [
      ['not an object', () => 'columns', /not an object/],
      ['a length that is not a count', (c) => ({ ...c, length: -1 }), /length/],
      ['values as a plain list', (c) => (((c.columns[0].values as unknown) = Array.from(c.columns[0].values)), c), /typed array/],
      ['values one short', (c) => ((c.columns[1].values = c.columns[1].values.subarray(1)), c), /typed array/],
      [
        'values in an array type no encoder writes',
        (c) => (((c.columns[0].values as unknown) = new Int32Array(c.length)), c),
        /typed array/,
      ],
      ['a state of the wrong length', (c) => ((c.columns.find((x) => x.state)!.state = new Uint8Array(3)), c), /state/],
      ['a state byte out of range', (c) => ((c.columns.find((x) => x.state)!.state![0] = 7), c), /0, 1, 2/],
      ['an unknown kind', (c) => (((c.columns[0].kind as unknown) = 'string'), c), /kind/],
      ['a path through __proto__', (c) => ((c.columns[0].path = ['__proto__', 'polluted']), c), /bad key/],
      ['an empty path', (c) => ((c.columns[0].path = []), c), /path/],
      ['a repeated path', (c) => (c.columns.push(c.columns[0]), c), /repeats/],
      [
        'a leaf under a number',
        (c) => (c.columns.push({ path: ['t', 'x'], kind: 'number', values: new Float64Array(c.length) }), c),
        /lies under/,
      ],
    ];
    for (const [what, breakIt, why] of broken) assert.throws(() => checkTickColumns(breakIt(copy(good))), why, what);
    assert.throws(() => checkStateTicks([{ index: 0, columns: { length: 2 } }]), /columns/);
    assert.throws(() => checkStateTicks([{ index: 'first', columns: good }]), /run index/);
    assert.throws(() => checkStateTicks({}), /list/);
    assert.deepEqual(checkStateTicks(undefined), []);
  });
});
