// Chart series colours by name: a name's palette slot comes from a hash of the name, so LOGCACHE_ACCESS has the same
// colour in every run, chart and legend whatever its rank. Names that want the same slot take the next free one,
// in the order of their hashes (not their ranks), so a set of names is coloured the same every time; a name already
// shown keeps its slot while it stays, so one newcomer does not repaint the others. Slots are theme colour names; the
// view turns them into CSS colours from the --vscode-charts-* variables of the current theme.

/** The theme's chart colours, by slot. */
export const PALETTE = ['blue', 'orange', 'green', 'red', 'purple', 'yellow', 'foreground', 'lines'] as const;

/** FNV-1a over the name's UTF-16 code units: stable across sessions, browsers and Node. */
function hash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** Throughput is the good news on a chart: blue and green, never the red its hash would give it. */
const THROUGHPUT_SLOTS: Readonly<Record<string, number>> = {
  'rows/s': PALETTE.indexOf('blue'),
  'calls/s': PALETTE.indexOf('blue'),
  'batch requests/s': PALETTE.indexOf('blue'),
  'transactions/s': PALETTE.indexOf('green'),
};

/** The slot a name takes when no other shown name has it. */
export function preferredSlot(name: string, size: number = PALETTE.length): number {
  const fixed = THROUGHPUT_SLOTS[name];
  return fixed !== undefined && fixed < size ? fixed : hash(name) % size;
}

export class ColorAssigner {
  private readonly byName = new Map<string, number>();

  constructor(private readonly size: number = PALETTE.length) {}

  /**
   * Slots for the names shown now: names already shown keep theirs, names no longer shown free theirs, new names
   * (in hash order) take their preferred slot or the next free one after it (wrapping around when there are more
   * names than slots).
   */
  assign(names: readonly string[]): Map<string, number> {
    const keep = new Set(names);
    for (const n of [...this.byName.keys()]) if (!keep.has(n)) this.byName.delete(n);
    const used = new Set(this.byName.values());
    const fresh = [...new Set(names)].filter((n) => !this.byName.has(n)).sort((x, y) => hash(x) - hash(y) || (x < y ? -1 : x > y ? 1 : 0));
    for (const n of fresh) {
      let slot = preferredSlot(n, this.size);
      for (let k = 0; k < this.size && used.has(slot); k++) slot = (slot + 1) % this.size;
      this.byName.set(n, slot);
      used.add(slot);
    }
    return new Map(names.map((n) => [n, this.byName.get(n) as number]));
  }

  slotOf(name: string): number | undefined {
    return this.byName.get(name);
  }
}
