// A warning that comes back tick after tick (a reconnect that fails, a tick over budget, a missing permission) is said
// once and then counted: "(repeated 14 times) <warning>" when another warning is said, and at the end. Messages that
// differ only in their numbers (ms, spids, handles) are one warning. Pure: the CLI and the panel show what it returns.

/** The warning with its numbers taken out: what makes two messages "the same warning". */
export function warningKey(message: string): string {
  return message.replace(/\d+(\.\d+)?/g, '#');
}

export function repeatedLine(message: string, times: number): string {
  return `(repeated ${times} time${times === 1 ? '' : 's'}) ${message}`;
}

export class RepeatedWarnings {
  private readonly seen = new Map<string, { message: string; unsaid: number; total: number }>();

  /** The lines to say for a new warning: none for a repeat, else the repeats counted so far and the warning. */
  add(message: string): string[] {
    const key = warningKey(message);
    const s = this.seen.get(key);
    if (s) {
      s.unsaid++;
      s.total++;
      return [];
    }
    const out = this.flush();
    this.seen.set(key, { message, unsaid: 0, total: 1 });
    out.push(message);
    return out;
  }

  /** The repeats not yet said (at a change, or at the end), each once; counting starts again after. */
  flush(): string[] {
    const out: string[] = [];
    for (const s of this.seen.values()) {
      if (s.unsaid > 0) out.push(repeatedLine(s.message, s.unsaid));
      s.unsaid = 0;
    }
    return out;
  }

  /** How often `message` (or one like it) came in all. */
  count(message: string): number {
    return this.seen.get(warningKey(message))?.total ?? 0;
  }
}
