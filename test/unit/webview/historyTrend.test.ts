// The History view's trend model: which workload and cell it shows by default (the most recent workload, its longest
// cell), a picked workload resets the cell, an answer clears the error and a failure keeps the last answer.
import assert from 'node:assert/strict';
import { HistoryTrendModel, historyKey } from '../../../src/webview/model/historyTrend';
import type { HistoryTrend } from '../../../src/shared/historyMessages';
import type { CellHistory, WorkloadHistory } from '../../../src/shared/regressionHistory';

const cell = (threads: number, points: number): CellHistory => ({
  armId: 'main',
  armLabel: 'disk-insert',
  threads,
  name: `${threads} threads`,
  points: Array.from({ length: points }, (_, i) => ({
    experimentId: `e${i}`,
    title: `e${i}`,
    startedAt: `2026-01-0${i + 1}T00:00:00.000Z`,
    serverName: 'LAB1',
    simulated: true,
    throughput: { method: 'single', n: 1, value: 100, interval: null },
  })),
  changes: [],
});
const history = (workload: string, cells: CellHistory[]): WorkloadHistory => ({
  workload,
  experiments: 3,
  servers: ['LAB1'],
  cells,
  note: null,
});
const answer: HistoryTrend = {
  histories: [history('scenario a', [cell(2, 1), cell(8, 3), cell(16, 3)]), history('scenario b', [cell(4, 2), cell(16, 1)])],
  skipped: [],
};

describe('the History view trend model', () => {
  it('shows the first (most recent) workload and its longest cell, fewest threads on a tie; a pick changes both', () => {
    const m = new HistoryTrendModel();
    assert.equal(m.history(), null);
    m.asked(historyKey(['x', 'y']));
    assert.equal(m.pending, true);
    m.received({ result: answer, error: null });
    assert.equal(m.history()?.workload, 'scenario a');
    assert.equal(m.shownCell()?.name, '8 threads');
    m.pick({ cell: '16 threads' });
    assert.equal(m.shownCell()?.name, '16 threads');
    m.pick({ workload: 'scenario b' });
    assert.equal(m.shownCell()?.name, '4 threads', 'a new workload forgets the cell picked in the other');
    m.pick({ workload: 'gone' });
    assert.equal(m.history()?.workload, 'scenario a', 'a workload no longer there falls back to the first');
  });

  it('a failure is shown and the last answer kept; the next answer clears it', () => {
    const m = new HistoryTrendModel();
    m.received({ result: answer, error: null });
    m.asked('k');
    m.received({ result: null, error: 'cannot read' });
    assert.equal(m.error, 'cannot read');
    assert.equal(m.answer, answer);
    m.asked('k2');
    assert.equal(m.error, null);
    assert.equal(m.askedFor, 'k2');
  });
});
