// Counts in words: the one helper (src/shared/plural.ts), and the CLI lines that print a count of one, which said
// "1 threads" and "opening 1 sessions".
import assert from 'node:assert/strict';
import { counts, plural } from '../../src/shared/plural';
import { planTime } from '../../src/shared/planTime';
import { Progress } from '../../src/cli/progress';
import { cycleMath } from '../../src/shared/cycleMath';
import { rangesText, sessionFailureLines } from '../../src/shared/failureLines';
import * as b from '../helpers/builders';

/** A stream that keeps what is written, not a terminal (plain lines). */
function sink(): { stream: NodeJS.WriteStream; text: () => string } {
  let text = '';
  const stream = {
    isTTY: false,
    write: (s: string) => {
      text += s;
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  return { stream, text: () => text };
}

describe('counts in words', () => {
  it('singular for exactly one, plural otherwise, grouped by thousands', () => {
    assert.equal(plural(1, 'thread'), '1 thread');
    assert.equal(plural(0, 'thread'), '0 threads');
    assert.equal(plural(4, 'session'), '4 sessions');
    assert.equal(plural(12000, 'call'), '12,000 calls');
    assert.equal(plural(1.5, 'second'), '1.5 seconds');
    assert.equal(plural(1, 'repetition of each arm', 'repetitions of each arm'), '1 repetition of each arm');
    assert.equal(counts([1], 'thread'), '1 thread');
    assert.match(planTime([{ threads: [1] }], { durationMs: null, rows: 1, warmupMs: 0 }, 1).text, / of 1 row each/);
    assert.equal(counts([1, 2, 4], 'thread'), '1, 2, 4 threads');
  });

  it('the run progress says "1 thread", not "1 threads"', () => {
    const s = sink();
    const p = new Progress(s.stream, 1, 1000);
    const record = { ...b.runRecord(0, 1), status: 'completed' as const };
    p.update({ kind: 'run-start', run: 0, threads: 1, repetition: 1, measuredMs: 1000, arm: { id: 'main', label: 'main' } });
    p.update({ kind: 'run-end', record });
    assert.match(s.text(), /run 1\/1: 1 thread completed/);
    assert.doesNotMatch(s.text(), /1 threads/);
  });

  it('doing the math on one CPU: "1 logical CPU"', () => {
    const m = cycleMath({ elapsedSec: 6, cpus: 1, clockHz: 2.4e9, rows: 10, spins: {}, cpuBasis: 'logical CPUs' });
    assert.match(m.formula, /^6 s x 1 logical CPU x 2\.40 GHz/);
  });
});

describe('sessions that failed alike, said once', () => {
  it('one line per message with the count and the sessions, in the order they came', () => {
    const same = Array.from({ length: 16 }, (_, i) => ({ session: i + 1, message: 'the connection was lost' }));
    assert.deepEqual(sessionFailureLines(same), ['16 sessions failed (1-16): the connection was lost']);
    assert.deepEqual(
      sessionFailureLines([
        { session: 2, message: 'deadlocked' },
        { session: 1, message: 'timeout' },
        { session: 5, message: 'deadlocked' },
        { session: 3, message: 'deadlocked' },
      ]),
      ['3 sessions failed (2-3, 5): deadlocked', 'session 1 failed: timeout'],
    );
    assert.equal(rangesText([7, 1, 2, 3, 5, 8]), '1-3, 5, 7-8');
  });
});
