// Is anyone else working on this server? A tune changes server-wide affinity (every session on the server feels it)
// and compares trials whose differences other work would blur, so it looks first: two read-only ticks of the watch's
// query a moment apart give the server's batch requests per second (its own two batches taken out) and the requests
// other user sessions are running.
import type { DbSession } from '../../db/client';
import { computeWatchTick, parseWatchSample } from '../watch/tick';

/** Another session's work that counts as "busy": any running request, or more batches than a monitor's trickle. */
export const BUSY_BATCHES_PER_SEC = 5;

export interface OtherActivity {
  batchRequestsPerSec: number;
  sessions: number;
}

export async function otherActivity(db: DbSession, gapMs = 2000): Promise<OtherActivity | null> {
  const params = { top_requests: 50, text_chars: 100 };
  const first = parseWatchSample(await db.runFile('watch/tick', params), Date.now());
  await new Promise((r) => setTimeout(r, gapMs));
  const second = parseWatchSample(await db.runFile('watch/tick', params), Date.now());
  const t = computeWatchTick(first, second, { startMsTicks: first.raw.msTicks, topN: 5, nodeOfScheduler: new Map() });
  if (t.kind !== 'tick') return null;
  const seconds = Math.max(0.001, t.tick.intervalMs / 1000);
  // This check's own batch (the second tick) is in the counter's delta.
  const batches = Math.max(0, t.tick.batchRequestsPerSec - 1 / seconds);
  return { batchRequestsPerSec: batches, sessions: new Set(t.tick.requests.map((r) => r.sessionId)).size };
}

export function isBusy(a: OtherActivity | null): boolean {
  return !!a && (a.sessions > 0 || a.batchRequestsPerSec > BUSY_BATCHES_PER_SEC);
}
