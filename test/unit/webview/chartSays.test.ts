// A chart with nothing to say says so in words instead of drawing empty 0-1 axes, or an all-zero line on "0.2 B ...
// 1 B" ticks: "No data yet", "One sample", "Nothing moved".
import assert from 'node:assert/strict';
import { chartSays, NO_DATA_TEXT } from '../../../src/webview/views/chartPlugins';

const ds = (...ys: number[]) => ({ data: ys.map((y, x) => ({ x, y })) });

describe('what a chart with nothing to draw says', () => {
  it('no points: "No data yet"', () => {
    assert.equal(chartSays([ds()])?.text, NO_DATA_TEXT);
  });

  it('one sample: says so instead of axes from 0 to 1', () => {
    const s = chartSays([ds(12_000), ds(3)]);
    assert.equal(s?.kind, 'one-sample');
    assert.match(s!.text, /^One sample/);
  });

  it('a point chart (the scaling curve) draws its one point', () => {
    assert.equal(chartSays([ds(12_000)], { oneSample: false }), null);
  });

  it('every series at 0: "Nothing moved" instead of 0.2 B ... 1 B ticks', () => {
    const s = chartSays([ds(0, 0, 0), ds(0, 0)]);
    assert.equal(s?.kind, 'flat');
    assert.match(s!.text, /^Nothing moved/);
  });

  it('a series that moved is drawn', () => {
    assert.equal(chartSays([ds(0, 0, 0), ds(0, 5)]), null);
    assert.equal(chartSays([ds(7, 7, 7)]), null, 'a flat line above 0 is a level, drawn');
  });
});
