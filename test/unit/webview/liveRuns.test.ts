// The live runs: snapshots merged without duplicating ticks, live ticks, run ends.
import assert from 'node:assert/strict';
import type { ActiveExperimentView } from '../../../src/shared/protocol';
import { LiveRuns } from '../../../src/webview/model/liveRuns';
import * as b from '../../helpers/builders';

const view = (id: string | null, ticks: number, status: ActiveExperimentView['status'] = 'running'): ActiveExperimentView => ({
  experimentId: id,
  title: 'x',
  scenarioId: 'disk-insert',
  simulated: true,
  status,
  message: '',
  events: [],
  runs: [{ index: 0, threads: 2, status: 'running', ticks: b.ticks(ticks) }],
});

it('a snapshot after a reload carries every tick; a repeated snapshot adds nothing', () => {
  const l = new LiveRuns();
  const ev = l.loadSnapshot(view('e1', 5));
  assert.deepEqual(
    ev.map((e) => e.kind),
    ['reset', 'run', 'ticks'],
  );
  assert.equal(l.runs.get(0)!.ticks.length, 5);
  assert.deepEqual(l.loadSnapshot(view('e1', 5)), []);
  const more = l.loadSnapshot(view('e1', 7));
  assert.deepEqual(more, [{ kind: 'ticks', index: 0, from: 5 }]);
  assert.equal(
    l.runs.get(0)!.totals.rows,
    b.ticks(7).reduce((s, t) => s + t.rows, 0),
  );
});

it("live ticks append once; another experiment's ticks are ignored", () => {
  const l = new LiveRuns();
  l.loadSnapshot(view('e1', 2));
  assert.ok(l.tick('e1', 0, b.tick(2)));
  assert.equal(l.tick('e1', 0, b.tick(2)), null, 'a repeated tick');
  assert.equal(l.tick('other', 0, b.tick(3)), null);
  assert.equal(l.runs.get(0)!.ticks.length, 3);
});

it('a starting experiment keeps its runs when its id arrives; a new experiment resets', () => {
  const l = new LiveRuns();
  l.loadSnapshot({ ...view(null, 0, 'starting'), runs: [] });
  assert.ok(l.runStart('e2', 0, 4));
  l.tick('e2', 0, b.tick(0));
  assert.deepEqual(l.loadSnapshot(view('e2', 1)), []);
  assert.equal(l.runs.get(0)!.ticks.length, 1);
  assert.equal(l.loadSnapshot(view('e3', 0))[0].kind, 'reset');
});

it('a run end brings the record, its totals and any ticks the panel missed', () => {
  const l = new LiveRuns();
  l.loadSnapshot(view('e1', 2));
  const record = b.runRecord(0, 2, { ticks: 6 });
  const r = l.runEnd('e1', record)!;
  assert.equal(r.status, 'completed');
  assert.equal(r.ticks.length, 6);
  assert.equal(r.totals, record.totals);
  assert.equal(l.currentIndex, 0);
});
