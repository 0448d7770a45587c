// One text per kind of quantity, chosen by the figure's unit, so the same figure reads the same in every view:
// durations in ns, µs, ms or s; bytes in B, KB, MB or GB (and /s for rates); counts grouped by thousands; changes and
// shares in %. Never scientific notation: 7.3e-7 s is "730 ns", 0.0000029 ms is "2.9 ns".
import { formatNumber, plainNumber, scaledNumber, thousands } from './numberText';

export type QuantityKind = 'duration' | 'bytes' | 'percent' | 'count';

/** Seconds in one of each duration unit the figures use. */
const SECONDS: Readonly<Record<string, number>> = { ns: 1e-9, µs: 1e-6, us: 1e-6, ms: 1e-3, s: 1 };
const BYTES = new Set(['B', 'byte', 'bytes']);

/** The base of a unit (before its first "/") and what it is per: "ms/row" -> ms per row; "/s" -> a count per second. */
export function splitUnit(unit: string): { base: string; per: string } {
  const i = unit.indexOf('/');
  return i < 0 ? { base: unit.trim(), per: '' } : { base: unit.slice(0, i).trim(), per: unit.slice(i + 1).trim() };
}

export function quantityKind(unit: string): QuantityKind {
  const { base, per } = splitUnit(unit);
  // Time per second of time ("wait ms/s") is a rate read in its own unit, like a count: 500 ms/s, never "0.5 s/s".
  if (base in SECONDS && per !== 's') return 'duration';
  if (BYTES.has(base)) return 'bytes';
  if (base === '%') return 'percent';
  return 'count';
}

/** A duration given in `unit` (ns, µs, us, ms or s), in the unit that reads best: 0.0000029 ms -> "2.9 ns". */
export function durationText(v: number, unit = 'ms'): string {
  if (!Number.isFinite(v)) return '-';
  if (v === 0) return `0 ${unit === 'us' ? 'µs' : unit}`;
  const s = v * (SECONDS[unit] ?? 1e-3);
  const a = Math.abs(s);
  if (a >= 1) return `${plainNumber(s)} s`;
  if (a >= 1e-3) return `${plainNumber(s * 1e3)} ms`;
  if (a >= 1e-6) return `${plainNumber(s * 1e6)} µs`;
  return `${plainNumber(s * 1e9)} ns`;
}

/** Bytes in binary multiples, as Windows and SQL Server name them: 1536 -> "1.5 KB". */
export function bytesText(v: number): string {
  if (!Number.isFinite(v)) return '-';
  const a = Math.abs(v);
  const steps: [number, string][] = [
    [1024 ** 4, 'TB'],
    [1024 ** 3, 'GB'],
    [1024 ** 2, 'MB'],
    [1024, 'KB'],
  ];
  for (const [size, name] of steps) if (a >= size * 0.9995) return `${plainNumber(v / size)} ${name}`;
  return `${plainNumber(v)} B`;
}

/** A count as every view prints one (formatNumber): grouped by thousands, 3 significant digits (2 below 1). */
export function countText(v: number): string {
  return Number.isFinite(v) ? formatNumber(v) : '-';
}

/** A percentage (already times 100), as the A/B tables write one: 1 decimal, thousands grouped (4.2%, 14,722,577%). */
export function percentText(pct: number): string {
  if (!Number.isFinite(pct)) return '-';
  return `${Math.abs(pct) >= 1000 ? thousands(pct) : pct.toFixed(1)}%`;
}

/** A change in %, signed: "+4.2%", "-38%". */
export function changeText(pct: number): string {
  if (!Number.isFinite(pct)) return '-';
  return `${pct > 0 ? '+' : pct < 0 ? '-' : ''}${percentText(Math.abs(pct))}`;
}

