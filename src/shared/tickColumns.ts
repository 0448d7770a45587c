// A run's ticks as columns, for the state message that carries hours of them: one typed array per leaf of the tick
// (t, rowsPerSec, spinlocks/XDESMGR/spins, ...), instead of tens of thousands of nested objects. Posting objects cost
// the panel more than drawing them (structured clone and its deserialization, then the garbage); a typed array is
// cloned as one copy of its bytes, and VS Code passes typed arrays through webview.postMessage as they are (since 1.57).
// Each column goes in the narrowest array that holds every one of its values exactly (most leaves are counts of a
// tick: whole numbers that fit 8, 16 or 32 bits), which halves the bytes of an 8-hour state or better.
// Lossless: a leaf that is null, absent at some ticks (a spinlock that did not move) or boolean (gap) is said per tick.
import type { Tick } from './experiment';

/** The arrays a column's values travel in, narrowest first (WIDTHS' order). */
export type ColumnValues = Uint8Array | Uint16Array | Uint32Array | Float32Array | Float64Array;
const WIDTHS = [Uint8Array, Uint16Array, Uint32Array, Float32Array, Float64Array] as const;
const F64 = WIDTHS.length - 1;

/** The narrowest of WIDTHS (its index) that holds v exactly: -0 and fractions need a float, NaN a double. */
export function widthOf(v: number): number {
  if (Number.isInteger(v) && v >= 0 && !Object.is(v, -0))
    return v < 0x100 ? 0 : v < 0x10000 ? 1 : v <= 0xffffffff ? 2 : Math.fround(v) === v ? 3 : F64;
  return Math.fround(v) === v ? 3 : F64;
}

/** One leaf of the ticks: its path from the tick down, and its value at every tick. */
export interface TickColumn {
  path: string[];
  /** 'boolean': 1 true, 0 false. */
  kind: 'number' | 'boolean';
  /** The value at each tick (0 where the leaf is absent or null), in the narrowest array that holds them exactly. */
  values: ColumnValues;
  /** Per tick: 1 the leaf holds values[i], 0 absent, 2 null. Omitted when every tick holds a value. */
  state?: Uint8Array;
}

export interface TickColumns {
  length: number;
  columns: TickColumn[];
}

const ABSENT = 0;
const VALUE = 1;
const NULL = 2;

/** A key's place in the encoder's tree: a leaf's column, or a branch's keys (no path string built per value). */
interface Node {
  path: string[];
  leaf: TickColumn | null;
  kids: Map<string, Node> | null;
}

/** A column while ticks are appended: its arrays have room to grow, and it counts the ticks that hold a value. */
interface Growing extends TickColumn {
  values: Float64Array;
  state: Uint8Array;
  held: number;
  /** The widest of its values so far (an index of WIDTHS). */
  width: number;
}

/**
 * Columns built tick by tick, so a host that keeps appending (a live run) encodes each tick once, not hours of them
 * on every full snapshot. Leaves keep the order first seen (decoded ticks list their keys as the originals did).
 */
export class TickColumnsBuilder {
  private n = 0;
  private cap: number;
  private readonly columns: Growing[] = [];
  private readonly root: Node = { path: [], leaf: null, kids: null };

  constructor(capacity = 64) {
    this.cap = Math.max(1, capacity);
  }

  get length(): number {
    return this.n;
  }

  append(tick: Tick): void {
    if (this.n === this.cap) this.grow();
    this.walk(tick as unknown as Record<string, unknown>, this.root, this.n);
    this.n++;
  }

  /** The columns so far, as copies sized to the ticks (the builder goes on growing its own). */
  snapshot(): TickColumns {
    const n = this.n;
    return {
      length: n,
      columns: this.columns.map((c) => {
        const values = c.width === F64 ? c.values.slice(0, n) : new WIDTHS[c.width](n);
        // Converting is exact: every value fits the width chosen for it.
        if (c.width !== F64) values.set(c.values.subarray(0, n));
        const out: TickColumn = { path: c.path, kind: c.kind, values };
        if (c.held !== n) out.state = c.state.slice(0, n);
        return out;
      }),
    };
  }

  private grow(): void {
    this.cap *= 2;
    for (const c of this.columns) {
      const values = new Float64Array(this.cap);
      values.set(c.values);
      const state = new Uint8Array(this.cap);
      state.set(c.state);
      c.values = values;
      c.state = state;
    }
  }

  private leaf(node: Node, kind: TickColumn['kind']): Growing {
    if (!node.leaf) {
      const c: Growing = { path: node.path, kind, values: new Float64Array(this.cap), state: new Uint8Array(this.cap), held: 0, width: 0 };
      node.leaf = c;
      this.columns.push(c);
    }
    return node.leaf as Growing;
  }

