// Typed values with SQL Server's semantics where they bite: integer arithmetic that overflows raises Msg 8115 (bigint
// stays a JS bigint), strings compare case-insensitively with trailing blanks ignored (the default collation,
// SQL_Latin1_General_CP1_CI_AS), a string meeting a number converts to the number or fails with Msg 245, nchar pads.
import type { SqlType, Value } from '../../tds/contract';
import { castMore } from './castMore';
import { err, SqlError } from '../errors';
import { T } from '../types';
import type { TypeName } from './ast';

export interface Typed {
  v: Value;
  type: SqlType;
  /** A column's own name, for a result column written as a bare reference. */
  name?: string;
  nullable?: boolean;
}

const RANGE: Record<string, [number, number]> = {
  tinyint: [0, 255],
  smallint: [-32768, 32767],
  int: [-2147483648, 2147483647],
};
const BIG_MIN = -(2n ** 63n),
  BIG_MAX = 2n ** 63n - 1n;

export function fail(number: number, message: string, cls = 16, state = 1): never {
  throw new SqlError([err(number, message, cls, state)]);
}
export function overflow(type: string): never {
  fail(8115, `Arithmetic overflow error converting expression to data type ${type}.`, 16, 2);
}

// Data type precedence (docs: "Data type precedence"), highest first.
const PRECEDENCE = ['sql_variant', 'datetime2', 'datetime', 'float', 'real', 'decimal', 'bigint', 'int', 'smallint', 'tinyint', 'bit'];
const STRINGS = ['nvarchar', 'nchar', 'varchar', 'char'];
const rank = (t: SqlType): number => {
  const i = PRECEDENCE.indexOf(t.type);
  if (i >= 0) return 100 - i;
  const s = STRINGS.indexOf(t.type);
  return s >= 0 ? 50 - s : 0;
};
export const isString = (t: SqlType): boolean => STRINGS.includes(t.type);
export const isInteger = (t: SqlType): boolean => ['bigint', 'int', 'smallint', 'tinyint', 'bit'].includes(t.type);
export const isNumeric = (t: SqlType): boolean => isInteger(t) || ['decimal', 'float', 'real'].includes(t.type);

/** The type an expression of two operand types takes (the higher precedence; two strings: the wider, Unicode wins). */
export function higher(a: SqlType, b: SqlType): SqlType {
  if (isString(a) && isString(b)) {
    const unicode = a.type.startsWith('n') || b.type.startsWith('n');
    const len = (t: SqlType) => ('length' in t ? t.length : 1);
    const l = len(a) === 'max' || len(b) === 'max' ? 'max' : Math.max(len(a) as number, len(b) as number);
    return unicode ? T.nvarchar(l) : ({ type: 'varchar', length: l } as SqlType);
  }
  return rank(b) > rank(a) ? b : a;
}

const typeText = (t: SqlType): string => t.type;

/** A string as the number type it meets (Msg 245 when it is not one). */
function parseNumber(s: string, from: SqlType, to: SqlType): number | bigint {
  const x = s.trim();
  if (isInteger(to)) {
    if (!/^[-+]?\d+$/.test(x)) fail(245, `Conversion failed when converting the ${typeText(from)} value '${s}' to data type ${to.type}.`);
    return to.type === 'bigint' ? BigInt(x) : Number(x);
  }
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(x)) fail(8114, `Error converting data type ${typeText(from)} to ${to.type}.`);
  return Number(x);
}

const num = (v: Value): number => (typeof v === 'boolean' ? (v ? 1 : 0) : Number(v));
const big = (v: Value): bigint => (typeof v === 'bigint' ? v : typeof v === 'boolean' ? (v ? 1n : 0n) : BigInt(Math.trunc(Number(v))));

/** Range-checks an integer result of the given type (8115 when it does not fit). */
export function fitInteger(v: number | bigint, type: string): number | bigint {
  if (type === 'bigint') {
    const b = big(v);
    if (b < BIG_MIN || b > BIG_MAX) overflow('bigint');
    return b;
  }
  const n = Number(v);
  const r = RANGE[type];
  if (r && (n < r[0] || n > r[1])) overflow(type);
  return n;
}

