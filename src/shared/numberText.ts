// Whole numbers with thousands separators, as toLocaleString('en-US') writes them, without ICU: the first
// toLocaleString call in a webview builds a number formatter (about 9 ms, measured on the panel's first draw).

/** n rounded, grouped by commas: 1234567.8 -> "1,234,568". */
export function thousands(n: number): string {
  const r = Math.round(n);
  if (!Number.isFinite(r) || Math.abs(r) >= 1e21) return r.toLocaleString('en-US');
  return String(r).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** A short number for tables and prose: 3 significant digits, thousands separated (12,308; 41.7; 0.092). */
export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  return plainNumber(v, Math.abs(v) >= 1 ? 3 : 2);
}

/**
 * `digits` significant digits, whole numbers from 1,000 up grouped by thousands, trailing zeros dropped, and never
 * an exponent (String(7.3e-7) is "7.3e-7"; this gives "0.00000073").
 */
export function plainNumber(v: number, digits = 3): string {
  if (!Number.isFinite(v)) return String(v);
  const abs = Math.abs(v);
  if (abs === 0) return '0';
  if (abs >= 1000) return thousands(v);
  const decimals = Math.min(20, Math.max(0, digits - 1 - Math.floor(Math.log10(abs))));
  const text = v.toFixed(decimals);
  if (Math.abs(Number(text)) >= 1000) return thousands(v);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/**
 * A figure as every view prints it (the terminal, the notebook, the panel), so the same run reads the same
 * everywhere: formatNumber's text, and '-' for a figure with no value (no sample, or one that does not apply).
 */
export function figureText(v: number | null | undefined): string {
  return v === null || v === undefined || !Number.isFinite(v) ? '-' : formatNumber(v);
}

/**
 * A ratio as every view says one: "1.1x", "4.4x", "18,126x"; "unbounded" for an end the data cannot close, "n/a"
 * for none (never "Infinityx" or "NaNx").
 */
export function ratioText(v: number | null | undefined): string {
  if (v === null || v === undefined || Number.isNaN(v)) return 'n/a';
  if (v === Infinity) return 'unbounded';
  if (!Number.isFinite(v)) return 'n/a';
  return `${Math.abs(v) >= 10 ? thousands(v) : v.toPrecision(2)}x`;
}

/** Below this a bare count reads as a row of zeros ("0.00000083"): it is written in scientific form. */
const TINY = 1e-3;

/** A count in scientific form when tiny (8.3e-7), else as formatNumber; "unbounded" for Infinity, "n/a" for NaN. */
export function scaledNumber(v: number): string {
  if (Number.isNaN(v)) return 'n/a';
  if (v === Infinity) return 'unbounded';
  if (!Number.isFinite(v)) return 'n/a';
  const a = Math.abs(v);
  if (a === 0 || a >= TINY) return formatNumber(v);
  const [m, e] = v.toExponential(1).split('e');
  return `${m.replace(/\.0$/, '')}e${Number(e)}`;
}
