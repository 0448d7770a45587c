// The spinlock and wait names Spinlock Lab knows, for checking what a person typed before anything connects: a gate or
// a capture on a misspelt name would otherwise read 0 (the DMVs simply have no such row) and pass. Lookups ignore
// case and return the catalogue's spelling; an unknown name gets the closest known one as a suggestion.
import { isBenignWait } from '../benign';
import { KNOWN_SPINLOCKS } from './spinlocks';
import { KNOWN_WAITS } from './waits';
import { KNOWN_LATCHES } from './latches';

export type NameKind = 'spinlock' | 'wait';

const index = (names: readonly string[]) => new Map(names.map((n) => [n.toUpperCase(), n]));
const CATALOGUE: Record<NameKind, Map<string, string>> = { spinlock: index(KNOWN_SPINLOCKS), wait: index(KNOWN_WAITS) };
const LATCHES = index(KNOWN_LATCHES);
const VIEW: Record<NameKind, string> = { spinlock: 'sys.dm_os_spinlock_stats', wait: 'sys.dm_os_wait_stats' };

/** The catalogue's spelling of `name` (any case), or null when Spinlock Lab does not know it. */
export function knownName(kind: NameKind, name: string): string | null {
  return CATALOGUE[kind].get(name.toUpperCase()) ?? null;
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/** The known name nearest to `name`, when it is near enough to be a typo (a third of its letters at most). */
export function closestName(kind: NameKind, name: string): string | null {
  return nearestOf(name, CATALOGUE[kind].values());
}

/** Of `names` (a server's own list, say), the one nearest to `name` when it is near enough to be a typo. */
export function nearestOf(name: string, names: Iterable<string>): string | null {
  const upper = name.toUpperCase();
  let best: { name: string; d: number } | null = null;
  for (const spelled of names) {
    const d = distance(upper, spelled.toUpperCase());
    if (!best || d < best.d) best = { name: spelled, d };
  }
  return best && best.d <= Math.max(2, Math.floor(upper.length / 3)) ? best.name : null;
}

/** What `name` is when it was typed as a spinlock but is a wait type or a latch class (and no spinlock), else null. */
export function notASpinlock(name: string): { name: string; kind: 'wait type' | 'latch class'; view: string } | null {
  if (knownName('spinlock', name)) return null;
  const wait = knownName('wait', name);
  if (wait) return { name: wait, kind: 'wait type', view: 'sys.dm_os_wait_stats' };
  const latch = knownLatch(name);
  return latch ? { name: latch, kind: 'latch class', view: 'sys.dm_os_latch_stats' } : null;
}

/** A latch class as sys.dm_os_latch_stats names it (any case), or null when Spinlock Lab does not know it. */
export function knownLatch(name: string): string | null {
  return LATCHES.get(name.toUpperCase()) ?? null;
}

/**
 * Why `name` cannot be used as a `kind` here, or null when it can. `what` says where it was typed (for the message);
 * `anyName` accepts a well-formed name the catalogue lacks (a newer version's, say).
 */
export function nameProblem(kind: NameKind, name: string, what: string, anyName: boolean): string | null {
  if (knownName(kind, name)) return null;
  const other: NameKind = kind === 'spinlock' ? 'wait' : 'spinlock';
  const otherName = knownName(other, name);
  if (otherName) {
    return (
      `${what}: ${otherName} is a ${other === 'wait' ? 'wait type' : 'spinlock'}, not a ${kind === 'wait' ? 'wait type' : 'spinlock'}` +
      (other === 'wait'
        ? ` (gate its time with ${otherName}.wait_ms_per_row).`
        : ` (gate it with ${otherName}.spins_per_row or ${otherName}.backoffs_per_row).`)
    );
  }
  if (anyName) return null;
  const near = closestName(kind, name);
  return (
    `${what}: ${name} is not a ${kind === 'wait' ? 'wait type' : 'spinlock'} Spinlock Lab knows${near ? `; did you mean ${near}?` : '.'}` +
    ` A name ${VIEW[kind]} does not list reads 0 and would pass unnoticed. If your server has it (names differ between versions), add --any-name.`
  );
}

/** A wait the per-row figures leave out (benign), so a gate on it would always read 0. */
export function benignWaitProblem(name: string, what: string): string | null {
  const spelled = knownName('wait', name) ?? name.toUpperCase();
  return isBenignWait(spelled)
    ? `${what}: ${spelled} is an idle or background wait that Spinlock Lab leaves out of the per-row figures, so the gate would always read 0; gate a wait of the workload instead (e.g. WRITELOG.wait_ms_per_row).`
    : null;
}
