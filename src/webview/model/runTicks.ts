// A live run's ticks as the panel holds them: the columns a full snapshot brought (shared/tickColumns.ts), then the
// ticks that arrived one by one. The charts read the columns as they are; a view that wants Tick objects gets them
// decoded once, when it first asks (all()), so an eight-hour load does not build 28,800 nested objects before the
// first draw.
import type { Tick } from '../../shared/experiment';
import { decodeTick, decodeTicks, type TickColumns } from '../../shared/tickColumns';

export class RunTicks {
  private cols: TickColumns | null = null;
  private decoded: Tick[] | null = null;

  /** `live`: the ticks after the columns (the Watch passes its own array, which it then grows). */
  constructor(private readonly live: Tick[] = []) {}

  get length(): number {
    return (this.cols?.length ?? 0) + this.live.length;
  }

  /** The snapshot's ticks as columns (the first `columns.length` ticks), or null. */
  get columns(): TickColumns | null {
    return this.cols;
  }

  /** The ticks of a full snapshot: only into an empty run (a snapshot repeating ticks the panel has adds nothing). */
  load(cols: TickColumns): void {
    if (this.length > 0) throw new Error('tick columns load only into an empty run');
    this.cols = cols;
    this.decoded = null;
  }

  push(t: Tick): void {
    this.live.push(t);
    this.decoded?.push(t);
  }

  /** Tick i (decoded from the columns when it lies there). */
  at(i: number): Tick | undefined {
    const n = this.cols?.length ?? 0;
    if (i >= n) return this.live[i - n];
    return this.decoded ? this.decoded[i] : decodeTick(this.cols!, i);
  }

  last(): Tick | undefined {
    return this.length ? this.at(this.length - 1) : undefined;
  }

  /** Every tick as objects (decoded once, then kept and grown). */
  all(): Tick[] {
    if (!this.cols) return this.live;
    if (!this.decoded) this.decoded = [...decodeTicks(this.cols), ...this.live];
    return this.decoded;
  }
}
