// The client loop as the simulator models it: throughput that rises with sessions and flattens, latency that grows
// smoothly, spins that grow smoothly, and no call starved by other calls starting and finishing.
import assert from 'node:assert/strict';
import { computeRates, WorkerInput, type WorkerRate } from '../../tools/sim/model/contention';
import { ClientLoop, REFRESH_MS, steadyRefreshMs } from '../../tools/sim/model/clientloop';
import type { Placement } from '../../tools/sim/model/placement';
import { ManualClock } from '../../tools/sim/model/clock';
import { SimModel } from '../../tools/sim/model/instance';
import { placeTask } from '../../tools/sim/model/placement';
import { autoAffinity } from '../../tools/sim/model/topology';
import { disk, machine, ratesFor, rows, spinsPerRow } from '../helpers/simModel';

const SESSIONS = [1, 2, 4, 8, 16, 32, 64, 128];

/** n client-loop sessions, each spending `thinkUs` outside the server per call (a loopback round trip). */
function clientRates(n: number, thinkUs: number) {
  const online = autoAffinity(machine).cpus;
  const busy: number[] = [];
  const workers: WorkerInput[] = [];
  for (let i = 0; i < n; i++) {
    const p = placeTask(machine, online, busy, i);
    busy.push(p.cpu);
    workers.push({ id: i, profile: disk(1), cpu: p.cpu, node: p.node, delayedDurability: 'DISABLED', database: 'lab', thinkUs });
  }
  return computeRates(workers, { machine, logWriterNode: 0 });
}
const meanService = (r: ReturnType<typeof computeRates>) => [...r.workers.values()].reduce((s, w) => s + w.serviceUs, 0) / r.workers.size;

it('client loop: throughput rises with sessions while there are CPUs, then flattens; never below one session', () => {
  const curve = SESSIONS.map((n) => rows(clientRates(n, 300)));
  for (let i = 1; i <= 4; i++)
    assert.ok(curve[i] > curve[i - 1] * 1.5, `rises from ${SESSIONS[i - 1]} to ${SESSIONS[i]}: ${curve.map(Math.round)}`);
  for (const x of curve) assert.ok(x >= curve[0], `never below one session: ${curve.map(Math.round)}`);
  assert.ok(curve[7] < curve[6] * 1.5, `flattens past the CPUs: ${curve.map(Math.round)}`);
  // One session: the call, its row and its commit's log flush take well under a millisecond.
  assert.ok(meanService(clientRates(1, 300)) < 1000, `one call in the server: ${meanService(clientRates(1, 300))} us`);
});

it('client loop: latency per call (in the server plus the round trip) grows smoothly with sessions', () => {
  // Past saturation a closed loop's latency grows in proportion to sessions (n / throughput): at most ~2x per doubling.
  const latency = SESSIONS.map((n) => meanService(clientRates(n, 300)) + 300);
  for (let i = 1; i < latency.length; i++) {
    assert.ok(latency[i] >= latency[i - 1] * 0.98, `grows: ${latency.map(Math.round)}`);
    assert.ok(latency[i] < latency[i - 1] * 2.5, `smoothly: ${latency.map(Math.round)}`);
  }
});

it('server loop: LOGCACHE_ACCESS spins per row grow smoothly with threads, not 60x for one more', () => {
  const perRow = [1, 2, 4, 8, 16].map((n) => spinsPerRow(ratesFor(disk(1), n, null, 'DISABLED'), 'LOGCACHE_ACCESS'));
  for (let i = 1; i < perRow.length; i++) assert.ok(perRow[i] < perRow[i - 1] * 6, `per doubling: ${perRow.map((x) => x.toFixed(2))}`);
  for (const x of perRow) assert.ok(x < 1000, `hundreds at most, not millions: ${perRow.map((x) => x.toFixed(2))}`);
});

