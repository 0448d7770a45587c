// The run's own sessions read beside each monitor tick (sql/workload/session-share.sql), on the monitor's connection
// right after the tick's own read, so a run can say what share of the server's CPU and waits was its own. A failed
// read costs only the share (the tick stands) and is said once.
import type { DbSession } from '../../db/client';
import { num, str } from '../../db/rows';
import type { OwnReading } from '../../shared/ownShare';
import type { RawSample } from '../../shared/types';

export async function readOwnShare(db: DbSession, ids: readonly number[]): Promise<OwnReading> {
  const [[row] = [], waits = []] = await db.runFile('workload/session-share', { ids: `,${ids.join(',')},` });
  const w: Record<string, number> = {};
  for (const r of waits) w[str(r.wait_type)] = num(r.wait_time_ms);
  return { cpuMs: num(row?.sessions_cpu_ms) + num(row?.running_cpu_ms), waits: w, otherRequests: num(row?.other_requests) };
}

/** A tick's read followed by the sessions' share; the sample's `own` is null when the share could not be read. */
export function withOwnShare(
  read: (db: DbSession) => Promise<RawSample>,
  ids: () => readonly number[],
  onProblem: (message: string) => void,
): (db: DbSession) => Promise<RawSample> {
  let said = false;
  return async (db) => {
    const sample = await read(db);
    const known = ids().filter((x) => x > 0);
    if (!known.length) return sample;
    try {
      sample.own = await readOwnShare(db, known);
    } catch (err) {
      sample.own = null;
      if (!said)
        onProblem(
          `the workload sessions' own share of the server's work could not be read (${(err as Error).message}); the run's figures stand, server-wide`,
        );
      said = true;
    }
    return sample;
  };
}