/**
 * A figure with its unit, by the unit's kind: ("ms/row", 0.0000029) -> "2.9 ns/row", ("bytes/s", 1536) -> "1.5 KB/s",
 * ("spins/row", 8281) -> "8,281 spins/row", ("", 3) -> "3". inTable: the column or row header names the quantity and
 * what it is per ("XDESMGR spins per row", "CPU per row"), so the cell says only what the header cannot: the duration's
 * or size's own unit ("2.9 µs", "1.5 KB"), a bare count ("8,281").
 */
export function quantityText(v: number | null | undefined, unit: string, o: { inTable?: boolean } = {}): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '-';
  const { base, per } = splitUnit(unit);
  const tail = per && !o.inTable ? `/${per}` : '';
  switch (quantityKind(unit)) {
    case 'duration':
      return `${durationText(v, base)}${tail}`;
    case 'bytes':
      return `${bytesText(v)}${tail}`;
    case 'percent':
      return percentText(v);
    default:
      return base && !o.inTable ? `${countText(v)} ${base}${tail}` : `${countText(v)}${tail}`;
  }
}

/** A figure's name when its cells carry a time unit: "WRITELOG wait ms per row" reads "WRITELOG wait time per row". */
export function timeLabel(label: string): string {
  return label.replace(/ ms per (row|wait)$/, ' time per $1');
}

/** The unit a duration in `unit` reads best in, from its magnitude: [name, factor from `unit`]. */
function durationScale(v: number, unit: string): [string, number] {
  const s = Math.abs(v) * (SECONDS[unit] ?? 1e-3);
  const to = s >= 1 ? 's' : s >= 1e-3 ? 'ms' : s >= 1e-6 ? 'µs' : 'ns';
  return [to, (SECONDS[unit] ?? 1e-3) / SECONDS[to]];
}

/** Bytes' binary multiple for a magnitude: [name, divisor]. */
function bytesScale(v: number): [string, number] {
  const a = Math.abs(v);
  for (const [size, name] of [
    [1024 ** 4, 'TB'],
    [1024 ** 3, 'GB'],
    [1024 ** 2, 'MB'],
    [1024, 'KB'],
  ] as const)
    if (a >= size * 0.9995) return [name, size];
  return ['B', 1];
}

/**
 * A point and its interval with one unit, the point's: "1.85 ns [0 ns, 9.79 ns]" (never "[0 ms, 9.79 ns]"), "1.5 KB
 * [1.2 KB, 1.9 KB]", a tiny count "8.3e-7 [3.2e-7, 2.1e-6]"; an end the data cannot close is "unbounded". The unit and
 * inTable as quantityText takes them.
 */
export function intervalText(
  value: number,
  interval: { low: number; high: number } | null,
  unit: string,
  o: { inTable?: boolean } = {},
): string {
  if (!Number.isFinite(value)) return '-';
  const { base, per } = splitUnit(unit);
  const tail = per && !o.inTable ? `/${per}` : '';
  // A zero point takes its unit from the interval's far end, so "0 [0, 9.8 ns]" is not written in ms.
  const magnitude = value !== 0 ? value : Math.max(...[interval?.low ?? 0, interval?.high ?? 0].filter(Number.isFinite).map(Math.abs));
  let one: (v: number) => string;
  switch (quantityKind(unit)) {
    case 'duration': {
      const [name, f] = durationScale(magnitude, base);
      one = (v) => `${plainNumber(v * f)} ${name}`;
      break;
    }
    case 'bytes': {
      const [name, size] = bytesScale(magnitude);
      one = (v) => `${plainNumber(v / size)} ${name}`;
      break;
    }
    case 'percent':
      one = percentText;
      break;
    default:
      one = scaledNumber;
  }
  const end = (v: number) => (v === Infinity ? 'unbounded' : Number.isFinite(v) ? one(v) : 'n/a');
  const countUnit = quantityKind(unit) === 'count' && base && !o.inTable ? ` ${base}` : '';
  const point = `${one(value)}${countUnit}${tail}`;
  return interval ? `${point} [${end(interval.low)}, ${end(interval.high)}]` : point;
}
