// Acceptance of `spinlab watch --servers` with a Prometheus the project did not write (Debian's package): it scrapes
// the watch of two simulators, one stopped halfway. Every scraped value must equal the watch's own samples.jsonl deltas
// summed up to that scrape's tick (joined on the same scrape's spinlab_watch_ticks_total), the stopped server must be
// reported down, and the other's series must go on without a gap.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { WatchTick } from '../../src/shared/watch';
import { isBenignWait } from '../../src/shared/benign';
import { startSimProcess } from '../helpers/simProcess';
import { freePort, PROMETHEUS, serverTicks, startFleet, startProc, waitFor, type Proc } from '../helpers/fleet';

const PW = 'Fleet-Sim-Pw1!';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Series {
  metric: Record<string, string>;
  values: [number, string][];
}

async function rangeQuery(port: number, expr: string): Promise<Series[]> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = (await res.json()) as { status: string; data: { result: Series[] } };
  assert.equal(body.status, 'success', JSON.stringify(body));
  return body.data.result;
}

/** Prefix sums: p[k] is the sum over the first k ticks. */
function prefix(ticks: WatchTick[], value: (t: WatchTick) => number): number[] {
  const p = [0];
  for (const t of ticks) p.push(p[p.length - 1] + value(t));
  return p;
}

