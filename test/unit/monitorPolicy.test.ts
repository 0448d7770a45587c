// The monitor's answer to ticks that keep failing (src/engine/monitorPolicy.ts): a few reconnects, then the full query,
// then a longer interval doubling up to a cap; each failure and each fallback said once; back to normal on success.
import assert from 'node:assert/strict';
import { FAILURES_BEFORE_FALLBACK, MAX_BACKOFF_MS, MonitorPolicy } from '../../src/engine/monitorPolicy';

const overflow = () => new Error('Arithmetic overflow error converting expression to data type int.');

describe('monitor policy for failing ticks', () => {
  it('reconnects for the first failures of the delta tick, then reads the full query, said once each', () => {
    const p = new MonitorPolicy(1000, 'dmv/sample');
    const said: string[] = [];
    const reconnects: boolean[] = [];
    for (let i = 0; i < FAILURES_BEFORE_FALLBACK; i++) {
      const a = p.failed(overflow());
      said.push(...a.messages);
      reconnects.push(a.reconnect);
    }
    assert.deepEqual(reconnects, [true, true, true], 'a delta tick starts again on a new connection; the switch too (a clean session)');
    assert.equal(said.length, 2, said.join('\n'));
    assert.match(said[0], /^monitor sample failed: Arithmetic overflow .*; reconnecting$/);
    assert.match(
      said[1],
      /delta tick failed 3 times in a row \(last: Arithmetic overflow.*\): reading sql\/dmv\/sample\.sql in full every tick/,
    );
    assert.equal(p.readFull, true);
    assert.equal(p.intervalMs, 1000, 'the interval is unchanged while the full query is tried');
    assert.deepEqual(p.stats, { reconnects: 0, failedTicks: 3, fallbacks: 1, fullQuery: true, longestIntervalMs: 1000 });
  });

  it('when the full query fails as often, ticks less often, doubling up to the cap, and returns on success', () => {
    const p = new MonitorPolicy(1000, 'watch/tick');
    for (let i = 0; i < FAILURES_BEFORE_FALLBACK; i++) p.failed(overflow());
    const said: string[] = [];
    const intervals: number[] = [];
    for (let i = 0; i < 12; i++) {
      const a = p.failed(overflow());
      assert.equal(a.reconnect, false, 'the full query keeps no state in the session: no reconnect for it');
      said.push(...a.messages);
      intervals.push(p.intervalMs);
    }
    assert.deepEqual(intervals, [
      1000,
      1000,
      2000,
      4000,
      8000,
      16000,
      32000,
      MAX_BACKOFF_MS,
      MAX_BACKOFF_MS,
      MAX_BACKOFF_MS,
      MAX_BACKOFF_MS,
      MAX_BACKOFF_MS,
    ]);
    assert.equal(said.length, 1, `one message for the back-off, none for repeats: ${said.join('\n')}`);
    assert.match(
      said[0],
      /ticking less often, every 2000 ms and doubling up to every 60 s, until one succeeds; then back to every 1000 ms/,
    );
    assert.equal(p.stats.fallbacks, 2);
    assert.equal(p.stats.longestIntervalMs, MAX_BACKOFF_MS);
    const back = p.succeeded();
    assert.equal(p.intervalMs, 1000);
    assert.equal(back.length, 1);
    assert.match(back[0], /succeed again after 12 failed in a row: back to every 1000 ms/);
    assert.deepEqual(p.succeeded(), [], 'said once');
    assert.equal(p.readFull, true, 'the delta tick is not tried again: it would fail the same way');
  });

  it('a monitor that already reads in full backs off after the failures in a row; a success before then resets the count', () => {
    const p = new MonitorPolicy(250, null);
    p.failed(overflow());
    p.failed(overflow());
    assert.deepEqual(p.succeeded(), []);
    p.failed(overflow());
    p.failed(overflow());
    assert.equal(p.intervalMs, 250, 'two in a row: not yet');
    const a = p.failed(new Error('Login failed for user 5.'));
    assert.equal(p.intervalMs, 500, 'any failures in a row count, not only identical ones');
    assert.equal(a.messages.length, 2, 'a new failure is said, with the back-off');
    assert.equal(
      p.failed(new Error('Login failed for user 6.')).messages.length,
      0,
      'the same failure with another number in it is a repeat',
    );
  });

  it('a connection error with its fix is said in full once; the fallbacks\' "last:" quote its first line only', () => {
    const refused = () =>
      new Error(
        'Failed to connect to 127.0.0.1:14392 - Could not connect (ECONNREFUSED)\n  The server at 127.0.0.1,14392 could not be reached (no login was attempted).',
      );
    const p = new MonitorPolicy(1000, 'watch/tick');
    const said: string[] = [];
    for (let i = 0; i < 2 * FAILURES_BEFORE_FALLBACK; i++) said.push(...p.failed(refused()).messages);
    assert.equal(said.filter((m) => /could not be reached/.test(m)).length, 1, said.join('\n---\n'));
    assert.ok(said.some((m) => /delta tick failed 3 times in a row \(last: Failed to connect .*ECONNREFUSED\)\)/.test(m)));
    assert.ok(said.some((m) => /ticks failed 3 times in a row \(last: Failed to connect .*ECONNREFUSED\)\)/.test(m)));
  });

  it('a new interval asked for (the watch over its cost budget) is taken at once, or after a back-off ends', () => {
    const p = new MonitorPolicy(250, null);
    p.setBase(500);
    assert.equal(p.intervalMs, 500, 'taken at once');
    for (let i = 0; i < FAILURES_BEFORE_FALLBACK; i++) p.failed(overflow());
    assert.equal(p.intervalMs, 1000, 'backing off from the new interval');
    p.setBase(2000);
    assert.equal(p.intervalMs, 1000, 'the back-off is not cut short');
    p.succeeded();
    assert.equal(p.intervalMs, 2000, 'after it, the interval asked for');
    assert.equal(p.stats.longestIntervalMs, 2000);
  });
});
