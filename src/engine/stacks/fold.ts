// From histogram slots to what the CLI, the panel and the notebook show: the top N stacks with their share, the rest
// summed, and all stacks folded into one tree from the outermost frame (stacks that share callers share a branch).
import type { StackBucket, StackFrame, StackNode } from '../../shared/stacks';

export interface Slot {
  count: number;
  frames: StackFrame[];
}

/** The label a frame shows: module!symbol when resolved (the simulator's module says SIMULATED), else the raw text. */
export function frameLabel(f: StackFrame): string {
  return f.symbol ? `${f.module ? `${f.module}!` : ''}${f.symbol}` : f.raw;
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

/**
 * The tree as indented text, outermost caller first, branches under `minShare` of the total left out (the CLI's and
 * the notebook's view). A chain where each frame has one caller-to-callee step is printed on one line, joined by ' > '.
 */
export function treeText(root: StackNode, minShare = 0.05, maxDepth = 40): string[] {
  const lines: string[] = [];
  const total = root.count || 1;
  const walk = (n: StackNode, depth: number) => {
    for (const c of n.children) {
      if (c.count / total < minShare || depth >= maxDepth) continue;
      const chain = [c.frame];
      let end = c;
      while (end.children.length === 1 && end.children[0].count === end.count) {
        end = end.children[0];
        chain.push(end.frame);
      }
      lines.push(`${'  '.repeat(depth)}${((100 * c.count) / total).toFixed(1).padStart(5)}%  ${chain.join(' > ')}`);
      walk(end, depth + 1);
    }
  };
  walk(root, 0);
  return lines;
}
