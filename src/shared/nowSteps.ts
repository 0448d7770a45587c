// The Now view's next steps: for a spinlock, wait or latch that stands out, what it usually means and the experiment
// that tests the fix (a preset, src/engine/presets), each from the post that explains it (posts.ts). A name not here
// still gets the steps every name has: watch it, and for a spinlock capture its stacks.
import { citePost, getPost, type PostId } from './posts';
import type { NowKind } from './nowHistory';

export interface NowGuide {
  kind: NowKind;
  name: string;
  /** What it usually means, in a clause ("commits queue for the log cache"). */
  means: string;
  /** The preset whose arms test the fix (PresetSummary.id). */
  presetId: string;
  /** What the preset compares, for the button ("delayed durability off against forced"). */
  tests: string;
  post: PostId;
}

/** One entry per name; each cites its post by id (the post's title and author come from posts.ts). */
export const NOW_GUIDES: readonly NowGuide[] = [
  {
    kind: 'spinlock',
    name: 'LOGCACHE_ACCESS',
    means: "commits queue for the log cache; workers on the log writer's NUMA node spin less",
    presetId: 'numa-logwriter',
    tests: "the workers on the log writer's node against another node",
    post: 'numa-logcache-access',
  },
  {
    kind: 'wait',
    name: 'WRITELOG',
    means: 'commits wait for their log flush; if delayed durability removes it, the log path (not the data) is the limit',
    presetId: 'writelog',
    tests: 'delayed durability off against forced',
    post: 'writelog-at-scale',
  },
  {
    kind: 'spinlock',
    name: 'XDESMGR',
    means: 'a transaction id is handed out and destroyed per transaction; more rows per transaction relieve it',
    presetId: 'xdesmgr-batch',
    tests: '1 row per transaction against 2',
    post: 'xdesmgr-big-box',
  },
  {
    kind: 'spinlock',
    name: 'BLOCKER_ENUM',
    means: 'interpreted T-SQL reaching memory-optimized tables, which natively compiled procedures avoid',
    presetId: 'xdesmgr-batch',
    tests: 'interpreted against natively compiled inserts',
    post: 'xdesmgr-big-box',
  },
  {
    kind: 'latch',
    name: 'METADATA_SEQUENCE_GENERATOR',
    means: 'sessions queue for NEXT VALUE FOR a sequence; identity-based slots remove it',
    presetId: 'ring-buffer',
    tests: 'a sequence against identity slots',
    post: 'ring-buffer',
  },
];

export function guideFor(kind: NowKind, name: string): NowGuide | null {
  return NOW_GUIDES.find((g) => g.kind === kind && g.name === name) ?? null;
}

/**
 * Where the post can be read: the blog's own search for its exact title (the catalogue keeps titles, not addresses,
 * so this never points at a page that moved).
 */
export function postUrl(id: PostId): string {
  const p = getPost(id);
  return `https://${p.blog}/?s=${encodeURIComponent(p.title)}`;
}

export type NowStep =
  | { kind: 'watch'; label: string }
  | { kind: 'stacks'; label: string; spinlock: string }
  | { kind: 'preset'; label: string; presetId: string }
  | { kind: 'post'; label: string; url: string; cite: string };

/** The one-click next steps for a name, most direct first. */
export function nextSteps(kind: NowKind, name: string): NowStep[] {
  const steps: NowStep[] = [{ kind: 'watch', label: `Watch ${name}` }];
  if (kind === 'spinlock') steps.push({ kind: 'stacks', label: `Capture ${name}'s stacks`, spinlock: name });
  const g = guideFor(kind, name);
  if (g) {
    steps.push({ kind: 'preset', label: `Test the fix: ${g.tests}`, presetId: g.presetId });
    steps.push({ kind: 'post', label: `Read “${getPost(g.post).title}”`, url: postUrl(g.post), cite: citePost(g.post) });
  }
  return steps;
}
