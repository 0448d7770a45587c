// The Now view's figures and words (shared/nowHistory.ts, nowWords.ts, nowSteps.ts): the last minute's ranks per
// second, trends against the minute before and the hour's median, the findings in words with their next steps, the
// quiet sentence, the first read, and honest words when the history is shorter than an hour.
import assert from 'node:assert/strict';
import { NowHistory, type NowTick } from '../../src/shared/nowHistory';
import { buildNowView, clockText, FIRST_READ_TEXT, SPINS_LOUD } from '../../src/shared/nowWords';
import { NOW_GUIDES, nextSteps, postUrl } from '../../src/shared/nowSteps';
import { nowViewSchema } from '../../src/shared/nowMessages';
import { listPresets } from '../../src/engine/presets';
import { POSTS } from '../../src/shared/posts';

const T0 = Date.UTC(2026, 11, 8, 9, 0, 0);

/** One second: spins per spinlock, ms waited per wait and latch class. */
function tick(o: {
  spins?: Record<string, number>;
  waits?: Record<string, number>;
  latches?: Record<string, number>;
  cpu?: Record<string, number>;
}): NowTick {
  return {
    intervalMs: 1000,
    spinlocks: Object.fromEntries(
      Object.entries(o.spins ?? {}).map(([n, v]) => [n, { spins: v, collisions: v / 100, backoffs: v / 1000, sleepTime: 0 }]),
    ),
    waits: Object.fromEntries(Object.entries(o.waits ?? {}).map(([n, v]) => [n, { waitMs: v, count: 10, signalMs: 0 }])),
    latches: Object.fromEntries(Object.entries(o.latches ?? {}).map(([n, v]) => [n, { waitMs: v, count: 5 }])),
    cpuByNode: o.cpu ?? { '0': 20 },
  };
}

/** Feeds `seconds` one-second ticks from `from` (epoch ms); returns the time after the last. */
function feed(h: NowHistory, from: number, seconds: number, t: (i: number) => NowTick): number {
  for (let i = 1; i <= seconds; i++) h.add(from + i * 1000, t(i));
  return from + seconds * 1000;
}

const view = (h: NowHistory, now: number, logWriterNode: number | null = 0) =>
  buildNowView(h.figures(now), { serverName: 'sql1', logWriterNode, now });

