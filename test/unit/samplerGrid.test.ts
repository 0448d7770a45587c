// The sampler's ticks fall on a grid from the anchor a watch gives (its clock's start, the baseline's request), not
// from when the baseline arrived: a slow baseline costs the slots it overran, not a shift of every tick that would
// push the last one past the duration. finish() takes the slot due at the end even when its timer has not fired yet.
import assert from 'node:assert/strict';
import { Sampler } from '../../src/engine/sampler';
import type { DbTarget } from '../../src/db/target';
import { monotonicMs } from '../../src/engine/clock';

interface Internals {
  nextAt: number;
  timer?: NodeJS.Timeout;
  db: unknown;
}

function sampler(intervalMs: number, sent: number[]) {
  const s = new Sampler<number>({
    target: { server: '127.0.0.1', port: 1 } as unknown as DbTarget,
    labDatabase: 'master',
    intervalMs,
    read: async () => {
      sent.push(monotonicMs());
      return sent.length;
    },
    onSample: () => undefined,
    onProblem: (m) => assert.fail(m),
  });
  // An open connection that is never used for real: read() above answers without it.
  (s as unknown as Internals).db = { connected: true, connectionsLost: 0, close: async () => undefined };
  return s;
}

describe('Sampler grid', () => {
  it('puts the first slot on the anchor grid, skipping the slots a slow baseline overran', async () => {
    const s = sampler(100, []);
    const anchor = monotonicMs() - 250; // the baseline was asked for 250 ms ago
    s.start(anchor);
    assert.equal((s as unknown as Internals).nextAt, anchor + 300, 'slots at 100 and 200 ms are past: the next is 300');
    await s.close();
  });

  it('starts one interval from now without an anchor (a run)', async () => {
    const s = sampler(1000, []);
    const before = monotonicMs();
    s.start();
    const next = (s as unknown as Internals).nextAt;
    assert.ok(next >= before + 1000 && next <= monotonicMs() + 1000, `${next - before}`);
    await s.close();
  });

  it('finish() takes the slot due at the end at once when its timer has not fired, then ticks no more', async () => {
    const sent: number[] = [];
    const s = sampler(60_000, sent);
    const anchor = monotonicMs();
    s.start(anchor);
    const due = (s as unknown as Internals).nextAt;
    await s.finish(due);
    assert.equal(sent.length, 1, 'the last slot was taken, not left to a timer a minute away');
    assert.equal((s as unknown as Internals).timer, undefined, 'no slot after the last is scheduled');
    await s.close();
  });

  it('finish() before the last slot leaves the later slots untaken', async () => {
    const sent: number[] = [];
    const s = sampler(60_000, sent);
    const anchor = monotonicMs();
    s.start(anchor);
    await s.finish(anchor + 30_000);
    assert.equal(sent.length, 0);
    await s.close();
  });
});