  private walk(o: Record<string, unknown>, at: Node, i: number): void {
    const kids = (at.kids ??= new Map());
    for (const k in o) {
      const v = o[k];
      if (v === undefined) continue;
      let node = kids.get(k);
      if (!node) kids.set(k, (node = { path: [...at.path, k], leaf: null, kids: null }));
      if (typeof v === 'number' || typeof v === 'boolean') {
        const c = this.leaf(node, typeof v === 'number' ? 'number' : 'boolean');
        const x = typeof v === 'number' ? v : v ? 1 : 0;
        c.values[i] = x;
        if (c.width !== F64) c.width = Math.max(c.width, widthOf(x));
        c.state[i] = VALUE;
        c.held++;
      } else if (v === null) this.leaf(node, 'number').state[i] = NULL;
      else if (typeof v === 'object' && !Array.isArray(v)) this.walk(v as Record<string, unknown>, node, i);
      else throw new Error(`tick ${i}: ${node.path.join('.')} is neither a number, a boolean, null nor an object`);
    }
  }
}

/** Columns of `ticks`, leaves in the order first seen (so decoded ticks list their keys as the originals did). */
export function encodeTicks(ticks: readonly Tick[]): TickColumns {
  const b = new TickColumnsBuilder(ticks.length);
  for (const t of ticks) b.append(t);
  return b.snapshot();
}

/** Tick i, as it was encoded. */
export function decodeTick(cols: TickColumns, i: number): Tick {
  const tick: Record<string, unknown> = {};
  for (const c of cols.columns) {
    const s = c.state ? c.state[i] : VALUE;
    if (s === ABSENT) continue;
    let o = tick;
    const last = c.path.length - 1;
    for (let d = 0; d < last; d++) {
      const k = c.path[d];
      let next = o[k] as Record<string, unknown> | null | undefined;
      if (next === undefined || next === null) o[k] = next = {};
      o = next;
    }
    o[c.path[last]] = s === NULL ? null : c.kind === 'boolean' ? c.values[i] !== 0 : c.values[i];
  }
  return tick as unknown as Tick;
}

export function decodeTicks(cols: TickColumns): Tick[] {
  const out = new Array<Tick>(cols.length);
  for (let i = 0; i < cols.length; i++) out[i] = decodeTick(cols, i);
  return out;
}

/** Eight hours at 250 ms, with room. */
const MAX_TICKS = 1_000_000;
const MAX_COLUMNS = 10_000;

/**
 * Checks columns that came over postMessage before the panel reads them: a malformed payload (a wrong length, a
 * missing array, a path that could write where a tick has no business) throws, and the panel drops it.
 */
export function checkTickColumns(raw: unknown): TickColumns {
  const fail = (why: string): never => {
    throw new Error(`tick columns: ${why}`);
  };
  if (!raw || typeof raw !== 'object') fail('not an object');
  const { length, columns } = raw as { length?: unknown; columns?: unknown };
  if (typeof length !== 'number' || !Number.isInteger(length) || length < 0 || length > MAX_TICKS) fail('length is not a tick count');
  if (!Array.isArray(columns) || columns.length > MAX_COLUMNS) fail(`columns must be a list of at most ${MAX_COLUMNS}`);
  const seen = new Set<string>();
  for (const [j, c] of (columns as unknown[]).entries()) {
    if (!c || typeof c !== 'object') fail(`column ${j} is not an object`);
    const { path, kind, values, state } = c as Partial<Record<keyof TickColumn, unknown>>;
    if (!Array.isArray(path) || path.length < 1 || path.length > 4) fail(`column ${j}'s path must be 1 to 4 keys`);
    for (const k of path as unknown[])
      if (typeof k !== 'string' || k.length > 256 || k === '__proto__' || k === 'constructor' || k === 'prototype')
        fail(`column ${j}'s path holds a bad key`);
    const key = (path as string[]).join('\u0000');
    if (seen.has(key)) fail(`column ${j} repeats ${(path as string[]).join('.')}`);
    seen.add(key);
    if (kind !== 'number' && kind !== 'boolean') fail(`column ${j}'s kind is neither number nor boolean`);
    if (!WIDTHS.some((w) => values instanceof w) || (values as ColumnValues).length !== length)
      fail(`column ${j}'s values are not ${length} numbers in a typed array (uint8, uint16, uint32, float32 or float64)`);
    if (state !== undefined) {
      if (!(state instanceof Uint8Array) || state.length !== length) fail(`column ${j}'s state is not ${length} bytes`);
      if ((state as Uint8Array).some((s) => s > NULL)) fail(`column ${j}'s state holds a value other than 0, 1, 2`);
    }
  }
  // A branch (monitor, own) is null at some ticks and an object at others: its column may say null, never a value,
  // and at a tick where it is null nothing under it is there. Anything else would decode one over the other.
  const byKey = new Map((columns as TickColumn[]).map((c) => [c.path.join('\u0000'), c]));
  for (const c of columns as TickColumn[]) {
    for (let d = 1; d < c.path.length; d++) {
      const branch = byKey.get(c.path.slice(0, d).join('\u0000'));
      if (!branch) continue;
      const bs = branch.state;
      const cs = c.state;
      for (let i = 0; i < (length as number); i++) {
        const b = bs ? bs[i] : VALUE;
        if (b === VALUE || (b === NULL && (cs ? cs[i] : VALUE) !== ABSENT)) fail(`${c.path.join('.')} lies under a value at tick ${i}`);
      }
    }
  }
  return raw as TickColumns;
}
