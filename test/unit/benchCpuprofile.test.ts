// The client-CPU breakdown of bench/cpuprofile.ts (self time by module from a V8 CPU profile) and the ceiling the
// simulator sharing the client's CPUs puts on 2 client workers against 1 (bench/workers.ts).
import assert from 'node:assert/strict';
import { bucketOf, summarise, type CpuProfile } from '../../bench/cpuprofile';
import { workersCeiling } from '../../bench/workers';

const frame = (id: number, functionName: string, url: string) => ({ id, callFrame: { functionName, url, lineNumber: 0 } });

describe('bench: client CPU breakdown', () => {
  it("charges each sample's time to its function's module, idle left out", () => {
    const p: CpuProfile = {
      nodes: [
        frame(1, '(idle)', ''),
        frame(2, 'loop', 'file:///w/out/src/engine/load.js'),
        frame(3, 'parse', 'file:///w/node_modules/tedious/lib/x.js'),
        frame(4, 'writeBuffer', ''),
        frame(5, '(garbage collector)', ''),
        frame(6, 'Readable.read', 'node:internal/streams/readable'),
      ],
      // timeDeltas[i + 1] is how long sample i ran.
      samples: [1, 2, 3, 4, 5, 6, 1],
      timeDeltas: [0, 1000, 10, 20, 30, 40, 50],
    };
    const b = summarise(p);
    assert.equal(b.cpuUs, 10 + 20 + 30 + 40 + 50);
    assert.deepEqual([b.byBucket.ours, b.byBucket.tedious, b.byBucket['node net/tls/stream'], b.byBucket.GC], [10, 20, 30 + 50, 40]);
    assert.equal(bucketOf({ functionName: 'x', url: 'node:events', lineNumber: 0 }), 'node other');
    assert.equal(bucketOf({ functionName: 'x', url: 'file:///w/node_modules/mssql/lib/a.js', lineNumber: 0 }), 'mssql');
  });

  it("2 workers can at most double calls/s, less by the simulator's share of the CPUs it shares", () => {
    assert.equal(workersCeiling(2, 90, 0), 2);
    assert.ok(Math.abs(workersCeiling(2, 90, 25) - (2 * 90) / 115) < 1e-9);
    assert.equal(workersCeiling(8, 90, 25), 2);
  });
});
