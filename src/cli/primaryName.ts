// `compare --primary NAME.figure`: the name checked against what the two experiments recorded, before any verdict. A
// spinlock, wait or latch neither recorded reads 0 on both sides, and the verdict would rest on nothing.
import type { Experiment } from '../shared/experiment';
import { knownLatch, knownName, nearestOf } from '../shared/names';
import { UsageError } from './commands';

type Family = 'spinlocks' | 'waits' | 'latches';
const FAMILY: Record<string, { family: Family; what: string }> = {
  spinsPerRow: { family: 'spinlocks', what: 'spinlock' },
  backoffsPerRow: { family: 'spinlocks', what: 'spinlock' },
  waitMsPerRow: { family: 'waits', what: 'wait type' },
  latchMsPerRow: { family: 'latches', what: 'latch class' },
};
const SUFFIX: Record<Family, string> = { spinlocks: 'spins_per_row', waits: 'wait_ms_per_row', latches: 'latch_ms_per_row' };

function recorded(experiments: readonly Experiment[], family: Family): string[] {
  const names = new Set<string>();
  for (const e of experiments) for (const r of e.runs) for (const n of Object.keys(r.totals?.[family] ?? {})) names.add(n);
  return [...names];
}

/**
 * The primary key with its name spelled as the experiments recorded it (`spinsPerRow:LOGCACHE_ACCESS`); a usage error
 * when neither recorded it, naming the nearest name or the family it belongs to.
 */
export function checkedPrimary(key: string, typed: string, experiments: readonly Experiment[]): string {
  const colon = key.indexOf(':');
  if (colon < 0) return key;
  const f = FAMILY[key.slice(0, colon)];
  if (!f) return key;
  const name = key.slice(colon + 1);
  const spelled = recorded(experiments, f.family).find((n) => n.toUpperCase() === name);
  if (spelled) return `${key.slice(0, colon)}:${spelled}`;
  // Another family's name: say which figure it has.
  for (const other of ['spinlocks', 'waits', 'latches'] as const) {
    if (other === f.family) continue;
    const hit = recorded(experiments, other).find((n) => n.toUpperCase() === name);
    const known =
      hit ?? (other === 'spinlocks' ? knownName('spinlock', name) : other === 'waits' ? knownName('wait', name) : knownLatch(name));
    if (known)
      throw new UsageError(
        `--primary ${typed}: ${known} is a ${other === 'spinlocks' ? 'spinlock' : other === 'waits' ? 'wait type' : 'latch class'}, not a ${f.what}: write --primary ${known}.${SUFFIX[other]}.`,
      );
  }
  const near = nearestOf(name, recorded(experiments, f.family));
  throw new UsageError(
    `--primary ${typed}: neither experiment recorded a ${f.what} named ${name}, so it reads 0 on both sides and no verdict could rest on it` +
      `${near ? `; did you mean ${near}.${typed.slice(typed.lastIndexOf('.') + 1)}?` : '.'}`,
  );
}
