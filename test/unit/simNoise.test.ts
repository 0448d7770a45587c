// The simulator's noise on purpose (--noise, tools/sim/model/noise.ts): seeded, a burst factor whose spread is the
// coefficient of variation asked for, a drift that stays in its bounds, dips at the documented rate and depth, and a
// model whose counters follow the factor coherently (rows move with it, spins per row do not).
import assert from 'node:assert/strict';
import { ManualClock } from '../../tools/sim/model/clock';
import { SimModel } from '../../tools/sim/model/instance';
import { DIP_EVERY_S, DRIFT_SHARE, LoadNoise, MAX_DIP, parseNoise, PAUSE_MS } from '../../tools/sim/model/noise';
import { disk } from '../helpers/simModel';

const T0 = Date.UTC(2025, 0, 6, 9);
const stats = (xs: number[]) => {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1));
  return { mean, cv: sd / mean };
};

it('--noise reads a percentage or a fraction, from 0% to 50%', () => {
  assert.equal(parseNoise('10%'), 0.1);
  assert.equal(parseNoise('0.2'), 0.2);
  assert.equal(parseNoise('0%'), 0);
  for (const bad of ['60%', 'ten', '-5%', '1.5']) assert.throws(() => parseNoise(bad), /--noise must be/);
});

it('noise: the same seed and the same load give the same factors; another seed other ones', () => {
  const trace = (seed: number) => {
    const n = new LoadNoise(0.1, seed, T0);
    const out: number[] = [];
    for (let run = 0; run < 20; run++) {
      const t = T0 + run * 7_000;
      n.observe(t, [51 + run]);
      out.push(n.factor(t + 500), n.mean(t, t + 2_000));
      n.observe(t + 2_000, []);
      n.forget(51 + run);
    }
    return out;
  };
  assert.deepEqual(trace(7), trace(7));
  assert.notDeepEqual(trace(7), trace(8));
});

it('noise: burst factors have mean 1 and the coefficient of variation asked for', () => {
  for (const cv of [0.1, 0.2]) {
    const n = new LoadNoise(cv, 11, T0);
    const s = stats(Array.from({ length: 5000 }, () => n.drawBurst()));
    assert.ok(Math.abs(s.mean - 1) < 0.01, `mean ${s.mean}`);
    assert.ok(Math.abs(s.cv - cv) < cv * 0.08, `cv ${s.cv.toFixed(4)} for ${cv}`);
  }
});

it('noise: a burst starts when sessions become active while none was, and holds while they keep working', () => {
  const n = new LoadNoise(0.1, 3, T0);
  n.observe(T0, [51, 52]);
  assert.equal(n.bursts, 1);
  const first = n.burst;
  // Warm-up ends, a sample is read, the measured phase starts on the same sessions: one burst.
  n.observe(T0 + 1_000, []);
  n.observe(T0 + 1_050, [51, 52]);
  assert.equal(n.bursts, 1);
  assert.equal(n.burst, first);
  // The run's sessions close; the next run's start a new burst at once.
  n.observe(T0 + 3_000, []);
  n.forget(51);
  n.forget(52);
  n.observe(T0 + 3_100, [53]);
  assert.equal(n.bursts, 2);
  assert.notEqual(n.burst, first);
  // A session idle for PAUSE_MS no longer keeps the burst going; a custom batch's touch counts as work.
  n.observe(T0 + 4_000, []);
  n.touch(T0 + 4_000 + PAUSE_MS / 2, 53);
  assert.equal(n.bursts, 2);
  n.touch(T0 + 4_000 + PAUSE_MS * 2, 53);
  assert.equal(n.bursts, 3);
});

it('noise: the drift stays within 0.3x the noise and uses most of that range over ten minutes', () => {
  const n = new LoadNoise(0.1, 5, T0);
  const d = Array.from({ length: 600 }, (_, i) => n.drift(T0 + i * 1_000));
  const amp = DRIFT_SHARE * 0.1;
  assert.ok(
    d.every((x) => Math.abs(x - 1) <= amp + 1e-12),
    `within +-${amp}`,
  );
  assert.ok(Math.max(...d) - Math.min(...d) > amp, `moves: ${Math.min(...d)}..${Math.max(...d)}`);
  // Smooth: a second moves it by a small part of its range.
  for (let i = 1; i < d.length; i++) assert.ok(Math.abs(d[i] - d[i - 1]) < amp / 10);
});