function near(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

describe('spinlab watch --servers, scraped by a real Prometheus', function () {
  this.timeout(240_000);
  const procs: Proc[] = [];
  const sims: { stop(): Promise<void> }[] = [];
  let dir: string;

  before(function () {
    if (!fs.existsSync(PROMETHEUS)) throw new Error(`${PROMETHEUS} is missing: scripts/integration-setup.sh installs Debian's prometheus`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-fleet-'));
  });
  after(async () => {
    for (const p of procs.reverse()) await p.stop();
    for (const s of sims) await s.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('exports both servers, values equal to samples.jsonl, the stopped one down and the other without a gap', async () => {
    const a = await startSimProcess(PW, ['--background', 'disk-insert:1']);
    sims.push(a);
    const b = await startSimProcess(PW, ['--background', 'disk-insert:1']);
    sims.push(b);
    const entry = (name: string, port: number) => ({
      name,
      server: '127.0.0.1',
      port,
      user: 'sa',
      passwordEnv: 'FLEET_SIM_PASSWORD',
      encrypt: false,
      interval: '1s',
    });
    const serversFile = path.join(dir, 'servers.json');
    fs.writeFileSync(serversFile, JSON.stringify([entry('a', a.port), entry('b', b.port)]));
    const out = path.join(dir, 'out');
    const fleet = await startFleet(serversFile, out, { FLEET_SIM_PASSWORD: PW }, ['--prometheus', '127.0.0.1:0']);
    procs.push(fleet);
    assert.ok(!fs.readFileSync(serversFile, 'utf8').includes(PW));

    const promPort = await freePort();
    const config = path.join(dir, 'prometheus.yml');
    fs.writeFileSync(
      config,
      `global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\nscrape_configs:\n  - job_name: spinlab\n    static_configs:\n      - targets: ['127.0.0.1:${fleet.port}']\n`,
    );
    const prom = startProc(PROMETHEUS, [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, 'tsdb')}`,
      `--web.listen-address=127.0.0.1:${promPort}`,
    ]);
    procs.push(prom);
    await waitFor('Prometheus ready', async () => {
      try {
        return (await fetch(`http://127.0.0.1:${promPort}/-/ready`)).ok ? true : undefined;
      } catch {
        return undefined;
      }
    });
    // Both servers ticking and scraped, then b stopped for good.
    const ticksOf = async (name: string) => {
      const r = await rangeQuery(promPort, `spinlab_watch_ticks_total{spinlab_server="${name}"}`);
      return r[0] ? Number(r[0].values?.[0]?.[1] ?? (r[0] as unknown as { value: [number, string] }).value[1]) : 0;
    };
    await waitFor(
      'ten ticks of both servers in Prometheus',
      async () => ((await ticksOf('a')) >= 10 && (await ticksOf('b')) >= 10 ? true : undefined),
      120_000,
    );
    const stoppedAt = Date.now() / 1000;
    await b.stop();
    await sleep(15_000);
    const queriedAt = Date.now() / 1000;

    const window = `[${Math.ceil(queriedAt - stoppedAt) + 120}s]`;
    const ticks = await rangeQuery(promPort, `spinlab_watch_ticks_total${window}`);
    const families = {
      spins: { expr: 'sqlserver_spinlock_spins_total', label: 'sqlserver_spinlock_name' },
      waits: { expr: 'sqlserver_os_wait_duration_total', label: 'wait_type' },
      latches: { expr: 'sqlserver_latch_wait_count_total', label: 'sqlserver_latch_class' },
    } as const;
    const got = {
      spins: await rangeQuery(promPort, `${families.spins.expr}${window}`),
      waits: await rangeQuery(promPort, `${families.waits.expr}${window}`),
      latches: await rangeQuery(promPort, `${families.latches.expr}${window}`),
    };
    const up = await rangeQuery(promPort, 'spinlab_watch_up');
    const healthz = (await (await fetch(`http://127.0.0.1:${fleet.port}/healthz`)).json()) as {
      servers: { name: string; state: string }[];
    };

    for (const name of ['a', 'b']) {
      // Read after the queries: the file holds at least every tick Prometheus saw.
      const jsonl = serverTicks(out, name);
      const tickSeries = ticks.find((s) => s.metric.spinlab_server === name);
      assert.ok(tickSeries, `no spinlab_watch_ticks_total for ${name}`);
      const kAt = new Map(tickSeries.values.map(([ts, v]) => [ts, Number(v)]));
      const value = {
        spins: (t: WatchTick, n: string) => t.spinlocks[n]?.spins ?? 0,
        waits: (t: WatchTick, n: string) => (t.waits[n]?.waitMs ?? 0) / 1000,
        latches: (t: WatchTick, n: string) => t.latches[n]?.count ?? 0,
      };
      for (const fam of ['spins', 'waits', 'latches'] as const) {
        const series = got[fam].filter((s) => s.metric.spinlab_server === name);
        assert.ok(series.length > 0, `no ${families[fam].expr} series for ${name}`);
        let checked = 0;
        for (const s of series) {
          const label = s.metric[families[fam].label];
          if (label === 'other') continue;
          if (fam === 'waits') assert.ok(!isBenignWait(label), `benign wait ${label} exported`);
          const p = prefix(jsonl, (t) => value[fam](t, label));
          for (const [ts, v] of s.values) {
            const k = kAt.get(ts);
            assert.ok(k !== undefined, `${name} ${label}: a scrape at ${ts} without its tick count`);
            assert.ok(k <= jsonl.length, `${name}: Prometheus saw ${k} ticks, samples.jsonl has ${jsonl.length}`);
            assert.ok(near(Number(v), p[k]), `${name} ${fam} ${label} at tick ${k}: Prometheus ${v}, samples.jsonl ${p[k]}`);
            checked++;
          }
        }
        if (fam !== 'latches') assert.ok(checked > 10, `${name} ${fam}: only ${checked} values compared`);
      }
      // The spinlock family's series (other included) add up to every spinlock's spins.
      const total = prefix(jsonl, (t) => t.all.spins);
      const lastTs = Math.max(...tickSeries.values.map(([ts]) => ts));
      const sum = got.spins
        .filter((s) => s.metric.spinlab_server === name)
        .reduce((acc, s) => acc + Number(s.values.find(([ts]) => ts === lastTs)?.[1] ?? 0), 0);
      assert.equal(sum, total[kAt.get(lastTs)!], `${name}: spins of every series against all.spins`);
    }

    // b is down, a is up: in the metric and on /healthz.
    const upOf = (n: string) => Number((up.find((s) => s.metric.spinlab_server === n) as unknown as { value: [number, string] }).value[1]);
    assert.equal(upOf('a'), 1);
    assert.equal(upOf('b'), 0);
    assert.deepEqual(
      healthz.servers.map((s) => [s.name, s.state]),
      [
        ['a', 'up'],
        ['b', 'down'],
      ],
    );
    // a went on without a gap: every scrape has it, and its tick count kept rising while b was gone.
    const aTicks = ticks.find((s) => s.metric.spinlab_server === 'a')!.values;
    for (let i = 1; i < aTicks.length; i++) assert.ok(aTicks[i][0] - aTicks[i - 1][0] < 3, `a's series has a gap at ${aTicks[i - 1][0]}`);
    const after = aTicks.filter(([ts]) => ts > stoppedAt + 2);
    for (let i = 3; i < after.length; i++)
      assert.ok(Number(after[i][1]) > Number(after[i - 3][1]), `a's ticks stalled at ${after[i - 3][0]} after b stopped`);
    assert.ok(after.length >= 8, `only ${after.length} scrapes of a after b stopped`);
    const bTicks = ticks.find((s) => s.metric.spinlab_server === 'b')!.values;
    assert.ok(Number(bTicks.at(-1)![1]) < Number(bTicks[0][1]) + (queriedAt - bTicks[0][0]), 'b kept ticking after it stopped');
  });
});
