// The objective's spinlock checked against the spinlocks this server lists (sys.dm_os_spinlock_stats lists every type,
// spun on or not), once connected and before any knob moves or lock is taken: a name the server does not have would
// read 0 spins per row in every trial, and the search would move server-wide affinity for nothing and name a winner.
import type { DbSession } from '../../db/client';
import { str } from '../../db/rows';
import { nearestOf } from '../../shared/names';
import type { TuneObjective } from '../../shared/tune';
import { TuneRefusal } from './refusal';

/** The spinlock names the server lists, or null when this login cannot read them (the run's own check says why). */
async function serverSpinlocks(db: DbSession): Promise<string[] | null> {
  try {
    const [rows = []] = await db.runFile('server/spinlock-names');
    return rows.map((r) => str(r.name));
  } catch {
    return null;
  }
}

/** The objective with the spinlock spelled as the server spells it; a user-input error when the server has none such. */
export async function checkObjective(db: DbSession, o: TuneObjective): Promise<TuneObjective> {
  if (o.kind !== 'spins-per-row') return o;
  const names = await serverSpinlocks(db);
  if (!names || !names.length) return o;
  const spelled = names.find((n) => n.toUpperCase() === o.spinlock.toUpperCase());
  if (spelled) return { ...o, spinlock: spelled };
  const near = nearestOf(o.spinlock, names);
  throw new TuneRefusal(
    { kind: 'unknown-spinlock', spinlock: o.spinlock, near, listed: names.length },
    `The objective spins-per-row:${o.spinlock}: this server has no spinlock named ${o.spinlock} (sys.dm_os_spinlock_stats lists ${names.length} types)${near ? `; did you mean ${near}?` : '.'} ` +
      'Every trial would read 0 spins per row and the search would name a winner on nothing; nothing was changed.',
    `name a spinlock as the server lists it${near ? `, e.g. spins-per-row:${near}` : ''} (spinlab watch shows the busiest), or tune for throughput or p99.`,
  );
}
