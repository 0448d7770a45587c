// "Why is it spinning?" in the webview, as data (no DOM): the capture's state as the panel shows it (asked, running,
// done, failed), the spinlocks a run or a watch offers to ask about, and the flame layout of a capture's folded tree:
// each frame a bar whose width is its share of the events, children side by side within their parent, largest first.
import type { SpinDelta, Tick } from '../../shared/experiment';
import type { StackCapture, StackNode } from '../../shared/stacks';
export type { StackCapture };
import type { StackDurationMs } from '../../shared/stacksMessages';

/** Where the question was asked: the live experiment's charts, the watch, or a saved experiment (re-captured now). */
export type StacksSource = 'live' | 'watch' | 'saved' | 'now';

export type StacksPhase = 'idle' | 'confirm' | 'running' | 'done' | 'error';

export interface StacksError {
  spinlock: string | null;
  message: string;
  grant?: string;
  cancelled?: boolean;
}

export class StacksModel {
  phase: StacksPhase = 'idle';
  spinlock: string | null = null;
  source: StacksSource = 'live';
  /** The saved experiment asked from (its capture is kept with it), when source is 'saved'. */
  experimentId: string | null = null;
  durationMs: StackDurationMs = 10_000;
  progress = { elapsedMs: 0, durationMs: 0 };
  capture: StackCapture | null = null;
  error: StacksError | null = null;
  /** The bar that has keyboard focus in the flame view (its id), and the one under the pointer. */
  focused = 0;
  hovered: number | null = null;

  /** The user pressed "Why is it spinning?" on a spinlock: the panel says what a capture does before it runs. */
  ask(spinlock: string, source: StacksSource, experimentId: string | null = null): void {
    if (this.phase === 'running') return;
    this.spinlock = spinlock;
    this.source = source;
    this.experimentId = experimentId;
    this.phase = 'confirm';
    this.error = null;
  }

  dismiss(): void {
    if (this.phase === 'confirm') this.phase = this.capture ? 'done' : 'idle';
  }

  /** Confirmed: the request to send. */
  start(): { spinlock: string; durationMs: StackDurationMs; experimentId?: string | null } | null {
    if (this.phase !== 'confirm' || !this.spinlock) return null;
    this.phase = 'running';
    this.progress = { elapsedMs: 0, durationMs: this.durationMs };
    // Kept with: the saved experiment asked from, none for the watch, the live experiment (the host knows it) otherwise.
    const keep =
      this.source === 'saved'
        ? { experimentId: this.experimentId }
        : this.source === 'watch' || this.source === 'now'
          ? { experimentId: null }
          : {};
    return { spinlock: this.spinlock, durationMs: this.durationMs, ...keep };
  }

  onProgress(p: { spinlock: string; elapsedMs: number; durationMs: number }): void {
    this.phase = 'running';
    this.spinlock = p.spinlock;
    this.progress = { elapsedMs: p.elapsedMs, durationMs: p.durationMs || this.progress.durationMs };
  }

  onResult(c: StackCapture): void {
    // The host sends the last capture again on every `ready` (also when the panel is only shown again): the same one
    // leaves the view as it is (a question being asked, the bar in focus).
    if (this.capture && this.capture.session === c.session && this.capture.startedAt === c.startedAt) return;
    this.capture = c;
    this.spinlock = c.spinlock;
    this.phase = 'done';
    this.error = null;
    this.focused = 0;
    this.hovered = null;
  }

  onError(e: StacksError): void {
    // "Already running" concerns another request: the capture under way goes on.
    if (this.phase === 'running' && e.spinlock !== this.spinlock) return;
    this.error = e;
    this.phase = 'error';
  }
}

// ---------------------------------------------------------------- which spinlocks to offer

export interface SpinlockRow {
  name: string;
  spins: number;
  backoffs: number;
}

/** The spinlocks that spun in these ticks, most backoffs first (the event counts backoffs), then spins. */
export function spinlockRows(ticks: readonly Pick<Tick, 'spinlocks'>[], top = 5): SpinlockRow[] {
  const sum = new Map<string, SpinlockRow>();
  for (const t of ticks) {
    for (const [name, d] of Object.entries(t.spinlocks)) {
      const r = sum.get(name) ?? { name, spins: 0, backoffs: 0 };
      r.spins += d.spins;
      r.backoffs += d.backoffs;
      sum.set(name, r);
    }
  }
  return [...sum.values()]
    .filter((r) => r.spins > 0 || r.backoffs > 0)
    .sort((a, b) => b.backoffs - a.backoffs || b.spins - a.spins || a.name.localeCompare(b.name))
    .slice(0, top);
}

