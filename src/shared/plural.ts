// Counts in words, one rule for every view: "1 thread", "4 threads", "12,000 calls", never "1 threads".

import { thousands } from './numberText';

/** The noun for a count: `one` for exactly 1, `many` (one + "s" unless given) otherwise. */
export function noun(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/** "1 thread", "4 threads", "12,000 calls" (whole numbers grouped by thousands; a fraction as it is). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${Number.isInteger(n) ? thousands(n) : String(n)} ${noun(n, one, many)}`;
}

/** A list of counts with their noun: [1] -> "1 thread", [1, 2, 4] -> "1, 2, 4 threads". */
export function counts(list: readonly number[], one: string, many = `${one}s`): string {
  return `${list.join(', ')} ${list.length === 1 ? noun(list[0], one, many) : many}`;
}
