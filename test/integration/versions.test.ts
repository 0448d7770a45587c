// The experiment path at the oldest and newest versions the simulator imitates (13 = 2016, 17 = 2025): every sql/
// statement the run sends must be answered at both, since the simulator answers per --version.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runExperiment } from '../../src/engine/experiment';
import { defaultParameters, getScenario } from '../../src/engine/scenarios';
import { withSim } from '../helpers/simClient';
import { targetFor } from '../helpers/simTarget';

for (const version of [13, 17]) {
  describe(`experiment path at --version ${version}`, () => {
    for (const [scenarioId, set] of [
      ['disk-insert', { seed_rows: 1000 }],
      ['ring-buffer', { slots: 4096, storage: 'memory', slot_source: 'identity' }],
    ] as const) {
      it(`${scenarioId}: deploy, two runs with samples, knobs changed and restored`, () =>
        withSim({ version }, async (sim) => {
          const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-ver-'));
          const r = await runExperiment(
            {
              target: targetFor(sim),
              scenarioId,
              parameters: { ...defaultParameters(getScenario(scenarioId)), ...set },
              labDatabase: 'SpinlockLab',
              load: { mode: 'server-loop', threads: [1, 2], durationMs: 800, rows: null, warmupMs: 0, intervalMs: 250 },
              knobs: { delayedDurability: 'FORCED', affinity: 'numa:0' },
              outDir: path.join(dir, 'out'),
              stateDir: path.join(dir, 'state'),
            },
            new AbortController().signal,
          );
          assert.equal(r.experiment.status, 'completed', JSON.stringify(r.experiment.runs.map((x) => x.events)));
          assert.equal(r.experiment.server.majorVersion, version);
          for (const run of r.experiment.runs) assert.ok(run.timeline.length >= 1 && run.rows > 0);
        }));
    }
  });
}