it('noise: dips come about once a minute, 30-50% deep at 10% noise, 1-2 s long, and the mean factor sees them', () => {
  const n = new LoadNoise(0.1, 9, T0);
  const hours = 10;
  const dips = n.dipsIn(T0, T0 + hours * 3_600_000);
  const expected = (hours * 3600) / DIP_EVERY_S;
  assert.ok(Math.abs(dips.length - expected) < 3.5 * Math.sqrt(expected), `${dips.length} dips in ${hours} h, ${expected} expected`);
  for (const d of dips) {
    assert.ok(d.factor >= 0.5 - 1e-9 && d.factor <= 0.7 + 1e-9, `depth ${1 - d.factor}`);
    assert.ok(d.end - d.at >= 1_000 && d.end - d.at <= 2_000, `length ${d.end - d.at} ms`);
  }
  const d = dips[3];
  const inside = n.mean(d.at, d.end);
  const around = n.mean(d.at - 10_000, d.at);
  assert.ok(inside / around < 0.75, `dip ${inside} vs before ${around}`);
  // Deep noise caps the dip.
  const deep = new LoadNoise(0.5, 9, T0);
  assert.ok(deep.dipsIn(T0, T0 + 3_600_000).every((x) => x.factor >= 1 - MAX_DIP - 1e-9));
});

it('noise: a client-paced session is held back for 1 - f of its time, so its calls fall to f', () => {
  const n = new LoadNoise(0.1, 4, T0);
  n.observe(T0, [51]);
  n.burst = 0.8;
  let t = T0;
  let calls = 0;
  const end = T0 + 20_000;
  while (t < end) {
    const hold = n.holdMs(t, 51);
    const took = 0.3 + (hold > 0 ? hold + 0.4 : 0); // a 0.3 ms round trip; a timer overshoots by 0.4 ms
    if (hold > 0) n.held(51, took - 0.3);
    t += took;
    calls++;
  }
  const natural = 20_000 / 0.3;
  const want = Math.min(1, n.mean(T0, end));
  assert.ok(Math.abs(calls / natural - want) < 0.01, `calls at ${(calls / natural).toFixed(3)} of natural, ${want.toFixed(3)} wanted`);
});

/** n server-loop sessions for ms, on their own spids (a run), then closed. */
async function serverRun(model: SimModel, clock: ManualClock, firstSpid: number, n: number, ms: number) {
  const db = model.database('lab')!;
  const calls = Array.from({ length: n }, (_, i) => {
    const spid = firstSpid + i;
    model.sessionStarted(spid, 'sa');
    const session = { spid, login: 'sa', appName: 't', hostName: 'h', encrypted: false, database: 'lab', state: new Map() };
    return model.runWorkload(session, db, 'dbo.t', disk(1), { rows: null, durationMs: ms }, new AbortController().signal);
  });
  clock.advance(ms + 5);
  const rows = (await Promise.all(calls)).reduce((s, r) => s + r.rows, 0);
  for (let i = 0; i < n; i++) model.sessionEnded(firstSpid + i);
  clock.advance(50);
  return rows;
}

