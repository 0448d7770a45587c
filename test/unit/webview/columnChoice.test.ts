// The results table's columns (model/columnChoice.ts): at most 8 by default, the figures that answer "what did it
// do" first; a user's choice over the defaults is kept by key and dropped when it equals the default again.
import assert from 'node:assert/strict';
import { chooseColumn, defaultColumns, shownColumns } from '../../../src/webview/model/columnChoice';
import { resultColumns, experimentRows } from '../../../src/webview/model/results';
import { experiment } from '../../helpers/builders';
import { stepView, PANEL_VIEWS, type PanelView } from '../../../src/shared/panelViews';

describe('the results table’s columns', () => {
  const rows = experimentRows(experiment('e', [1, 2, 4, 8, 16, 32, 48, 64, 96], { latency: true }));
  const all = resultColumns(rows, 3, 3, 'row');

  it('a 9-run sweep has more than 8 columns; 8 are shown by default, the run, threads and rows/s first', () => {
    assert.ok(all.length > 8, `${all.length} columns`);
    const shown = shownColumns(all, undefined).map((c) => c.key);
    assert.equal(shown.length, 8);
    assert.deepEqual(shown.slice(0, 3), ['run', 'threads', 'rowsPerSec']);
    assert.ok(
      shown.some((k) => k.startsWith('spins:')),
      'the top spinlock',
    );
    assert.ok(
      shown.some((k) => k.startsWith('wait:')),
      'the top wait',
    );
    assert.ok(shown.includes('cpuMsPerRow') && shown.includes('p99') && shown.includes('status'));
    // In the table's own order.
    assert.deepEqual(
      shown,
      all.map((c) => c.key).filter((k) => shown.includes(k)),
    );
  });

  it('a choice adds or hides a column; choosing the default again drops the choice', () => {
    const keys = all.map((c) => c.key);
    const elapsed = chooseColumn(undefined, keys, 'elapsed', true);
    assert.deepEqual(elapsed, { elapsed: true });
    assert.ok(shownColumns(all, elapsed).some((c) => c.key === 'elapsed'));
    const noStatus = chooseColumn(elapsed, keys, 'status', false);
    assert.equal(
      shownColumns(all, noStatus).some((c) => c.key === 'status'),
      false,
    );
    assert.deepEqual(chooseColumn(noStatus, keys, 'elapsed', false), { status: false });
    assert.ok(defaultColumns(keys).size <= 8);
    // Every column hidden still leaves the run column.
    const none = Object.fromEntries(keys.map((k) => [k, false]));
    assert.deepEqual(
      shownColumns(all, none).map((c) => c.key),
      ['run'],
    );
  });
});

describe('the panel’s views', () => {
  it('the shortcut steps through every view and wraps at both ends', () => {
    assert.equal(stepView('now', 1), 'experiment');
    assert.equal(stepView('now', -1), 'history');
    assert.equal(stepView('history', 1), 'now');
    let v: PanelView = PANEL_VIEWS[0];
    for (let i = 0; i < PANEL_VIEWS.length; i++) v = stepView(v, 1);
    assert.equal(v, 'now');
  });
});
