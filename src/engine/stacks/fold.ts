// From histogram slots to what the CLI, the panel and the notebook show: the top N stacks with their share, the rest
// summed, and all stacks folded into one tree from the outermost frame (stacks that share callers share a branch).
import type { StackBucket, StackFrame, StackNode } from '../../shared/stacks';

export interface Slot {
  count: number;
  frames: StackFrame[];
}

/** The label a frame shows: its symbol when resolved, else its raw text (module+offset or an address). */
export function frameLabel(f: StackFrame): string {
  return f.symbol && !f.offset ? f.symbol : f.symbol ? `${f.module ? `${f.module}!` : ''}${f.symbol}` : f.raw;
}

export function topBuckets(slots: Slot[], top: number): { buckets: StackBucket[]; otherCount: number; events: number } {
  const sorted = [...slots].sort((a, b) => b.count - a.count);
  const events = sorted.reduce((s, x) => s + x.count, 0);
  const n = Math.max(0, Math.floor(top));
  const buckets = sorted.slice(0, n).map((s) => ({ count: s.count, share: events > 0 ? s.count / events : 0, frames: s.frames }));
  const otherCount = sorted.slice(n).reduce((s, x) => s + x.count, 0);
  return { buckets, otherCount, events };
}

/** Every slot folded into one tree; the root is "all" with the total count; children largest first. */
export function foldTree(slots: Slot[]): StackNode {
  const root: StackNode = { frame: 'all', count: 0, children: [] };
  for (const s of slots) {
    root.count += s.count;
    let node = root;
    for (let i = s.frames.length - 1; i >= 0; i--) {
      const label = frameLabel(s.frames[i]);
      let child = node.children.find((c) => c.frame === label);
      if (!child) {
        child = { frame: label, count: 0, children: [] };
        node.children.push(child);
      }
      child.count += s.count;
      node = child;
    }
  }
  const order = (n: StackNode) => {
    n.children.sort((a, b) => b.count - a.count || a.frame.localeCompare(b.frame));
    n.children.forEach(order);
  };
  order(root);
  return root;
}

/** The tree as indented text, branches under `minShare` of the total left out (the CLI's and notebook's view). */
export function treeText(root: StackNode, minShare = 0.05, maxDepth = 40): string[] {
  const lines: string[] = [];
  const total = root.count || 1;
  const walk = (n: StackNode, depth: number) => {
    for (const c of n.children) {
      if (c.count / total < minShare || depth >= maxDepth) continue;
      // A chain with one child is printed as one step deeper, so long shared prefixes stay readable.
      lines.push(`${'  '.repeat(depth)}${(100 * c.count / total).toFixed(1).padStart(5)}%  ${c.frame}`);
      walk(c, depth + 1);
    }
  };
  walk(root, 0);
  return lines;
}
