// An inner or left join ON one equality of a column of each side, as SQL Server runs it on a big input: a hash join
// (the right side bucketed by its key once). query.ts's nested loop takes every other ON. Also the row identity the
// executor's DISTINCT, GROUP BY, set operators and hash buckets share.
import type { Value } from '../../tds/contract';
import type { TableRef } from './ast';
import { evaluate, type Env, type ExecContext, type Source } from './env';

export interface Joined {
  sources: Source[];
  rows: Value[][][];
}

/** A row's identity for DISTINCT, GROUP BY and the set operators: strings case-insensitive, trailing blanks ignored. */
export function keyOf(vals: Value[]): string {
  return JSON.stringify(
    vals.map((v) =>
      v === null
        ? '\u0000'
        : typeof v === 'string'
          ? `s${v.replace(/ +$/, '').toLowerCase()}`
          : Buffer.isBuffer(v)
            ? `b${v.toString('hex')}`
            : v instanceof Date
              ? `d${v.getTime()}`
              : `n${typeof v === 'boolean' ? Number(v) : String(v)}`,
    ),
  );
}

/** Whether a column qualifier names one of these sources (its alias, or its table's last name part without one). */
function names(sources: readonly Source[], qual: string): boolean {
  return sources.some((s) => s.alias === qual || (s.alias === '' && s.table.split('.').pop() === qual));
}

/**
 * An inner or left join ON one equality of a column of each side (`s.session_id = r.session_id`), as SQL Server
 * runs it with a hash join: the right side's rows bucketed by their key once, each left row meeting only its bucket
 * (a NULL key meets none, as `=` is never true with NULL). Returns the bucket lookup, or null for any other ON, which
 * the nested loop below evaluates row by row. Rows read are the same either way; only the pairs tried differ.
 */
export function hashJoin(
  ctx: ExecContext,
  ref: Extract<TableRef, { kind: 'join' }>,
  l: Joined,
  r: Joined,
  outer: Env | undefined,
  typing: boolean,
): ((left: Value[][]) => Value[][][] | undefined) | null {
  const on = ref.on;
  if (typing || !on || on.t !== 'bin' || on.op !== '=' || on.a.t !== 'col' || on.b.t !== 'col') return null;
  if (!on.a.qual || !on.b.qual) return null;
  const [qa, qb] = [on.a.qual.toLowerCase(), on.b.qual.toLowerCase()];
  const side = (q: string) => (names(l.sources, q) && !names(r.sources, q) ? 'l' : names(r.sources, q) && !names(l.sources, q) ? 'r' : '');
  const [sa, sb] = [side(qa), side(qb)];
  if (!sa || !sb || sa === sb) return null;
  const [leftKey, rightKey] = sa === 'l' ? [on.a, on.b] : [on.b, on.a];
  const buckets = new Map<string, Value[][][]>();
  for (const b of r.rows) {
    const v = evaluate({ ctx, sources: r.sources, row: b, outer, typing }, rightKey).v;
    if (v === null) continue;
    const k = keyOf([v]);
    const list = buckets.get(k);
    if (list) list.push(b);
    else buckets.set(k, [b]);
  }
  return (a) => {
    const v = evaluate({ ctx, sources: l.sources, row: a, outer, typing }, leftKey).v;
    return v === null ? undefined : buckets.get(keyOf([v]));
  };
}
