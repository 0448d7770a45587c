// Value conversions shared by the encoder and the decoder: dates, decimals, GUIDs, code page 1252.

import { UnsupportedError } from './protocol';

export const DAY_MS = 86_400_000;
/** 1900-01-01T00:00:00Z, the datetime epoch. */
export const EPOCH_1900 = -2_208_988_800_000;
/** 0001-01-01T00:00:00Z, the date/datetime2 epoch. */
export const EPOCH_0001 = -62_135_596_800_000;

export function toDate(v: unknown): Date {
  if (v instanceof Date) return v;
  if (typeof v === 'string' || typeof v === 'number') {
    const d = new Date(v);
    if (!Number.isNaN(d.getTime())) return d;
  }
  throw new UnsupportedError(`not a date: ${String(v)}`);
}

/** datetime: days since 1900-01-01 and 1/300-second ticks since midnight (SQL Server rounds to .000/.003/.007). */
export function datetimeParts(d: Date): [number, number] {
  const rel = d.getTime() - EPOCH_1900;
  let days = Math.floor(rel / DAY_MS);
  let ticks = Math.round(((rel - days * DAY_MS) * 300) / 1000);
  if (ticks >= 300 * 86400) {
    days++;
    ticks = 0;
  }
  return [days, ticks];
}

export function datetimeFromParts(days: number, ticks: number): Date {
  return new Date(EPOCH_1900 + days * DAY_MS + Math.round((ticks * 1000) / 300));
}

const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7];

/** Byte length of a datetime2/time time part for a scale. */
export function timeBytes(scale: number): number {
  return scale <= 2 ? 3 : scale <= 4 ? 4 : 5;
}

/** datetime2(scale): [time units of 10^-scale s since midnight, days since 0001-01-01]. */
export function datetime2Parts(d: Date, scale: number): [number, number] {
  const rel = d.getTime() - EPOCH_0001;
  let days = Math.floor(rel / DAY_MS);
  const msOfDay = rel - days * DAY_MS;
  let units = scale >= 3 ? msOfDay * POW10[scale - 3] : Math.round(msOfDay / POW10[3 - scale]);
  if (units >= 86400 * POW10[scale]) {
    days++;
    units = 0;
  }
  return [units, days];
}

export function datetime2FromParts(units: number, days: number, scale: number): Date {
  const ms = scale >= 3 ? units / POW10[scale - 3] : units * POW10[3 - scale];
  return new Date(EPOCH_0001 + days * DAY_MS + Math.round(ms));
}

/** decimal value -> unscaled integer at `scale` (from a number via toFixed, from a string digit by digit). */
export function toScaledBigInt(v: unknown, scale: number): bigint {
  let s: string;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new UnsupportedError(`not a decimal: ${v}`);
    s = v.toFixed(scale);
  } else if (typeof v === 'bigint') {
    return v * 10n ** BigInt(scale);
  } else if (typeof v === 'string') {
    s = v.trim();
  } else if (typeof v === 'boolean') {
    s = v ? '1' : '0';
  } else {
    throw new UnsupportedError(`not a decimal: ${String(v)}`);
  }
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new UnsupportedError(`not a decimal: ${s}`);
  const frac = (m[3] ?? '').padEnd(scale, '0');
  let n = BigInt((m[2] || '0') + frac.slice(0, scale));
  if (frac.length > scale && frac.charCodeAt(scale) >= 53 /* '5' */) n += 1n; // round half away from zero
  return m[1] === '-' ? -n : n;
}

/** Unscaled integer -> number when exact, else the decimal string (no precision silently lost). */
export function fromScaledBigInt(n: bigint, scale: number): number | string {
  const neg = n < 0n;
  const abs = neg ? -n : n;
  if (abs <= BigInt(Number.MAX_SAFE_INTEGER)) {
    const v = Number(abs) / 10 ** scale;
    return neg ? -v : v;
  }
  const digits = abs.toString().padStart(scale + 1, '0');
  const s = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return neg ? `-${s}` : s;
}

const GUID_RE = /^\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?$/i;

/** GUID text -> the 16 wire bytes (first three groups little-endian, as SQL Server stores them). */
export function guidToBytes(s: string, out: Buffer, at: number): void {
  const m = GUID_RE.exec(s);
  if (!m) throw new UnsupportedError(`not a uniqueidentifier: ${s}`);
  const hex = m[1] + m[2] + m[3] + m[4] + m[5];
  const order = [3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15];
  for (let i = 0; i < 16; i++) out[at + i] = parseInt(hex.substr(order[i] * 2, 2), 16);
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).toUpperCase().padStart(2, '0'));

export function guidFromBytes(b: Buffer, at: number): string {
  const h = (i: number) => HEX[b[at + i]];
  return (
    h(3) +
    h(2) +
    h(1) +
    h(0) +
    '-' +
    h(5) +
    h(4) +
    '-' +
    h(7) +
    h(6) +
    '-' +
    h(8) +
    h(9) +
    '-' +
    h(10) +
    h(11) +
    h(12) +
    h(13) +
    h(14) +
    h(15)
  );
}

// Windows-1252 differs from Latin-1 only in 0x80..0x9F.
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8d, 0x017d, 0x8f, 0x90, 0x2018,
  0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x9d, 0x017e, 0x0178,
];
const CP1252_REVERSE = new Map<number, number>(CP1252_HIGH.map((cp, i) => [cp, 0x80 + i]));

export function decodeCp1252(b: Buffer, start: number, end: number): string {
  let plain = true;
  for (let i = start; i < end; i++) if (b[i] >= 0x80 && b[i] < 0xa0) plain = false;
  if (plain) return b.toString('latin1', start, end);
  let s = '';
  for (let i = start; i < end; i++) {
    const c = b[i];
    s += String.fromCharCode(c >= 0x80 && c < 0xa0 ? CP1252_HIGH[c - 0x80] : c);
  }
  return s;
}

/** Encodes into a fresh buffer; characters outside the code page become '?', as SQL Server does. */
export function encodeCp1252(s: string): Buffer {
  const out = Buffer.allocUnsafe(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out[i] = c < 0x80 || (c >= 0xa0 && c <= 0xff) ? c : (CP1252_REVERSE.get(c) ?? 0x3f);
  }
  return out;
}
