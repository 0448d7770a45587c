// Whole numbers with thousands separators, as toLocaleString('en-US') writes them, without ICU: the first
// toLocaleString call in a webview builds a number formatter (about 9 ms, measured on the panel's first draw).

/** n rounded, grouped by commas: 1234567.8 -> "1,234,568". */
export function thousands(n: number): string {
  const r = Math.round(n);
  if (!Number.isFinite(r) || Math.abs(r) >= 1e21) return r.toLocaleString('en-US');
  return String(r).replace(/\B(?=(\d{3})+$)/g, ',');
}