/** -1, 0, 1, or null when either side is NULL (three-valued logic decides what NULL means to the caller). */
export function compareTyped(a: Typed, b: Typed): number | null {
  if (a.v === null || b.v === null) return null;
  let x = a.v,
    y = b.v;
  // A string meeting a number converts to the number (string has the lower precedence).
  if (typeof x === 'string' && isNumeric(b.type) && !isString(b.type)) x = parseNumber(x, a.type, b.type);
  if (typeof y === 'string' && isNumeric(a.type) && !isString(a.type)) y = parseNumber(y, b.type, a.type);
  if (typeof x === 'string' && typeof y === 'string') {
    const p = x.replace(/ +$/, '').toLowerCase(),
      q = y.replace(/ +$/, '').toLowerCase();
    return p < q ? -1 : p > q ? 1 : 0;
  }
  if (x instanceof Date || y instanceof Date) {
    const p = x instanceof Date ? x.getTime() : new Date(String(x)).getTime();
    const q = y instanceof Date ? y.getTime() : new Date(String(y)).getTime();
    return p < q ? -1 : p > q ? 1 : 0;
  }
  if (Buffer.isBuffer(x) && Buffer.isBuffer(y)) return Math.sign(Buffer.compare(x, y));
  if (typeof x === 'bigint' || typeof y === 'bigint') {
    if ((typeof x === 'number' && !Number.isInteger(x)) || (typeof y === 'number' && !Number.isInteger(y))) {
      const p = num(x),
        q = num(y);
      return p < q ? -1 : p > q ? 1 : 0;
    }
    const p = big(x),
      q = big(y);
    return p < q ? -1 : p > q ? 1 : 0;
  }
  const p = num(x),
    q = num(y);
  return p < q ? -1 : p > q ? 1 : 0;
}

/** + - * / % & | ^ over two typed values; + on two strings concatenates. */
export function arithmetic(op: string, a: Typed, b: Typed): Typed {
  if (op === '+' && isString(a.type) && isString(b.type)) {
    const len = (t: SqlType) => ('length' in t ? t.length : 1);
    const l = len(a.type) === 'max' || len(b.type) === 'max' ? 'max' : Math.min(4000, (len(a.type) as number) + (len(b.type) as number));
    const type = a.type.type.startsWith('n') || b.type.type.startsWith('n') ? T.nvarchar(l) : ({ type: 'varchar', length: l } as SqlType);
    return { v: a.v === null || b.v === null ? null : String(a.v) + String(b.v), type };
  }
  let type = higher(a.type, b.type);
  if (type.type === 'bit') type = T.int;
  if (isString(type) || type.type === 'sql_variant')
    fail(402, `The data types ${a.type.type} and ${b.type.type} are incompatible in the ${op} operator.`);
  if (a.v === null || b.v === null) return { v: null, type };
  const x = typeof a.v === 'string' && !isNumeric(a.type) ? parseNumber(a.v, a.type, type) : a.v;
  const y = typeof b.v === 'string' && !isNumeric(b.type) ? parseNumber(b.v, b.type, type) : b.v;
  if (isInteger(type)) {
    const p = big(x),
      q = big(y);
    if ((op === '/' || op === '%') && q === 0n) fail(8134, 'Divide by zero error encountered.');
    // Only the operator asked for is computed: a bigint division by 0n throws even where its result is not wanted.
    const ops: Record<string, () => bigint> = {
      '+': () => p + q,
      '-': () => p - q,
      '*': () => p * q,
      '/': () => p / q,
      '%': () => p % q,
      '&': () => p & q,
      '|': () => p | q,
      '^': () => p ^ q,
    };
    const r: bigint = ops[op]?.() ?? 0n;
    return { v: fitInteger(r, type.type), type };
  }
  const p = num(x),
    q = num(y);
  if ((op === '/' || op === '%') && q === 0) fail(8134, 'Divide by zero error encountered.');
  const r = { '+': p + q, '-': p - q, '*': p * q, '/': p / q, '%': p % q }[op];
  if (r === undefined) fail(402, `The data types ${a.type.type} and ${b.type.type} are incompatible in the ${op} operator.`);
  return { v: r as number, type };
}

