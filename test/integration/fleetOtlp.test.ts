// OTLP export of `spinlab watch --servers`, checked by a receiver whose decoding the project did not write: PyPI's
// opentelemetry-proto parses what arrives (test/clients/otlp/receiver.py). After SIGTERM (the last push), every
// spinlock, wait and latch series' cumulative value equals the watch's samples.jsonl deltas summed, with the server's
// attributes on each point and cumulative, monotonic sums.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { WatchTick } from '../../src/shared/watch';
import { startSimProcess } from '../helpers/simProcess';
import { serverTicks, startFleet, startProc, waitFor, type Proc } from '../helpers/fleet';
import { ROOT } from '../helpers/cliChild';

const PW = 'Otlp-Sim-Pw1!';

interface KV {
  key: string;
  value: { stringValue?: string; intValue?: string };
}
interface Point {
  attributes?: KV[];
  asDouble?: number;
  asInt?: string;
}
interface Metric {
  name: string;
  unit?: string;
  sum?: { dataPoints: Point[]; aggregationTemporality: string; isMonotonic?: boolean };
  gauge?: { dataPoints: Point[] };
}
interface Export {
  path: string;
  contentType: string;
  request: { resourceMetrics?: { resource: { attributes: KV[] }; scopeMetrics: { metrics: Metric[] }[] }[] };
}

const attr = (p: Point, k: string) => p.attributes?.find((a) => a.key === k)?.value;
const val = (p: Point) => p.asDouble ?? Number(p.asInt ?? 0);

describe('spinlab watch --servers --otlp, decoded by opentelemetry-proto', function () {
  this.timeout(180_000);
  const procs: Proc[] = [];
  const sims: { stop(): Promise<void> }[] = [];
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-otlp-'));
  });
  after(async () => {
    for (const p of procs.reverse()) await p.stop();
    for (const s of sims) await s.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('pushes cumulative sums equal to samples.jsonl, with the server on every point', async () => {
    const sim = await startSimProcess(PW, ['--background', 'disk-insert:1']);
    sims.push(sim);
    const received = path.join(dir, 'received.jsonl');
    const receiver = startProc('python3', [path.join(ROOT, 'test', 'clients', 'otlp', 'receiver.py'), received]);
    procs.push(receiver);
    const port = await waitFor('the OTLP receiver', () => {
      if (receiver.proc.exitCode !== null) throw new Error(`the receiver exited:\n${receiver.text()}`);
      const m = /listening (\d+)/.exec(receiver.text());
      return m ? Number(m[1]) : undefined;
    });
    const serversFile = path.join(dir, 'servers.yaml');
    fs.writeFileSync(
      serversFile,
      `- name: one\n  server: 127.0.0.1\n  port: ${sim.port}\n  user: sa\n  passwordEnv: OTLP_SIM_PASSWORD\n  encrypt: false\n  interval: 1s\n`,
    );
    const out = path.join(dir, 'out');
    const fleet = await startFleet(serversFile, out, { OTLP_SIM_PASSWORD: PW }, [
      '--prometheus',
      '127.0.0.1:0',
      '--otlp',
      `http://127.0.0.1:${port}/v1/metrics`,
      '--otlp-interval',
      '1s',
    ]);
    procs.push(fleet);
    await waitFor('eight ticks', () => (serverTicks(out, 'one').length >= 8 ? true : undefined), 120_000);
    const pushesBefore = fs.existsSync(received) ? fs.readFileSync(received, 'utf8').split('\n').filter(Boolean).length : 0;
    assert.ok(pushesBefore >= 2, `only ${pushesBefore} pushes while it ran`);
    await fleet.stop(); // SIGTERM: every watch ends, then the last push
    assert.equal(fleet.proc.exitCode, 130, fleet.text());

    const exports = fs
      .readFileSync(received, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Export);
    // The push after every watch ended holds the final sums (an empty one may follow it, from the reader's shutdown).
    const last = exports.filter((e) => e.request.resourceMetrics?.length).at(-1)!;
    assert.equal(last.path, '/v1/metrics');
    assert.equal(last.contentType, 'application/x-protobuf');
    const rm = last.request.resourceMetrics![0];
    assert.equal(rm.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue, 'spinlab-watch');
    const metrics = new Map(rm.scopeMetrics.flatMap((s) => s.metrics).map((m) => [m.name, m]));
    const ticks: WatchTick[] = serverTicks(out, 'one');
    const sumOf = (f: (t: WatchTick) => number) => ticks.reduce((a, t) => a + f(t), 0);

    const families = [
      {
        metric: 'sqlserver.spinlock.spins',
        label: 'sqlserver.spinlock.name',
        value: (t: WatchTick, n: string) => t.spinlocks[n]?.spins ?? 0,
      },
      {
        metric: 'sqlserver.spinlock.backoffs',
        label: 'sqlserver.spinlock.name',
        value: (t: WatchTick, n: string) => t.spinlocks[n]?.backoffs ?? 0,
      },
      { metric: 'sqlserver.os.wait.duration', label: 'wait.type', value: (t: WatchTick, n: string) => (t.waits[n]?.waitMs ?? 0) / 1000 },
      {
        metric: 'sqlserver.latch.wait.count',
        label: 'sqlserver.latch.class',
        value: (t: WatchTick, n: string) => t.latches[n]?.count ?? 0,
      },
    ];
    for (const fam of families) {
      const m = metrics.get(fam.metric);
      if (fam.metric === 'sqlserver.spinlock.backoffs' && !m) continue; // an idle simulator may back off nowhere
      assert.ok(m?.sum, `${fam.metric} was not pushed as a sum`);
      assert.equal(m.sum.aggregationTemporality, 'AGGREGATION_TEMPORALITY_CUMULATIVE');
      assert.equal(m.sum.isMonotonic, true);
      let compared = 0;
      for (const p of m.sum.dataPoints) {
        assert.equal(attr(p, 'spinlab.server')?.stringValue, 'one');
        assert.equal(attr(p, 'server.address')?.stringValue, '127.0.0.1');
        assert.equal(Number(attr(p, 'server.port')?.intValue), sim.port);
        const name = attr(p, fam.label)?.stringValue;
        assert.ok(name, `${fam.metric} point without ${fam.label}`);
        if (name === 'other') continue;
        const want = sumOf((t) => fam.value(t, name));
        assert.ok(Math.abs(val(p) - want) <= 1e-9 * Math.max(1, want), `${fam.metric} ${name}: pushed ${val(p)}, samples.jsonl ${want}`);
        compared++;
      }
      assert.ok(compared > 0, `no ${fam.metric} series compared`);
    }
    const ticksPushed = metrics.get('spinlab.watch.ticks')!.sum!.dataPoints[0];
    assert.equal(val(ticksPushed), ticks.length);
    assert.ok(metrics.get('spinlab.watch.up')?.gauge, 'spinlab.watch.up is not a gauge');
  });
});
