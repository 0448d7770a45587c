// Number formats for axes, tooltips and status lines.
import { thousands } from '../../shared/numberText';

/** Axis ticks: 950, 12k, 1.2M, 3.4G; small values to 2 significant digits. */
export function shortNumber(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e9) return `${trim(v / 1e9)}G`;
  if (a >= 1e6) return `${trim(v / 1e6)}M`;
  if (a >= 1e4) return `${trim(v / 1e3)}k`;
  if (a >= 100 || a === 0) return String(Math.round(v));
  return String(Number(v.toPrecision(2)));
}

function trim(v: number): string {
  return String(Number(v.toPrecision(3)));
}

/** Tooltips: grouped whole numbers above 100, 3 significant digits below. */
export function exactNumber(v: number): string {
  if (!Number.isFinite(v)) return '–';
  if (Math.abs(v) >= 100) return thousands(v);
  return String(Number(v.toPrecision(3)));
}

/** 75 -> '1:15', 3725 -> '1:02:05'. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** JSON with sorted keys, to compare two objects regardless of key order. */
export function stableJson(v: unknown): string {
  return JSON.stringify(v, (_k, val: unknown) =>
    val && typeof val === 'object' && !Array.isArray(val)
      ? Object.fromEntries(Object.entries(val as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : val,
  );
}