export function negate(x: Typed): Typed {
  if (x.v === null) return x;
  if (isInteger(x.type)) return { v: fitInteger(-big(x.v), x.type.type === 'bit' ? 'int' : x.type.type), type: x.type };
  return { v: -num(x.v), type: x.type };
}

/** The SqlType a declared type name stands for. */
export function sqlType(t: TypeName): SqlType {
  switch (t.base) {
    case 'bit':
    case 'tinyint':
    case 'smallint':
    case 'int':
    case 'bigint':
    case 'real':
    case 'float':
    case 'datetime':
      return { type: t.base } as SqlType;
    case 'datetime2':
      return { type: 'datetime2', scale: t.scale ?? 7 };
    case 'date':
    case 'money':
    case 'smallmoney':
    case 'uniqueidentifier':
      return { type: t.base } as SqlType;
    case 'time':
    case 'datetimeoffset':
      return { type: t.base, scale: t.scale ?? 7 };
    case 'sysname':
      return T.sysname;
    case 'decimal':
    case 'numeric':
      return { type: 'decimal', precision: t.precision ?? 18, scale: t.scale ?? 0 };
    case 'nvarchar':
    case 'varchar':
    case 'nchar':
    case 'char':
    case 'varbinary':
    case 'binary':
      // Without a length: 30 in CAST/CONVERT, 1 in a declaration (docs: char and varchar); callers pass it.
      return { type: t.base, length: t.length ?? 30 } as SqlType;
    default:
      return fail(2715, `Column, parameter, or variable #1: Cannot find data type ${t.base}.`);
  }
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
function dateText(d: Date, type: SqlType, style: number | null): string {
  const base = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const ms = pad(d.getUTCMilliseconds(), 3);
  const frac = `${ms}${'0'.repeat(7)}`.slice(0, 'scale' in type ? (type.scale ?? 7) : 7);
  if (type.type === 'date') return base;
  if (type.type === 'time') return frac ? `${time}.${frac}` : time;
  if (type.type === 'datetimeoffset') return `${base} ${time}${frac ? `.${frac}` : ''} +00:00`;
  if (style === 120) return `${base} ${time}`;
  if (style === 126) return `${base}T${time}.${ms}`;
  if (type.type === 'datetime2' && (style === null || style === 121)) return `${base} ${time}.${ms}0000`;
  if (style === 121) return `${base} ${time}.${ms}`;
  throw new SqlError([err(50000, `The Spinlock Lab simulator does not format ${type.type} with style ${style ?? 0}.`, 16, 1)]);
}

/** CAST / CONVERT (style for dates and binary only); TRY_ variants return NULL where these throw. */
export function castTo(x: Typed, to: TypeName, style: number | null = null): Typed {
  const type = sqlType(to);
  const out = (v: Value): Typed => ({ v, type, nullable: x.nullable });
  if (x.v === null) return out(null);
  const v = x.v;
  switch (type.type) {
    case 'bit':
      return out(typeof v === 'string' ? Number(parseNumber(v, x.type, T.int)) !== 0 : num(v) !== 0);
    case 'tinyint':
    case 'smallint':
    case 'int':
    case 'bigint': {
      if (Buffer.isBuffer(v)) {
        const w = { tinyint: 1, smallint: 2, int: 4, bigint: 8 }[type.type];
        const b = Buffer.alloc(w);
        const tail = v.subarray(Math.max(0, v.length - w));
        tail.copy(b, w - tail.length);
        return out(w === 8 ? b.readBigInt64BE(0) : w === 4 ? b.readInt32BE(0) : w === 2 ? b.readInt16BE(0) : b.readUInt8(0));
      }
      const n =
        typeof v === 'string' ? parseNumber(v, x.type, type) : v instanceof Date ? fail(529, 'Explicit conversion is not allowed.') : v;
      const whole = typeof n === 'bigint' ? n : typeof n === 'boolean' ? (n ? 1 : 0) : Math.trunc(Number(n));
      // An int (or narrower) value that does not fit smallint or tinyint is Msg 220, naming the value; from bigint or
      // numeric it is the general 8115, as SQL Server words them.
      const r = RANGE[type.type];
      if ((type.type === 'smallint' || type.type === 'tinyint') && ['int', 'smallint', 'tinyint'].includes(x.type.type)) {
        if (r && (Number(whole) < r[0] || Number(whole) > r[1]))
          fail(220, `Arithmetic overflow error for data type ${type.type}, value = ${whole}.`, 16, 1);
      }
      return out(fitInteger(whole, type.type));
    }
    case 'real':
    case 'float':
      return out(typeof v === 'string' ? Number(parseNumber(v, x.type, type)) : num(v));
    case 'decimal': {
      const n = typeof v === 'string' && isString(x.type) ? Number(parseNumber(v, x.type, type)) : num(v);
      const fixed = n.toFixed(type.scale);
      if (fixed.replace(/^-/, '').replace('.', '').replace(/^0+/, '').length > type.precision)
        fail(8115, 'Arithmetic overflow error converting numeric to data type numeric.', 16, 2);
      return out(fixed);
    }
    case 'nvarchar':
    case 'varchar':
    case 'nchar':
    case 'char': {
      let s: string;
      if (v instanceof Date) s = dateText(v, x.type, style);
      else if (typeof v === 'string' && (x.type.type === 'money' || x.type.type === 'smallmoney')) s = Number(v).toFixed(2);
      else if (Buffer.isBuffer(v)) {
        if (style === 1 || style === 2) s = (style === 1 ? '0x' : '') + v.toString('hex').toUpperCase();
        else s = type.type.startsWith('n') ? v.toString('utf16le') : v.toString('latin1');
      } else if (typeof v === 'boolean') s = v ? '1' : '0';
      else s = String(v);
      const len = type.length;
      if (len !== 'max' && s.length > len) {
        // A number that does not fit a string is an error (Msg 8115 for int -> too-short string is "*"); text truncates.
        if (isNumeric(x.type)) return out('*');
        s = s.slice(0, len);
      }
      if ((type.type === 'nchar' || type.type === 'char') && len !== 'max') s = s.padEnd(len);
      return out(s);
    }
    case 'date':
    case 'time':
    case 'datetimeoffset':
    case 'money':
    case 'smallmoney':
    case 'uniqueidentifier':
      return out(castMore(x, type));
    case 'datetime':
    case 'datetime2': {
      if (v instanceof Date) return out(v);
      const d = new Date(String(v).replace(' ', 'T') + (/[zZ+]/.test(String(v)) ? '' : 'Z'));
      if (Number.isNaN(d.getTime())) fail(241, 'Conversion failed when converting date and/or time from character string.');
      return out(d);
    }
    case 'varbinary':
    case 'binary': {
      let b: Buffer;
      if (Buffer.isBuffer(v)) b = v;
      else if (typeof v === 'string') b = Buffer.from(v, x.type.type.startsWith('n') ? 'utf16le' : 'latin1');
      else if (typeof v === 'bigint' || x.type.type === 'bigint') {
        b = Buffer.alloc(8);
        b.writeBigInt64BE(big(v));
      } else if (typeof v === 'number' && Number.isInteger(v)) {
        b = Buffer.alloc(4);
        b.writeInt32BE(v);
      } else return fail(529, `Explicit conversion from data type ${x.type.type} to ${type.type} is not allowed.`);
      const len = type.length;
      return out(len === 'max' ? b : Buffer.from(b.subarray(0, len)));
    }
  }
  return out(v);
}

export const truthy = (v: Value): boolean => v === true || v === 1;
export const bool = (b: boolean | null): Typed => ({ v: b === null ? null : b ? 1 : 0, type: T.bit });

/** A column's or variable's SqlType as the TypeName a CAST to it takes. */
export const typeNameOf = (t: SqlType): TypeName =>
  t.type === 'decimal'
    ? { base: 'decimal', precision: t.precision, scale: t.scale }
    : t.type === 'datetime2'
      ? { base: 'datetime2', scale: t.scale }
      : { base: t.type, length: 'length' in t ? t.length : undefined };
