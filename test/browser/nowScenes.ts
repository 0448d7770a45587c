// The Now view's updates as the host builds them (shared nowWords.ts over a fed NowHistory), for the browser tests
// (no tests here): the first read, an hour of a steady server then a hot minute, and a quiet server.
import { NowHistory, type NowTick } from '../../src/shared/nowHistory';
import { buildNowView } from '../../src/shared/nowWords';
import type { NowView } from '../../src/shared/nowMessages';

const T0 = Date.UTC(2026, 11, 8, 9, 0, 0);

function tick(spins: Record<string, number>, waits: Record<string, number>, latches: Record<string, number>, cpu = 40): NowTick {
  return {
    intervalMs: 1000,
    spinlocks: Object.fromEntries(
      Object.entries(spins).map(([n, v]) => [n, { spins: v, collisions: v / 50, backoffs: v / 400, sleepTime: 0 }]),
    ),
    waits: Object.fromEntries(Object.entries(waits).map(([n, v]) => [n, { waitMs: v, count: 20, signalMs: 1 }])),
    latches: Object.fromEntries(Object.entries(latches).map(([n, v]) => [n, { waitMs: v, count: 4 }])),
    cpuByNode: { '0': cpu, '1': 35 },
  };
}

/** An hour of a steady server, then a minute of LOGCACHE_ACCESS at 4x with WRITELOG waits. */
export function hotView(): NowView {
  const h = new NowHistory();
  let t = T0;
  for (let i = 0; i < 3600; i++)
    h.add(
      (t += 1000),
      tick({ LOGCACHE_ACCESS: 300_000, LOCK_HASH: 2_000 }, { WRITELOG: 40, PAGEIOLATCH_SH: 3 }, { ACCESS_METHODS_DATASET_PARENT: 2 }),
    );
  for (let i = 0; i < 60; i++)
    h.add(
      (t += 1000),
      tick(
        { LOGCACHE_ACCESS: 1_200_000, XDESMGR: 150_000, LOCK_HASH: 2_100 },
        { WRITELOG: 450, PAGEIOLATCH_SH: 3, SLEEP_TASK: 900 },
        { ACCESS_METHODS_DATASET_PARENT: 2 },
        93,
      ),
    );
  return buildNowView(h.figures(t), { serverName: 'sql-prod-01', logWriterNode: 0, now: t });
}

export function quietView(): NowView {
  const h = new NowHistory();
  let t = T0;
  for (let i = 0; i < 60; i++) h.add((t += 1000), tick({ SOS_SUSPEND_QUEUE: 900 }, { WRITELOG: 2 }, {}));
  return buildNowView(h.figures(t), { serverName: 'sql-prod-01', logWriterNode: 0, now: t });
}

export const firstRead = (): NowView =>
  buildNowView(new NowHistory().figures(T0), { serverName: 'sql-prod-01', logWriterNode: 0, now: T0 });
