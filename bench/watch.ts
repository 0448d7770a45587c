// spinlab watch: bytes per tick on the wire (both directions, through the counting proxy) and the round trip, at the
// simulator with its own background workload (--background disk-insert:8). Run: node out/bench/watch.js [ticks] [delta|full].
// Figures against the simulator on loopback: what the tick sends and gets back, not SQL Server's CPU.
import { DbSession } from '../src/db/client';
import { targetFromArgs } from '../src/cli/commands';
import { DeltaReader, WATCH_LAYOUT } from '../src/engine/snapshot';
import { startSimulator } from '../tools/sim/simulator';
import { startCountingProxy } from './wire';
import { median, percentile } from './stats';

export interface WatchWireFigures {
  way: 'delta' | 'full';
  ticks: number;
  bytesSent: number;
  bytesReceived: number;
  rttP50Ms: number;
  rttP99Ms: number;
}

/** delta: what spinlab watch sends (tick-delta.sql prepared once, only moved rows back); full: --full-ticks. */
export async function benchWatchWire(
  ticks = 30,
  way: 'delta' | 'full' = 'delta',
  topRequests = 10,
  textChars = 100,
): Promise<WatchWireFigures> {
  const sim = await startSimulator({ background: [{ scenario: 'disk-insert', sessions: 8 }], log: () => undefined });
  const proxy = await startCountingProxy(sim.port);
  const db = await DbSession.open(targetFromArgs(`Server=127.0.0.1,${proxy.port};User ID=sa;Password=${sim.password};Encrypt=false`, {}), {
    database: 'master',
  });
  const sent: number[] = [],
    received: number[] = [],
    rtt: number[] = [];
  const reader = new DeltaReader('watch/tick-delta', WATCH_LAYOUT, 'watch/tick', (m) => {
    throw new Error(m);
  });
  const params = { top_requests: topRequests, text_chars: textChars };
  try {
    for (let i = 0; i <= ticks; i++) {
      const s0 = proxy.sent,
        r0 = proxy.received,
        t0 = performance.now();
      if (way === 'full') await db.runFile('watch/tick', params);
      else await reader.read(db, params);
      if (i === 0) continue; // the first carries the connection's first request (and the delta's setup and prepare)
      rtt.push(performance.now() - t0);
      sent.push(proxy.sent - s0);
      received.push(proxy.received - r0);
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    await db.close();
    await proxy.close();
    await sim.close();
  }
  return { way, ticks, bytesSent: median(sent), bytesReceived: median(received), rttP50Ms: median(rtt), rttP99Ms: percentile(rtt, 99) };
}

if (require.main === module) {
  const way = process.argv[3] === 'full' ? 'full' : 'delta';
  benchWatchWire(Number(process.argv[2] ?? 30), way).then(
    (f) => {
      process.stdout.write(
        `watch tick (${f.way}), ${f.ticks} ticks, --background disk-insert:8: ${(f.bytesSent / 1024).toFixed(1)} KiB sent, ${(f.bytesReceived / 1024).toFixed(1)} KiB received per tick (median); round trip p50 ${f.rttP50Ms.toFixed(1)} ms, p99 ${f.rttP99Ms.toFixed(1)} ms\n`,
      );
    },
    (e) => {
      process.stderr.write(`${(e as Error).message}\n`);
      process.exit(1);
    },
  );
}
