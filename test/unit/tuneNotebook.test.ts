// A tune's notebook: the Search section (what was searched, objective, budget, leaderboard, verdict and reasons with
// their posts, the apply T-SQL marked as not run), a chart of the search with one mark per trial and the dropped
// configuration's end marked, the session curves, and the ordinary sections for its trials; its record reads back as a
// tune. nbformat's own validator checks it in the integration tier (test/integration/tuneNotebook.test.ts).
import assert from 'node:assert/strict';
import { buildNotebook, SERIES_MIME } from '../../src/engine/notebook/write';
import { parseNotebook } from '../../src/engine/notebook/read';
import type { Notebook } from '../../src/engine/notebook/nbformat';
import type { SeriesPayload } from '../../src/shared/seriesPayload';
import { POSTS } from '../../src/shared/posts';
import { tuneExperiment } from '../helpers/tuneExperiment';

const sources = (nb: Notebook) => nb.cells.map((c) => c.source.join(''));
const outputs = (nb: Notebook) =>
  nb.cells.flatMap((c) => ('outputs' in c ? (c.outputs as { data?: Record<string, unknown> }[]) : [])).map((o) => o.data ?? {});
const svgOf = (d: Record<string, unknown>) =>
  Array.isArray(d['image/svg+xml']) ? d['image/svg+xml'].join('') : String(d['image/svg+xml']);
const searchSvg = (nb: Notebook) => svgOf(outputs(nb).find((d) => /^The search: /.test(String(d['text/plain'] ?? '')))!);
const unescape = (s: string) => s.replace(/\\(.)/g, '$1');

describe("a tune's notebook", () => {
  const e = tuneExperiment();
  const nb = buildNotebook([e]);
  const text = sources(nb).map(unescape);

  it('has the Search section after the title and before the ordinary sections, which stay', () => {
    const at = (prefix: string) => text.findIndex((t) => t.startsWith(prefix));
    const order = [at('# '), at('## Search'), at('### Verdict'), at('## Server'), at('## Results'), at('## Charts'), at('## Summary')];
    assert.ok(
      order.every((i) => i >= 0),
      JSON.stringify(order),
    );
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
    );
  });

  it('says what was searched: objective, budget and time taken, each configuration with its affinity and why, the rounds', () => {
    const s = text.find((t) => t.startsWith('## Search'))!;
    assert.match(s, /\*\*Objective:\*\* Throughput \(rows\/s\), higher is better\./);
    assert.match(s, /Budget 10m 0s; took 8m 32s \(85% of it\)\./);
    assert.match(s, /\| c1 \| log writer's node \(numa:0\) \| numa:0 \| the log writer's node \| 1 \| unchanged \| 8 \| 4, 8 \|/);
    assert.match(s, /\| c3 \| .* \| exclude-core0 \| without core 0 \|/);
    assert.match(s, /- Round 1 \(screen\): 8 trials; dropped other node \(numa:1\)/);
  });

  it('carries the leaderboard, the verdict, the reasons citing their post, and the apply T-SQL marked NOT applied', () => {
    const html = outputs(nb)
      .map((d) => String(d['text/html'] ?? ''))
      .find((h) => h.includes('Throughput (rows/s) [95%]'))!;
    assert.match(
      html,
      /<td>1<\/td><td>log writer&apos;s node \(numa:0\)<\/td><td>8<\/td><td>[\d,]+ \[[\d,]+, [\d,]+\]<\/td><td>5<\/td><td>winner<\/td>/,
    );
    assert.match(html, /dropped in round 1: slower than the leader/);
    const v = text.find((t) => t.startsWith('### Verdict'))!;
    assert.ok(v.includes(e.tune!.result!.verdict));
    assert.match(v, /- LOGCACHE_ACCESS spins per row 4\.\dx lower .* \(Chris Adkin, \*NUMA, The LOGCACHE_ACCESS Spinlock/);
    assert.ok(v.includes(POSTS['numa-logcache-access'].title));
    const apply = nb.cells.find((c) => (c.metadata?.spinlab as { role?: string } | undefined)?.role === 'tune-apply')!;
    assert.equal(apply.cell_type, 'code');
    assert.match(apply.source.join(''), /^-- NOT applied.*\n.*\nALTER SERVER CONFIGURATION SET PROCESS AFFINITY NUMANODE = 0;$/);
    assert.match(
      text.find((t) => t.startsWith('## Summary'))!,
      new RegExp(`- ${e.tune!.result!.verdict.replace(/[()]/g, '\\$&')}`),
    );
    assert.doesNotMatch(
      text.find((t) => t.startsWith('## Summary'))!,
      /threads: [\d,]+ .*rows\/s/,
      'the leaderboard, not every cell, in the summary',
    );
  });

  it('charts the search: one mark per completed trial, the rounds marked, the dropped configuration ending in a cross', () => {
    const svg = searchSvg(nb);
    assert.equal((svg.match(/class="trial"/g) ?? []).length, e.runs.length);
    assert.equal((svg.match(/class="round"/g) ?? []).length, 2);
    assert.equal((svg.match(/class="dropped"/g) ?? []).length, 1);
    assert.match(svg, /other node \(numa:1\) \(dropped in round 1\)/);
    assert.match(svg, /log writer&apos;s node \(numa:0\) \(winner\)/);
    const failed = tuneExperiment();
    failed.runs[3] = { ...failed.runs[3], status: 'failed' };
    assert.equal((searchSvg(buildNotebook([failed])).match(/class="trial"/g) ?? []).length, e.runs.length - 1);
  });

  it('draws the leading configurations against sessions, the dropped one left out', () => {
    const d = outputs(nb).find((x) => x[SERIES_MIME] && /^The leading configurations/.test((x[SERIES_MIME] as SeriesPayload).title))!;
    const p = d[SERIES_MIME] as SeriesPayload;
    assert.deepEqual(
      p.series.map((s) => s.name),
      ["log writer's node (numa:0)", 'without core 0 (exclude-core0)', 'current settings'],
    );
    assert.deepEqual(
      p.series[0].points.map((x) => x[0]),
      [4, 8],
    );
    assert.equal(p.series[0].band!.length, 1, 'an interval where the cell repeated (8 sessions)');
  });

  it('its record reads back from the written notebook as the tune', () => {
    const back = parseNotebook(JSON.stringify(nb, null, 1)).record.experiments[0];
    assert.equal(back.kind, 'tune');
    assert.deepEqual(back.tune!.result!.winner, { config: 'c1', threads: 8 });
  });
});
