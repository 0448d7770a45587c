// Sessions that failed, said as lines: those that failed with the same message are one line with their count and
// numbers ("16 sessions failed (1-16): the connection was lost ..."), not one line each. The record keeps every
// failure; this is how a view says them.
import { plural } from './plural';

/** 1, 2, 3, 5, 7, 8 -> "1-3, 5, 7-8". */
export function rangesText(ns: readonly number[]): string {
  const sorted = [...new Set(ns)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(j > i ? `${sorted[i]}-${sorted[j]}` : String(sorted[i]));
    i = j + 1;
  }
  return parts.join(', ');
}

/** One line per distinct message, in the order each first came: "session 3 failed: ..." or "4 sessions failed (1-4): ...". */
export function sessionFailureLines(failures: readonly { session: number; message: string }[]): string[] {
  const by = new Map<string, number[]>();
  for (const f of failures) by.set(f.message, [...(by.get(f.message) ?? []), f.session]);
  return [...by].map(([message, sessions]) =>
    sessions.length === 1
      ? `session ${sessions[0]} failed: ${message}`
      : `${plural(sessions.length, 'session')} failed (${rangesText(sessions)}): ${message}`,
  );
}
