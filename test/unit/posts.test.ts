// The posts are cited by title and author from one catalogue (src/shared/posts.ts); our file names for them never
// reach a user.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { citePost, citePosts, getPost, isPostId, POST_IDS, POSTS } from '../../src/shared/posts';
import { listPresets } from '../../src/engine/presets';
import { listScenarios } from '../../src/engine/scenarios';

const ROOT = path.resolve(__dirname, '../../..');

it('five posts, all by Chris Adkin on chrisadkin.io, each with its title', () => {
  assert.equal(POST_IDS.length, 5);
  for (const id of POST_IDS) {
    assert.equal(POSTS[id].id, id);
    assert.deepEqual([POSTS[id].author, POSTS[id].blog], ['Chris Adkin', 'chrisadkin.io']);
  }
  assert.equal(getPost('writelog-at-scale').title, 'WRITELOG At Scale: Going Beyond "You need faster disks"');
  assert.equal(getPost('numa-logcache-access').year, 2015);
  assert.equal(isPostId('000_x.txt'), false);
});

it('citations name author and title, in plain text and in markdown', () => {
  assert.equal(
    citePost('numa-logcache-access'),
    'Chris Adkin, “NUMA, The LOGCACHE_ACCESS Spinlock and The Best Machine for OLTP Workloads” (2015, chrisadkin.io)',
  );
  assert.equal(citePost('ring-buffer', 'markdown'), 'Chris Adkin, *Ring Buffer Shock Absorb-er Pattern and SQL Server* (chrisadkin.io)');
  assert.equal(
    citePost('large-pages', 'markdown'),
    'Chris Adkin, *Large Memory Pages, How They Work and The LOGCACHE\\_ACCESS Spinlock* (chrisadkin.io)',
  );
  assert.equal(citePosts(['ring-buffer', 'large-pages']).split('; ').length, 2);
});

it('every preset and scenario cites posts from the catalogue', () => {
  assert.deepEqual(
    listPresets()
      .map((p) => p.post)
      .sort(),
    [...POST_IDS].sort(),
    'one preset per post',
  );
  for (const s of listScenarios()) assert.ok(s.posts.length > 0 && s.posts.every(isPostId), s.id);
});

it('no file name of ours for a post, and no "seed 00N", in src/ or sql/', () => {
  const hits: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|sql|json)$/.test(e.name)) {
        fs.readFileSync(p, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (/\d{3}_[0-9a-f]{16}|\bseeds? 00\d/i.test(line)) hits.push(`${path.relative(ROOT, p)}:${i + 1}: ${line.trim()}`);
          });
      }
    }
  };
  walk(path.join(ROOT, 'src'));
  walk(path.join(ROOT, 'sql'));
  assert.deepEqual(hits, []);
});
