// A closed sampler stays closed: a late caller (a timer that fires after the watch or run ended, a stray start) can
// neither take a sample, which would open a new monitor connection, nor start ticking again.
import assert from 'node:assert/strict';
import { Sampler } from '../../src/engine/sampler';
import type { DbTarget } from '../../src/db/target';

function closedSampler(heard: string[]) {
  return new Sampler<number>({
    // Never reached: a closed sampler must refuse before it connects anywhere.
    target: { server: '127.0.0.1', port: 1 } as unknown as DbTarget,
    labDatabase: 'master',
    intervalMs: 1,
    read: async () => 1,
    onSample: () => heard.push('sample'),
    onProblem: (m) => heard.push(m),
  });
}

describe('Sampler after close', () => {
  it('refuses a sample without opening a connection', async () => {
    const s = closedSampler([]);
    await s.close();
    await assert.rejects(s.sampleNow(), /the sampler is closed/);
  });

  it('does not start ticking again', async () => {
    const heard: string[] = [];
    const s = closedSampler(heard);
    await s.close();
    s.start();
    assert.equal((s as unknown as { timer?: NodeJS.Timeout }).timer, undefined, 'no tick is scheduled');
    await s.close();
    assert.deepEqual(heard, []);
  });
});
