// Eight hours of four servers ticking every second (115,200 ticks), fed at full speed through the fleet's export path
// (ServerMetrics.tick, the OpenTelemetry SDK, the Prometheus scrape as served): memory stays bounded (the heap after
// hour 8 within a few MB of hour 1, and the series per server capped however many names pass through), and nothing is
// lost (every final sum equals the sum of what was fed, other included).
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import type { AddressInfo } from 'node:net';
import type { WatchTick } from '../../src/shared/watch';
import { MetricsExport } from '../../src/engine/metrics/export';
import { SERIES_LIMITS } from '../../src/engine/metrics/catalog';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const SERVERS = 4;
const HOURS = 8;
const TICKS_PER_HOUR = 3600;
const POOL = 200; // spinlock names that pass through, far more than the series kept

/** Tick i of server s: 15 spinlocks out of the pool, turning over, and deltas the test can sum again. */
function syntheticTick(s: number, i: number): WatchTick {
  const spinlocks: WatchTick['spinlocks'] = {};
  let spins = 0;
  for (let j = 0; j < 15; j++) {
    const name = `SPIN_${(i * 7 + j * 13 + s) % POOL}`;
    const d = { spins: 100 + ((i + j) % 50), collisions: 3, backoffs: j % 3, sleepTime: 1 };
    spinlocks[name] = d;
    spins += d.spins;
  }
  const hidden = 17; // spins of names the tick's top 15 cut: only in all
  const waits = { WRITELOG: { waitMs: 5, count: 2, signalMs: 0 }, [`LCK_M_${i % 40}`]: { waitMs: 1, count: 1, signalMs: 0 } };
  return {
    t: i * 1000,
    intervalMs: 1000,
    spinlocks,
    waits,
    latches: { [`LATCH_${i % 30}`]: { waitMs: 2, count: 1 } },
    all: { spins: spins + hidden, backoffs: 0, collisions: 45, sleepTime: 15, waitMs: 6, waitCount: 3, latchMs: 2, latchCount: 1 },
    log: {
      flushes: 10,
      bytesFlushed: 4096,
      flushesPerSec: 10,
      bytesFlushedPerSec: 4096,
      flushWaitsPerSec: 0,
      flushWaitTimeMs: 1,
      avgWriteStallMs: 0.5,
    },
    logByDb: { db1: { transactions: 10, flushes: 10, bytesFlushed: 4096, flushWaitTimeMs: 1, writes: 10, avgWriteStallMs: 0.5 } },
    monitor: { cpuMs: 1, logicalReads: 20 },
  } as unknown as WatchTick;
}

/** One scrape on a new connection (the feeding loop blocks the event loop for seconds: a kept-alive one may be closed). */
function scrapeText(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
}

function parseScrape(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    m.set(line.slice(0, i).replace(/,?otel_scope_(name|version)="[^"]*"/g, ''), Number(line.slice(i + 1)));
  }
  return m;
}

describe('the fleet export over eight hours of four servers at 1 s', function () {
  this.timeout(600_000);

  it('keeps memory bounded and loses nothing', async () => {
    const metrics = new MetricsExport({ prometheus: true, toolVersion: 'test' });
    const server = http.createServer((req, res) => metrics.handleScrape(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
    try {
      const servers = Array.from({ length: SERVERS }, (_, s) =>
        metrics.fleet.server({ name: `s${s}`, address: `10.0.0.${s}`, port: 1433 }, 1000),
      );
      const fed = servers.map(() => ({ spins: 0, ticks: 0, waitCount: 0, latchCount: 0, flushes: 0 }));
      const heap: number[] = [];
      let scrape = new Map<string, number>();
      for (let h = 0; h < HOURS; h++) {
        for (let i = h * TICKS_PER_HOUR; i < (h + 1) * TICKS_PER_HOUR; i++)
          for (let s = 0; s < SERVERS; s++) {
            const t = syntheticTick(s, i);
            servers[s].tick(t);
            fed[s].spins += t.all.spins;
            fed[s].ticks++;
            fed[s].waitCount += t.all.waitCount;
            fed[s].latchCount += t.all.latchCount;
            fed[s].flushes += t.log.flushes;
          }
        // A scrape an hour, as Prometheus would take many: each reads the whole state.
        scrape = parseScrape(await scrapeText(url));
        gc();
        heap.push(process.memoryUsage().heapUsed);
      }
      const mb = heap.map((b) => Math.round(b / 1e5) / 10);
      assert.ok(
        heap[HOURS - 1] - heap[0] < 8e6,
        `heap grew from ${mb[0]} MB after hour 1 to ${mb[HOURS - 1]} MB after hour 8: ${mb.join(', ')}`,
      );

      for (let s = 0; s < SERVERS; s++) {
        const mine = [...scrape].filter(([k]) => k.includes(`spinlab_server="s${s}"`));
        const sum = (metric: string) => mine.filter(([k]) => k.startsWith(`${metric}{`)).reduce((a, [, v]) => a + v, 0);
        assert.equal(sum('spinlab_watch_ticks_total'), HOURS * TICKS_PER_HOUR);
        assert.equal(sum('spinlab_watch_ticks_total'), fed[s].ticks);
        assert.equal(sum('sqlserver_spinlock_spins_total'), fed[s].spins, `s${s}: spins exported against fed`);
        assert.equal(sum('sqlserver_os_wait_count_total'), fed[s].waitCount);
        assert.equal(sum('sqlserver_latch_wait_count_total'), fed[s].latchCount);
        assert.equal(sum('sqlserver_transaction_log_flushes_total'), fed[s].flushes);
        const names = mine.filter(([k]) => k.startsWith('sqlserver_spinlock_spins_total{'));
        assert.equal(names.length, SERIES_LIMITS.spinlocks + 1, `s${s}: ${names.length} spinlock series (the limit and other)`);
        assert.ok(mine.filter(([k]) => k.startsWith('sqlserver_os_wait_count_total{')).length <= SERIES_LIMITS.waits + 1);
        assert.ok(mine.filter(([k]) => k.startsWith('sqlserver_latch_wait_count_total{')).length <= SERIES_LIMITS.latches + 1);
      }
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
      await metrics.shutdown();
    }
  });
});
