// What `spinlab history` reads (src/engine/history/load.ts) and how it groups it (regressionHistory.ts): experiment
// folders, their experiment.json, or a parent folder of them, each read once; a watch, a tune, a broken record or a
// missing path skipped with its reason; experiments grouped by workload, the mode telling two apart.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadExperiments } from '../../src/engine/history/load';
import { findCell, groupByWorkload, workloadHistory } from '../../src/shared/regressionHistory';
import { repeatedPresetExperiment } from '../helpers/repeatedExperiment';
import { experiment } from '../helpers/builders';
import type { Experiment } from '../../src/shared/experiment';

function save(parent: string, name: string, content: unknown): string {
  const dir = path.join(parent, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'experiment.json'), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
}

describe('spinlab history: reading and grouping saved experiments', () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-history-load-'));
  const a = save(parent, 'exp-a', experiment('exp-a', [1]));
  save(parent, 'exp-b', experiment('exp-b', [1]));
  save(parent, 'broken', '{"id": ');
  save(parent, 'watch-1', { kind: 'watch', id: 'watch-1' });
  save(parent, 'tune-1', { ...experiment('tune-1', [1]), kind: 'tune' });
  fs.mkdirSync(path.join(parent, 'watches'));

  it('a parent folder: each folder in it holding experiment.json; the others skipped, each with its reason', () => {
    const r = loadExperiments([parent]);
    assert.deepEqual(
      r.experiments.map((e) => e.id),
      ['exp-a', 'exp-b'],
    );
    const reasons = Object.fromEntries(r.skipped.map((s) => [path.basename(s.path), s.reason]));
    assert.deepEqual(Object.keys(reasons).sort(), ['broken', 'tune-1', 'watch-1']);
    assert.match(reasons.broken, /is not readable JSON/);
    assert.match(reasons['watch-1'], /^a watch, not an experiment/);
    assert.match(reasons['tune-1'], /^a tune/);
  });

  it('a folder, its experiment.json and its parent name one experiment once; a missing path says so', () => {
    const r = loadExperiments([a, path.join(a, 'experiment.json'), parent, path.join(parent, 'nowhere')]);
    assert.deepEqual(
      r.experiments.map((e) => e.id),
      ['exp-a', 'exp-b'],
    );
    assert.ok(r.skipped.some((s) => s.path.endsWith('nowhere') && s.reason === 'does not exist'));
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-history-empty-'));
    assert.deepEqual(loadExperiments([empty]).skipped, [{ path: empty, reason: 'holds no experiment.json, nor folders that do' }]);
  });

  it('groups by workload: another scenario, other parameters or another mode is another group', () => {
    const base = experiment('e1', [1]);
    const other = (id: string, over: Partial<Experiment>): Experiment => ({ ...experiment(id, [1]), ...over });
    const groups = groupByWorkload([
      base,
      other('e2', {}),
      other('e3', { load: { ...base.load, mode: 'client-loop' } }),
      other('e4', { scenario: { id: 'disk-insert', parameters: { batch_size: 10, seed_rows: 100000 } } }),
      other('e5', { scenario: { id: 'inmem-insert', parameters: {} } }),
    ]);
    assert.deepEqual(
      groups.map((g) => [g.workload, g.experiments.map((e) => e.id)]),
      [
        ['scenario disk-insert (batch_size=1, seed_rows=100000), server-loop', ['e1', 'e2']],
        ['scenario disk-insert (batch_size=1, seed_rows=100000), client-loop', ['e3']],
        ['scenario disk-insert (batch_size=10, seed_rows=100000), server-loop', ['e4']],
        ['scenario inmem-insert, server-loop', ['e5']],
      ],
    );
  });

  it("--cell names a cell by its thread count, and a preset's arm by its label or its id", () => {
    const h = workloadHistory([repeatedPresetExperiment({ threads: [2, 8] })]);
    assert.deepEqual(
      h.cells.map((c) => c.name),
      ['2 threads, A side', '2 threads, B side', '8 threads, A side', '8 threads, B side'],
    );
    assert.equal(findCell(h, '8 threads,  b side')?.armId, 'arm-b');
    assert.equal(findCell(h, '8 threads, arm-b')?.name, '8 threads, B side');
    assert.equal(findCell(h, '8')?.name, '8 threads, A side', 'the thread count alone: its first arm');
    assert.equal(findCell(h, '16 threads'), null);
  });
});