/**
 * A live run's rows. While it runs its totals are its ticks folded (the same sums, in the same order), so hours of
 * ticks are not walked on every render; once it ended its totals are the record's, so its ticks are summed as before.
 */
export function liveSpinlockRows(run: {
  record: unknown;
  ticks: readonly Pick<Tick, 'spinlocks'>[];
  totals: { spinlocks: Record<string, SpinDelta> };
}): SpinlockRow[] {
  return run.record ? spinlockRows(run.ticks) : spinlockRowsOfRuns([run]);
}

/** Rows from finished runs' totals (a saved experiment: every run summed). */
export function spinlockRowsOfRuns(runs: readonly { totals: { spinlocks: Record<string, SpinDelta> } }[], top = 5): SpinlockRow[] {
  return spinlockRows(
    runs.map((r) => ({ spinlocks: r.totals.spinlocks })),
    top,
  );
}

// ---------------------------------------------------------------- frames and the flame layout

export { frameText } from '../../shared/stacks';

export interface FlameBar {
  id: number;
  parent: number | null;
  depth: number;
  /** Left edge and width as fractions of the whole capture (0..1). */
  x: number;
  w: number;
  frame: string;
  count: number;
  /** Share of every counted event, 0..1. */
  share: number;
  children: number[];
}

export interface FlameLayout {
  bars: FlameBar[];
  /** Rows: the deepest bar's depth + 1. */
  rows: number;
  total: number;
  /** Bars left out because they would be narrower than the minimum width (their events stay in their parent). */
  hidden: number;
}

/**
 * Lays out the folded tree: the root spans the whole width; each node's children share its width in proportion to
 * their counts (scaled down when bad data makes them add up to more than the parent), largest first.
 */
export function flameLayout(tree: StackNode, minWidth = 0.002): FlameLayout {
  const total = Math.max(
    tree.count,
    tree.children.reduce((a, c) => a + c.count, 0),
  );
  const bars: FlameBar[] = [];
  let hidden = 0;
  let rows = 0;
  const place = (node: StackNode, parent: number | null, depth: number, x: number, w: number): void => {
    const id = bars.length;
    bars.push({ id, parent, depth, x, w, frame: node.frame, count: node.count, share: total > 0 ? node.count / total : 0, children: [] });
    if (parent !== null) bars[parent].children.push(id);
    rows = Math.max(rows, depth + 1);
    const kids = [...node.children].sort((a, b) => b.count - a.count || a.frame.localeCompare(b.frame));
    const scale = Math.max(
      node.count,
      kids.reduce((a, c) => a + c.count, 0),
    );
    let cx = x;
    for (const k of kids) {
      const kw = scale > 0 ? (k.count / scale) * w : 0;
      if (kw < minWidth) hidden += countNodes(k);
      else place(k, id, depth + 1, cx, kw);
      cx += kw;
    }
  };
  if (total > 0) place(tree, null, 0, 0, 1);
  return { bars, rows, total, hidden };
}

function countNodes(n: StackNode): number {
  return 1 + n.children.reduce((a, c) => a + countNodes(c), 0);
}

/**
 * Keyboard moves in the flame view (outermost frame at the bottom): Up to the widest child (towards the frame that
 * backed off), Down to the parent, Left and Right to the neighbour in the same row, Home to the root.
 */
export function flameMove(layout: FlameLayout, from: number, key: string): number | null {
  const bar = layout.bars[from];
  if (!bar) return layout.bars.length ? 0 : null;
  switch (key) {
    case 'ArrowUp':
      return bar.children[0] ?? null;
    case 'ArrowDown':
      return bar.parent;
    case 'Home':
      return 0;
    case 'ArrowLeft':
    case 'ArrowRight': {
      const row = layout.bars.filter((b) => b.depth === bar.depth).sort((a, b) => a.x - b.x);
      const i = row.findIndex((b) => b.id === from) + (key === 'ArrowLeft' ? -1 : 1);
      return row[i]?.id ?? null;
    }
    default:
      return null;
  }
}

export function pct(share: number): string {
  return `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;
}