it('noise in the model: each run draws its factor; rows follow it, spins per row and flushes per row do not', async () => {
  const clock = new ManualClock(T0);
  const model = new SimModel({ clock, seed: 21, noise: 0.2 });
  model.addObject(model.createDatabase('lab'), { name: 'dbo.t', type: 'U' });
  const runs: { rows: number; burst: number; spinsPerRow: number; flushesPerRow: number }[] = [];
  for (let r = 0; r < 6; r++) {
    model.advance();
    const spins0 = model.counters.spinlocks.get('LOGCACHE_ACCESS')!.spins;
    const flushes0 = model.counters.db('lab').logFlushes;
    const rows = await serverRun(model, clock, 51 + r * 4, 4, 2_000);
    runs.push({
      rows,
      burst: model.noise!.burst,
      spinsPerRow: (model.counters.spinlocks.get('LOGCACHE_ACCESS')!.spins - spins0) / rows,
      flushesPerRow: (model.counters.db('lab').logFlushes - flushes0) / rows,
    });
  }
  assert.equal(model.noise!.bursts, 6, 'one burst per run');
  const rowsCv = stats(runs.map((r) => r.rows)).cv;
  assert.ok(rowsCv > 0.05, `runs differ: ${runs.map((r) => Math.round(r.rows)).join(', ')}`);
  // Rows per burst factor is the same in every run (within the drift, the dips and the per-step jitter).
  const perFactor = runs.map((r) => r.rows / r.burst);
  assert.ok(stats(perFactor).cv < rowsCv / 2, `rows follow the burst: ${perFactor.map(Math.round).join(', ')}`);
  for (const k of ['spinsPerRow', 'flushesPerRow'] as const)
    assert.ok(stats(runs.map((r) => r[k])).cv < 0.06, `${k} stays: ${runs.map((r) => r[k].toFixed(4)).join(', ')}`);
});

it('noise off: no noise process, and runs differ only by the small per-step jitter', async () => {
  assert.equal(new SimModel({ clock: new ManualClock(T0), seed: 21, noise: 0 }).noise, null);
  const clock = new ManualClock(T0);
  const model = new SimModel({ clock, seed: 21 });
  assert.equal(model.noise, null);
  model.addObject(model.createDatabase('lab'), { name: 'dbo.t', type: 'U' });
  const rows: number[] = [];
  for (let r = 0; r < 6; r++) rows.push(await serverRun(model, clock, 51 + r * 4, 4, 2_000));
  assert.ok(stats(rows).cv < 0.01, `rows: ${rows.map(Math.round).join(', ')}`);
});

/** n client-loop sessions calling for ms (a 0.2 ms round trip between calls): the calls made and the spins counted. */
async function clientRun(model: SimModel, clock: ManualClock, n: number, ms: number) {
  const db = model.database('lab')!;
  const end = clock.now() + ms;
  let calls = 0;
  const spins0 = model.counters.spinlocks.get('LOGCACHE_ACCESS')!.spins;
  const loop = async (spid: number) => {
    model.sessionStarted(spid, 'sa');
    const session = { spid, login: 'sa', appName: 't', hostName: 'h', encrypted: false, database: 'lab', state: new Map() };
    while (clock.now() < end) {
      await model.runWorkload(session, db, 'dbo.t', disk(1), { rows: 1, durationMs: null, perCall: true }, new AbortController().signal);
      calls++;
      await new Promise<void>((r) => clock.setTimer(r, 0.2));
    }
  };
  const all = Promise.all(Array.from({ length: n }, (_, i) => loop(51 + i)));
  for (let t = 0; t <= ms + 20; t += 0.1) {
    clock.advance(0.1);
    await new Promise((r) => setImmediate(r));
  }
  await all;
  model.advance();
  return { calls, spinsPerCall: (model.counters.spinlocks.get('LOGCACHE_ACCESS')!.spins - spins0) / calls };
}

it('noise in the client loop: a burst of 0.8 holds calls back to 0.8 of them, one of 1.25 cannot speed them; spins per call stay', async () => {
  const run = async (burst?: number) => {
    const clock = new ManualClock(T0);
    const model = new SimModel({ clock, seed: 5, noise: burst === undefined ? undefined : 0.1 });
    model.addObject(model.createDatabase('lab'), { name: 'dbo.t', type: 'U' });
    if (model.noise && burst !== undefined) {
      // The burst alone, at a known size: no drift, no dips.
      model.noise.drawBurst = () => burst;
      model.noise.drift = () => 1;
      model.noise.dipsIn = () => [];
    }
    return clientRun(model, clock, 4, 600);
  };
  const off = await run();
  for (const burst of [0.8, 1.25]) {
    const on = await run(burst);
    const want = Math.min(1, burst);
    assert.ok(Math.abs(on.calls / off.calls - want) < 0.04, `calls ${on.calls} with a burst of ${burst}, ${off.calls} without`);
    assert.ok(
      Math.abs(on.spinsPerCall / off.spinsPerCall - 1) < 0.1,
      `spins per call ${on.spinsPerCall} vs ${off.spinsPerCall} (burst ${burst})`,
    );
  }
});
