// The Watch mode's "Compare two windows" form: before and after the first mark until edited, times typed in seconds
// (or with a unit), a dragged range in either direction, every problem by window and end, and answers for another
// watch ignored.
import assert from 'node:assert/strict';
import { parseSeconds, WatchCompareModel } from '../../../src/webview/model/watchCompare';
import type { WatchMark } from '../../../src/shared/watch';

const marks: WatchMark[] = [
  { id: 'm2', name: 'affinity changed', t: 9000, at: '' },
  { id: 'm1', name: 'index rebuilt', t: 4000, at: '' },
];

describe('watch compare form (webview model)', () => {
  it('until edited, the first mark splits the watch; a new watch starts over', () => {
    const m = new WatchCompareModel();
    m.sync('w1', []);
    assert.deepEqual(m.request([]).request, {
      watchId: 'w1',
      a: { from: { kind: 'start' }, to: { kind: 'now' } },
      b: { from: { kind: 'start' }, to: { kind: 'now' } },
    });
    m.sync('w1', marks);
    assert.deepEqual(m.request(marks).request, {
      watchId: 'w1',
      a: { from: { kind: 'start' }, to: { kind: 'mark', id: 'm1' } },
      b: { from: { kind: 'mark', id: 'm1' }, to: { kind: 'now' } },
    });
    m.edit('b', { toKind: 'mark', toMark: 'm2' });
    m.sync('w1', marks);
    assert.deepEqual(m.request(marks).request?.b, { from: { kind: 'mark', id: 'm1' }, to: { kind: 'mark', id: 'm2' } }, 'an edit is kept');
    m.answer = { watchId: 'w1', result: null, error: 'x' };
    m.sync('w2', []);
    assert.equal(m.answer, null);
    assert.deepEqual(m.request([]).request?.a, { from: { kind: 'start' }, to: { kind: 'now' } });
  });

  it('times: plain seconds or a duration; a bad one is said', () => {
    assert.equal(parseSeconds('12.5'), 12_500);
    assert.equal(parseSeconds('2m'), 120_000);
    assert.equal(parseSeconds('0'), 0);
    assert.match(String(parseSeconds('')), /Type a time in seconds/);
    assert.match(String(parseSeconds('soon')), /not a duration/);
  });

  it("a dragged range fills the target window's times, either direction", () => {
    const m = new WatchCompareModel();
    m.sync('w', marks);
    m.setRange('b', 15_040, 5_000);
    assert.deepEqual(m.request(marks).request?.b, { from: { kind: 'time', t: 5000 }, to: { kind: 'time', t: 15_000 } });
    assert.deepEqual(
      m.request(marks).request?.a,
      { from: { kind: 'start' }, to: { kind: 'mark', id: 'm1' } },
      'the other window is left alone',
    );
  });

  it('every problem by window and end; no request until both windows are right', () => {
    const m = new WatchCompareModel();
    m.sync('w', []);
    m.edit('a', { fromKind: 'mark', fromMark: '' });
    m.edit('b', { fromKind: 'time', fromTime: '9', toKind: 'time', toTime: '3' });
    const r = m.request([]);
    assert.equal(r.request, null);
    assert.match(r.errors.a.from, /no mark yet/);
    assert.match(r.errors.b.range, /Window B ends \(3\.0 s\) before it starts \(9\.0 s\)/);
  });

  it('keeps only the answer for its own watch', () => {
    const m = new WatchCompareModel();
    m.sync('w', []);
    m.pending = true;
    assert.equal(m.received({ watchId: 'other', result: null, error: 'x' }), false);
    assert.equal(m.pending, true);
    assert.equal(m.received({ watchId: 'w', result: null, error: 'no tick' }), true);
    assert.equal(m.pending, false);
    assert.equal(m.answer?.error, 'no tick');
  });
});
