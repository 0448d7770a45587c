// A run notices when its conditions changed under it: the knobs are read back after each run and compared with what
// the arm set (another connection may have changed delayed durability or affinity), and the experiment's session
// checks that it still holds its locks (a lost connection releases them, and the pool opens a new one silently).
import type { DbSession } from '../db/client';
import type { KnobState } from '../shared/experiment';
import { formatCpuRanges } from '../shared/affinity';
import { holdsLock, type LockRequest } from './labLock';

function affinityText(a: KnobState['affinity']): string {
  return a.type === 'AUTO' ? 'AUTO' : `CPUs ${formatCpuRanges(a.cpus)}`;
}

/** What changed between `expected` and `now`, in words; null when nothing did. */
export function knobDrift(expected: KnobState, now: KnobState, labDatabase: string): string | null {
  const changes: string[] = [];
  if (expected.delayedDurability !== now.delayedDurability) {
    changes.push(
      `delayed durability on [${labDatabase}] is ${now.delayedDurability ?? 'unknown'}, not ${expected.delayedDurability ?? 'unknown'}`,
    );
  }
  const same =
    expected.affinity.type === now.affinity.type &&
    expected.affinity.cpus.length === now.affinity.cpus.length &&
    expected.affinity.cpus.every((c, i) => c === now.affinity.cpus[i]);
  if (!same) changes.push(`process affinity is ${affinityText(now.affinity)}, not ${affinityText(expected.affinity)}`);
  return changes.length ? `another connection changed the server's settings during the run: ${changes.join('; ')}.` : null;
}

/** The locks this session no longer holds, in words; null when it holds them all. */
export async function lockLost(session: DbSession, locks: LockRequest[]): Promise<string | null> {
  const lost: string[] = [];
  for (const l of locks) if (!(await holdsLock(session, l.resource))) lost.push(l.what);
  return lost.length
    ? `the experiment's connection was lost during the run, and with it its lock on ${lost.join(' and ')}: another experiment may have started.`
    : null;
}

/**
 * The drift after a run, or why it cannot be checked: a server that went away cannot say its settings held, and the
 * run (kept, with its samples) is not counted as a measurement of them.
 */
export async function runDrift(
  session: DbSession,
  expected: KnobState,
  labDatabase: string,
  locks: LockRequest[],
  read: (s: DbSession, db: string) => Promise<KnobState>,
): Promise<string | null> {
  try {
    return knobDrift(expected, await read(session, labDatabase), labDatabase) ?? (await lockLost(session, locks));
  } catch (err) {
    return `the server's settings could not be read back after the run (${(err as Error).message}), so it cannot be shown they held.`;
  }
}
