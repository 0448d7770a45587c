// Stable colours for chart series: a name keeps its palette slot for as long as it is shown, so a top-N set that
// changes by one entry does not repaint every line. Slots are theme colour names; the view turns them into CSS
// colours from the --vscode-charts-* variables of the current theme.

/** The theme's chart colours, in the order they are handed out. */
export const PALETTE = ['blue', 'orange', 'green', 'red', 'purple', 'yellow', 'foreground', 'lines'] as const;

export class ColorAssigner {
  private readonly byName = new Map<string, number>();

  constructor(private readonly size: number = PALETTE.length) {}

  /**
   * Slots for the names shown now: names already shown keep theirs, names no longer shown free theirs, new names
   * take the lowest free slot (wrapping around when there are more names than slots).
   */
  assign(names: readonly string[]): Map<string, number> {
    const keep = new Set(names);
    for (const n of [...this.byName.keys()]) if (!keep.has(n)) this.byName.delete(n);
    const used = new Set(this.byName.values());
    let next = 0;
    for (const n of names) {
      if (this.byName.has(n)) continue;
      while (used.has(next % this.size) && used.size < this.size) next++;
      const slot = next % this.size;
      this.byName.set(n, slot);
      used.add(slot);
      next++;
    }
    return new Map(names.map((n) => [n, this.byName.get(n) as number]));
  }

  slotOf(name: string): number | undefined {
    return this.byName.get(name);
  }
}