describe('the Now view (figures and words)', () => {
  it('before the first delta says it is reading the server, never "Loading..."', () => {
    const v = view(new NowHistory(), T0);
    assert.equal(v.status, 'reading');
    assert.equal(v.headline, FIRST_READ_TEXT);
    assert.doesNotMatch(JSON.stringify(v), /Loading/);
  });

  it('ranks the last minute per second, server-wide, with benign waits left out', () => {
    const h = new NowHistory();
    const now = feed(h, T0, 60, () =>
      tick({ spins: { A: 500, B: 2000, C: 10 }, waits: { WRITELOG: 30, SLEEP_TASK: 900, PAGEIOLATCH_SH: 5 }, latches: { BUFFER: 7 } }),
    );
    const f = h.figures(now);
    assert.equal(f.windowSec, 60);
    assert.deepEqual(
      f.spinlocks.map((s) => [s.name, s.perSec]),
      [
        ['B', 2000],
        ['A', 500],
        ['C', 10],
      ],
    );
    assert.equal(f.spinlocks[0].backoffsPerSec, 2);
    assert.deepEqual(
      f.waits.map((w) => w.name),
      ['WRITELOG', 'PAGEIOLATCH_SH'],
      'SLEEP_TASK is benign',
    );
    assert.equal(f.waits[0].perSec, 30);
    assert.equal(f.latches[0].perSec, 7);
  });

  it('with nothing loud says the server is quiet, naming its thresholds and the window', () => {
    const h = new NowHistory();
    const now = feed(h, T0, 60, () => tick({ spins: { SOS_SUSPEND_QUEUE: 900 }, waits: { WRITELOG: 3, SLEEP_TASK: 5000 } }));
    const v = view(h, now);
    assert.equal(v.status, 'live');
    assert.deepEqual(v.findings, []);
    assert.equal(
      v.headline,
      'The server is quiet: no spinlock above 100,000 spins/s, no non-benign wait above 100 ms/s and no latch above 100 ms/s in the last minute.',
    );
  });

  it('a short history says "the last N s" and "since <time>", with no trend yet', () => {
    const h = new NowHistory();
    const now = feed(h, T0, 12, () => tick({ spins: { LOGCACHE_ACCESS: 1_200_000 } }));
    const v = view(h, now);
    assert.equal(v.findings.length, 1);
    const f = v.findings[0];
    assert.equal(f.name, 'LOGCACHE_ACCESS');
    assert.match(f.text, /^LOGCACHE_ACCESS: 1,200,000 spins\/s \(1,200 backoffs\/s\), no trend yet: history since /);
    assert.ok(f.text.includes(clockText(T0 + 0)), f.text);
    assert.match(f.evidence, /Server-wide spinlock over the last 12 s/);
    assert.equal(v.spinlocks[0].trend, 'unknown');
  });

  it('after two minutes the trend is against the minute before', () => {
    const h = new NowHistory();
    let now = feed(h, T0, 60, () => tick({ spins: { XDESMGR: 100_000, LOCK_HASH: 50_000 } }));
    now = feed(h, now, 60, () => tick({ spins: { XDESMGR: 300_000, LOCK_HASH: 50_000 } }));
    const v = view(h, now);
    const x = v.spinlocks.find((s) => s.name === 'XDESMGR')!;
    assert.equal(x.trend, 'rising');
    assert.equal(x.trendText, '3x the minute before');
    const lock = v.spinlocks.find((s) => s.name === 'LOCK_HASH')!;
    assert.equal(lock.trend, 'steady');
    assert.equal(lock.trendText, 'steady, 1x the minute before');
  });

  it('a name that did not move in the basis is new, said as such', () => {
    const h = new NowHistory();
    let now = feed(h, T0, 60, () => tick({ spins: { LOCK_HASH: 5_000 } }));
    now = feed(h, now, 60, () => tick({ spins: { LOCK_HASH: 5_000, XDESMGR: 200_000 } }));
    const v = view(h, now);
    assert.equal(v.spinlocks[0].trend, 'new');
    assert.equal(v.findings[0].text, 'XDESMGR: 200,000 spins/s (200 backoffs/s), new: the minute before was 0');
  });

  it('in the tables, no trend yet is said briefly (the line under them says since when)', () => {
    const h = new NowHistory();
    const now = feed(h, T0, 10, () => tick({ spins: { LOCK_HASH: 5_000 } }));
    assert.equal(view(h, now).spinlocks[0].trendText, 'no trend yet');
  });

  it('with an hour of history says "Nx its hour\'s median" and that the log writer\'s node is busy', () => {
    const h = new NowHistory();
    let now = feed(h, T0, 3600, () => tick({ spins: { LOGCACHE_ACCESS: 300_000 }, cpu: { '0': 40, '1': 30 } }));
    now = feed(h, now, 60, () => tick({ spins: { LOGCACHE_ACCESS: 1_200_000 }, cpu: { '0': 93, '1': 30 } }));
    const v = view(h, now, 0);
    assert.equal(v.fullHour, true);
    const f = v.findings[0];
    assert.equal(
      f.text,
      "LOGCACHE_ACCESS: 1,200,000 spins/s (1,200 backoffs/s), 4x its hour's median; the log writer's node 0 is busy (93% CPU)",
    );
    assert.equal(v.headline, 'One thing stands out: LOGCACHE_ACCESS.');
  });

  it('with less than an hour but enough minutes says "its median since <time>"', () => {
    const h = new NowHistory();
    let now = feed(h, T0, 600, () => tick({ latches: { METADATA_SEQUENCE_GENERATOR: 50 } }));
    now = feed(h, now, 60, () => tick({ latches: { METADATA_SEQUENCE_GENERATOR: 400 } }));
    const v = view(h, now);
    assert.equal(v.fullHour, false);
    assert.equal(v.findings[0].text, `METADATA_SEQUENCE_GENERATOR: 400 ms/s, 8x its median since ${clockText(T0)}`);
  });

  it('a spinlock below the loud threshold stands out when it jumped 4x', () => {
    const h = new NowHistory();
    let now = feed(h, T0, 60, () => tick({ spins: { LOCK_HASH: 5_000 } }));
    now = feed(h, now, 60, () => tick({ spins: { LOCK_HASH: 40_000 } }));
    assert.ok(40_000 < SPINS_LOUD);
    assert.deepEqual(
      view(h, now).findings.map((f) => f.name),
      ['LOCK_HASH'],
    );
  });

  it('each finding carries one-click next steps: watch, stacks, the preset that tests the fix, the post', () => {
    const h = new NowHistory();
    const now = feed(h, T0, 30, () => tick({ spins: { XDESMGR: 500_000 }, waits: { WRITELOG: 400 } }));
    const v = view(h, now);
    const x = v.findings.find((f) => f.name === 'XDESMGR')!;
    assert.deepEqual(
      x.steps.map((s) => s.kind),
      ['watch', 'stacks', 'preset', 'post'],
    );
    assert.deepEqual(x.steps[2], { kind: 'preset', label: 'Test the fix: 1 row per transaction against 2', presetId: 'xdesmgr-batch' });
    const w = v.findings.find((f) => f.name === 'WRITELOG')!;
    assert.deepEqual(
      w.steps.map((s) => s.kind),
      ['watch', 'preset', 'post'],
      'a wait has no stacks to capture',
    );
    assert.match(w.evidence, /benign waits left out/);
    assert.ok(nowViewSchema.safeParse(v).success, 'the view passes the schema the webview checks');
  });

  it('every guide names a preset that exists and a post of the catalogue, by title and author', () => {
    const presets = new Set(listPresets().map((p) => p.id));
    for (const g of NOW_GUIDES) {
      assert.ok(presets.has(g.presetId), `${g.name}: no preset ${g.presetId}`);
      const post = nextSteps(g.kind, g.name).find((s) => s.kind === 'post');
      assert.ok(post && post.kind === 'post');
      assert.ok(post.cite.startsWith(`Chris Adkin, “${POSTS[g.post].title}”`), post.cite);
      assert.equal(post.url, postUrl(g.post));
      assert.match(post.url, /^https:\/\/chrisadkin\.io\/\?s=/);
    }
  });

  it('keeps at most two minutes of seconds and an hour of minutes', () => {
    const h = new NowHistory();
    const now = feed(h, T0, 3 * 3600, (i) => tick({ spins: { [`S${i % 7}`]: 10 } }));
    const inner = h as unknown as { seconds: unknown[]; minutes: unknown[] };
    assert.ok(inner.seconds.length <= 121, `${inner.seconds.length} seconds kept`);
    assert.ok(inner.minutes.length <= 62, `${inner.minutes.length} minutes kept`);
    assert.equal(h.figures(now).fullHour, true);
  });
});
