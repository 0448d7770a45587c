// Counts in words: the one helper (src/shared/plural.ts), and the CLI lines that print a count of one, which said
// "1 threads" and "opening 1 sessions".
import assert from 'node:assert/strict';
import { counts, plural } from '../../src/shared/plural';
import { Progress } from '../../src/cli/progress';
import { cycleMath } from '../../src/shared/cycleMath';
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