async function driveClientLoop(n: number, ms: number, thinkMs = 0.2) {
  const clock = new ManualClock();
  const model = new SimModel({ clock, seed: 3 });
  const db = model.createDatabase('lab');
  model.addObject(db, { name: 'dbo.t', type: 'U' });
  const calls = new Array<number>(n).fill(0);
  let latency = 0;
  const end = clock.now() + ms;
  const loop = async (i: number) => {
    const spid = 51 + i;
    model.sessionStarted(spid, 'sa');
    while (clock.now() < end) {
      const t = clock.now();
      const session = { spid, login: 'sa', appName: 't', hostName: 'h', encrypted: false, database: 'lab', state: new Map() };
      await model.runWorkload(session, db, 'dbo.t', disk(1), { rows: 1, durationMs: null, perCall: true }, new AbortController().signal);
      latency += clock.now() - t;
      calls[i]++;
      await new Promise<void>((r) => clock.setTimer(r, thinkMs));
    }
  };
  const all = Promise.all(calls.map((_, i) => loop(i)));
  for (let t = 0; t <= ms + 50; t += 0.1) {
    clock.advance(0.1);
    await new Promise((r) => setImmediate(r));
  }
  await all;
  const total = calls.reduce((a, b) => a + b, 0);
  return { perSec: (total * 1000) / ms, meanMs: latency / total, starved: calls.filter((c) => c === 0).length };
}

it('client loop on the simulated instance: 128 sessions complete at least the calls of one, none starved', async () => {
  const one = await driveClientLoop(1, 200);
  const many = await driveClientLoop(128, 200);
  assert.equal(many.starved, 0, 'every session completed calls');
  assert.ok(many.perSec >= one.perSec, `128 sessions ${many.perSec}/s vs 1 session ${one.perSec}/s`);
  assert.ok(one.meanMs < 1, `one session's call ${one.meanMs} ms`);
  assert.ok(many.meanMs < 10, `128 sessions' call ${many.meanMs} ms`);
  // Counters follow the calls: the rows the calls did are the rows the table counts.
});

it('server loop runner: a call that is due is not pushed out by other calls starting and finishing', async () => {
  const clock = new ManualClock();
  const model = new SimModel({ clock, seed: 3 });
  const db = model.createDatabase('lab');
  model.addObject(db, { name: 'dbo.t', type: 'U' });
  const s = (spid: number) => ({ spid, login: 'sa', appName: 't', hostName: 'h', encrypted: false, database: 'lab', state: new Map() });
  // 20 rows at ~13k rows/s: due in about 2 ms.
  let done = false;
  void model
    .runWorkload(s(51), db, 'dbo.t', disk(1), { rows: 20, durationMs: null }, new AbortController().signal)
    .then(() => (done = true));
  // Meanwhile another session starts and stops a call every 0.5 ms.
  for (let t = 0; t < 20; t += 0.5) {
    const ac = new AbortController();
    void model.runWorkload(s(52), db, 'dbo.t', disk(1), { rows: null, durationMs: 1000 }, ac.signal);
    clock.advance(0.25);
    ac.abort();
    clock.advance(0.25);
    await new Promise((r) => setImmediate(r));
  }
  assert.ok(done, 'the 20-row call finished within 20 ms');
});

it("client loop: a steady population's rates are recomputed less often as it grows (the simulator's own cost per call stays flat)", async () => {
  // Each recomputation costs the simulator CPU in proportion to the members: 128 sessions calling steadily for 4 s
  // may recompute at most every 800 ms, one session every 100 ms; anyone joining is counted within 100 ms.
  const refreshes = async (n: number) => {
    const clock = new ManualClock();
    let count = 0;
    const loop = new ClientLoop({
      clock,
      place: () => ({ cpu: 0, node: 0 }) as unknown as Placement,
      advance: () => undefined,
      ratesChanged: () => {
        count++;
      },
      rateOf: () => ({ serviceUs: 50 }) as unknown as WorkerRate,
      countRows: () => undefined,
    });
    const signal = new AbortController().signal;
    for (let ms = 0; ms < 4000; ms++) {
      for (let i = 0; i < n; i++) void loop.call({ spid: 51 + i, database: 'lab', table: 'dbo.t', profile: disk(1), rows: 1 }, signal);
      clock.advance(1);
      await Promise.resolve();
    }
    return count;
  };
  const one = await refreshes(1);
  const many = await refreshes(128);
  assert.ok(one >= 35 && one <= 41, `one session: ${one} recomputations in 4 s`);
  assert.ok(many <= 4000 / 800 + 2, `128 sessions: ${many} recomputations in 4 s`);
  assert.equal(steadyRefreshMs(128), 800);
  assert.equal(steadyRefreshMs(16), REFRESH_MS);
});
