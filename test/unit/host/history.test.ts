// Saved experiments: this server's listed newest first, other servers' left out, malformed files skipped with a log
// line, ids that are not plain folder names refused.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { experimentDir, listHistory, readExperiment } from '../../../src/host/history';
import type { Experiment } from '../../../src/shared/experiment';
import { identity, topology } from './fixtures';
import { tmpDir } from './fakePorts';

function experiment(id: string, createdAt: string, serverName = 'LAB1', over: Partial<Experiment> = {}): Experiment {
  return {
    schemaVersion: 6,
    id,
    title: `t ${id}`,
    question: null,
    createdAt,
    tool: { name: 'spinlock-lab', version: '0.1.0' },
    simulated: true,
    server: identity({ serverName }),
    topology: topology(),
    labDatabase: 'SpinlockLab',
    scenario: { id: 'disk-insert', parameters: {} },
    load: { mode: 'server-loop', threads: [1, 2], durationMs: 1000, rows: null, warmupMs: 0, intervalMs: 250 },
    knobs: { before: null, applied: {}, restored: null },
    status: 'completed',
    runs: [{ index: 0, threads: 1, status: 'completed', derived: { rowsPerSec: 1234 } } as unknown as Experiment['runs'][number]],
    events: [],
    ...over,
  };
}

function save(folder: string, dirName: string, content: unknown): void {
  fs.mkdirSync(path.join(folder, dirName), { recursive: true });
  fs.writeFileSync(path.join(folder, dirName, 'experiment.json'), typeof content === 'string' ? content : JSON.stringify(content));
}

it("this server's experiments, newest first, summarised; other servers and junk left out", () => {
  const folder = tmpDir('hist');
  save(folder, 'a', experiment('a', '2026-01-01T10:00:00.000Z'));
  save(folder, 'c', experiment('c', '2026-03-01T10:00:00.000Z', 'lab1'));
  save(folder, 'b', experiment('b', '2026-02-01T10:00:00.000Z', 'OTHER'));
  save(folder, 'broken', '{"id": "broken", ');
  save(folder, 'notone', { hello: 'world' });
  fs.mkdirSync(path.join(folder, 'empty'));
  fs.writeFileSync(path.join(folder, 'stray.txt'), 'x');
  const lines: string[] = [];
  const h = listHistory(folder, { serverName: 'LAB1' }, (l) => lines.push(l));
  assert.deepEqual(
    h.map((e) => e.id),
    ['c', 'a'],
  );
  assert.deepEqual(h[1], {
    id: 'a',
    title: 't a',
    createdAt: '2026-01-01T10:00:00.000Z',
    scenarioId: 'disk-insert',
    status: 'completed',
    simulated: true,
    serverName: 'LAB1',
    threads: [1, 2],
    runs: [{ index: 0, threads: 1, status: 'completed', rowsPerSec: 1234 }],
    presetId: null,
  });
  assert.equal(lines.length, 2, lines.join('\n'));
  assert.match(lines.join('\n'), /skipped broken: Could not read/);
  assert.match(lines.join('\n'), /skipped notone: .* is not a Spinlock Lab experiment record/);
});

it('a missing or empty folder is an empty history', () => {
  assert.deepEqual(
    listHistory(path.join(tmpDir('hist'), 'nope'), { serverName: 'X' }, () => assert.fail('no log')),
    [],
  );
  assert.deepEqual(
    listHistory('', { serverName: 'X' }, () => undefined),
    [],
  );
});

it('readExperiment and experimentDir refuse ids that would leave the folder', () => {
  const folder = tmpDir('hist');
  save(folder, 'x1', experiment('x1', '2026-01-01T00:00:00.000Z'));
  assert.equal(readExperiment(folder, 'x1').id, 'x1');
  for (const bad of ['..', '.', '../x1', 'a/b', '', 'x'.repeat(200)]) {
    assert.equal(experimentDir(folder, bad), null, bad);
    assert.throws(() => readExperiment(folder, bad), /not an experiment id/);
  }
  assert.throws(() => readExperiment(folder, 'missing'), /Could not read/);
});
