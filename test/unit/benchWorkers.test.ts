// The client-worker comparison of the driver bench (bench/workers.ts): which kinds are worker runs, the pace's ceiling,
// and the section that says which ratio carries the goal and whether the pace held.
import assert from 'node:assert/strict';
import { isPaced, paceCeiling, PACE_REPLY_DELAY_MS, workersOf, workersSection, type WorkersRun } from '../../bench/workers';

const client = (kind: string, callsPerSec: number, clientUsPerCall: number) => ({
  kind,
  callsPerSec,
  clientUsPerCall,
  serverUsPerCall: 75,
});

/**
 * 16 sessions on 2 cores, all four worker runs: saturated at 13,600 and 13,500 calls/s with the given client µs per call,
 * paced at [fraction of the pace's cap, client µs per call] each.
 */
function fourRuns(us1: number, us2: number, [f1, p1]: [number, number], [f2, p2]: [number, number]): WorkersRun {
  const cap = paceCeiling(16);
  return {
    sessions: 16,
    cores: 2,
    clients: [
      client('workers1', 13_600, us1),
      client('workers2', 13_500, us2),
      client('workers1-paced', cap * f1, p1),
      client('workers2-paced', cap * f2, p2),
    ],
  };
}

describe('bench: client worker threads', () => {
  it('tells the worker kinds and their threads apart from the other clients', () => {
    assert.equal(workersOf('workers1'), 1);
    assert.equal(workersOf('workers2-paced'), 2);
    assert.equal(workersOf('workers1-paced'), 1);
    assert.equal(workersOf('ours'), null);
    assert.equal(isPaced('workers2-paced'), true);
    assert.equal(isPaced('workers2'), false);
  });

  it('caps paced sessions at one call per reply delay each', () => {
    assert.equal(paceCeiling(16, 4), 4000);
    assert.equal(paceCeiling(8), (8 * 1000) / PACE_REPLY_DELAY_MS);
  });

  it('puts the goal on the paced ratio and prints the saturated one without it', () => {
    const d = fourRuns(44, 50, [0.95, 60], [0.94, 66]);
    const text = workersSection(d).join('\n');
    const paced = text.split('\n').find((l) => l.startsWith('- paced'));
    const saturated = text.split('\n').find((l) => l.startsWith('- saturated'));
    assert.ok(paced?.includes('carries the goal'), text);
    assert.ok(paced?.includes('client CPU per call 1.10'), paced);
    assert.ok(paced?.includes('Both ran at the pace'), paced);
    assert.ok(saturated?.includes('no goal'), text);
    assert.ok(saturated?.includes('client CPU per call 1.14'), saturated);
  });

  it('says when the pace did not hold (the machine saturated anyway)', () => {
    const cap = paceCeiling(16);
    const d: WorkersRun = {
      sessions: 16,
      cores: 2,
      clients: [client('workers1-paced', cap * 0.9, 60), client('workers2-paced', cap * 0.5, 90)],
    };
    const text = workersSection(d).join('\n');
    assert.match(text, /The pace did not hold/);
    assert.doesNotMatch(text, /- saturated/);
  });

  it('takes the pace as held when both paced runs make the same calls/s under the cap (the delay plus the round trip)', () => {
    const d = fourRuns(44, 48, [0.73, 68], [0.75, 85]);
    assert.match(workersSection(d).join('\n'), /Both ran at the pace/);
    const near = { ...d, clients: d.clients.map((c) => (isPaced(c.kind) ? { ...c, callsPerSec: 13_000 } : c)) };
    assert.match(workersSection(near).join('\n'), /The pace did not hold \(both ran at over 60% of the saturated rate\)/);
  });

  it('has no section when neither pair ran', () => {
    assert.deepEqual(workersSection({ sessions: 16, clients: [client('workers1', 1, 1)] }), []);
  });
});
