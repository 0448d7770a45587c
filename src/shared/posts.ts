// The five blog posts Spinlock Lab is built from, all by Chris Adkin on chrisadkin.io. Every scenario, preset, report,
// notebook and view cites them from here, by title and author: the one place a post is named.

export const POST_IDS = ['numa-logcache-access', 'large-pages', 'xdesmgr-big-box', 'writelog-at-scale', 'ring-buffer'] as const;
export type PostId = (typeof POST_IDS)[number];

export interface Post {
  id: PostId;
  title: string;
  author: string;
  /** Year of publication, where the post gives it. */
  year: number | null;
  blog: string;
}

const post = (id: PostId, title: string, year: number | null = null): Post => ({
  id,
  title,
  author: 'Chris Adkin',
  year,
  blog: 'chrisadkin.io',
});

export const POSTS: Readonly<Record<PostId, Post>> = {
  'numa-logcache-access': post('numa-logcache-access', 'NUMA, The LOGCACHE_ACCESS Spinlock and The Best Machine for OLTP Workloads', 2015),
  'large-pages': post('large-pages', 'Large Memory Pages, How They Work and The LOGCACHE_ACCESS Spinlock'),
  'xdesmgr-big-box': post('xdesmgr-big-box', 'Tuning The XDESMGR Spinlock On A "Big box"'),
  'writelog-at-scale': post('writelog-at-scale', 'WRITELOG At Scale: Going Beyond "You need faster disks"'),
  'ring-buffer': post('ring-buffer', 'Ring Buffer Shock Absorb-er Pattern and SQL Server'),
};

export function isPostId(v: unknown): v is PostId {
  return typeof v === 'string' && (POST_IDS as readonly string[]).includes(v);
}

export function getPost(id: PostId): Post {
  const p = POSTS[id];
  if (!p) throw new Error(`unknown post '${String(id)}': expected one of ${POST_IDS.join(', ')}`);
  return p;
}

/**
 * "Chris Adkin, “Title” (2015, chrisadkin.io)" for plain text (CLI, tooltips); markdown puts the title in italics
 * ("Chris Adkin, *Title* (2015, chrisadkin.io)").
 */
export function citePost(id: PostId, style: 'text' | 'markdown' = 'text'): string {
  const p = getPost(id);
  const title = style === 'markdown' ? `*${p.title.replace(/([*_\\`[\]])/g, '\\$1')}*` : `“${p.title}”`;
  return `${p.author}, ${title} (${p.year ? `${p.year}, ` : ''}${p.blog})`;
}

/** Several posts: "Chris Adkin, “A” (…); Chris Adkin, “B” (…)". */
export function citePosts(ids: readonly PostId[], style: 'text' | 'markdown' = 'text'): string {
  return ids.map((id) => citePost(id, style)).join('; ');
}
