// The simulator against the posts: the short mode of `npm run calibrate` keeps every published figure in
// its band (ratios within 2x, absolute figures within an order of magnitude) and spins per row in the posts' range.
import assert from 'node:assert/strict';
import { calibrate, inRange, POSTS, renderMarkdown } from '../../tools/sim/calibrate';

it('calibration (short mode): every figure the posts publish is within its band', async () => {
  const rows = await calibrate(true);
  const out = rows.filter((r) => !inRange(r)).map((r) => `${r.figure}: ${r.simulated} vs ${r.publishedText}`);
  assert.deepEqual(out, []);
  for (const key of Object.keys(POSTS))
    assert.ok(
      rows.some((r) => r.post === key),
      `a figure from ${key}`,
    );
  const perRow = rows.filter((r) => r.unit === 'spins/row');
  assert.ok(perRow.length >= 2);
  for (const r of perRow) assert.ok(r.simulated > 0.5 && r.simulated < 1000, `${r.figure}: ${r.simulated} spins per row`);
  const md = renderMarkdown(rows, true);
  for (const title of Object.values(POSTS)) assert.ok(md.includes(title), `cites ${title}`);
  assert.ok(!/\d{3}_[0-9a-f]{16}\.txt/.test(md), 'never our file names');
});
