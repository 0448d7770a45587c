// The tune's acceptance: ten seeded `spinlab tune --budget 10m` searches of disk-insert, each against its own
// `spinlab sim --topology 2x10x2 --noise 10% --seed N` (one process each, all at once), must find the model's best
// setting in at least nine, each within its budget plus 5%, and none may try FORCED delayed durability (not allowed).
//
// The model's best (test/helpers/tuneModel.ts): the configuration of the tune's space (affinity, rows per
// transaction) with the highest noise-free rows/s the simulator's contention model gives anywhere on its session
// ladder; the tune found it when its winner is that configuration at a session count where the model gives at least
// 95% of that peak (10% noise per trial cannot tell such counts apart in ten minutes).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Experiment } from '../../src/shared/experiment';
import { startSimProcess } from '../helpers/simProcess';
import { modelBest, modelRowsPerSec } from '../helpers/tuneModel';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PASSWORD = 'Tune-Acceptance-Pw1!';
const SEEDS = Array.from({ length: 10 }, (_, i) => i + 1);
const BUDGET_MS = 600_000;

function tune(port: number, out: string): Promise<{ code: number | null; ms: number; text: string }> {
  const t0 = Date.now();
  const proc = spawn(
    process.execPath,
    [path.join(ROOT, 'bin', 'spinlab.js'), 'tune', '--scenario', 'disk-insert', '--budget', '10m', '--out', out],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        SPINLAB_CONNECTION: `Server=127.0.0.1,${port};User ID=sa;Encrypt=false`,
        SPINLAB_PASSWORD: PASSWORD,
        SPINLAB_STATE_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-tune-state-')),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let text = '';
  proc.stdout!.on('data', (d) => (text += d));
  proc.stderr!.on('data', (d) => (text += d));
  return new Promise((resolve) => proc.on('exit', (code) => resolve({ code, ms: Date.now() - t0, text })));
}

it('ten seeded 10-minute tunes of disk-insert on a 2x10x2 simulator at 10% noise: the model best in at least 9, within budget + 5%, never FORCED', async function () {
  this.timeout(BUDGET_MS * 1.05 + 180_000);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-tune-acceptance-'));
  const sims = await Promise.all(
    SEEDS.map((seed) => startSimProcess(PASSWORD, ['--topology', '2x10x2', '--noise', '10%', '--seed', String(seed)])),
  );
  let results: { seed: number; code: number | null; ms: number; text: string; dir: string }[];
  try {
    results = await Promise.all(
      SEEDS.map(async (seed, i) => {
        const dir = path.join(work, `seed-${seed}`);
        return { seed, dir, ...(await tune(sims[i].port, dir)) };
      }),
    );
  } finally {
    await Promise.all(sims.map((s) => s.stop()));
  }
  let found = 0;
  const lines: string[] = [];
  for (const r of results) {
    assert.equal(r.code, 0, `seed ${r.seed}:\n${r.text}`);
    const e = JSON.parse(fs.readFileSync(path.join(r.dir, 'experiment.json'), 'utf8')) as Experiment;
    const t = e.tune!;
    const best = modelBest(t.configs, e.topology);
    const w = t.result!.winner;
    const wc = t.configs.find((c) => c.id === w.config)!;
    const atWinner = modelRowsPerSec(wc, w.threads, e.topology);
    const hit = w.config === best.config && atWinner >= 0.95 * best.rowsPerSec;
    if (hit) found++;
    lines.push(
      `seed ${r.seed}: ${hit ? 'found' : 'MISSED'}  winner ${wc.label} at ${w.threads} sessions (model ${Math.round(atWinner)} rows/s, ` +
        `${Math.round((100 * atWinner) / best.rowsPerSec)}% of the best), ${e.runs.length} trials, ${Math.round(r.ms / 1000)} s`,
    );
    assert.ok(r.ms <= BUDGET_MS * 1.05, `seed ${r.seed}: ${r.ms} ms for a ${BUDGET_MS} ms budget`);
    assert.ok(
      t.configs.every((c) => c.delayedDurability === null) && e.runs.every((x) => !x.arm.knobs.delayedDurability),
      `seed ${r.seed}: FORCED tried without --allow forced`,
    );
  }
  const best = modelBest(
    (JSON.parse(fs.readFileSync(path.join(results[0].dir, 'experiment.json'), 'utf8')) as Experiment).tune!.configs,
    (JSON.parse(fs.readFileSync(path.join(results[0].dir, 'experiment.json'), 'utf8')) as Experiment).topology,
  );
  console.log(
    `      the model's best: configuration ${best.config} at ${best.threads} sessions, ${Math.round(best.rowsPerSec)} rows/s\n      ${lines.join('\n      ')}`,
  );
  assert.ok(found >= 9, `found the model's best in ${found} of 10:\n${lines.join('\n')}`);
});
