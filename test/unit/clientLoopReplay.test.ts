// The T-SQL bundle and command lines of a client-loop run (issue #45: export --tsql wrote the server loop's procedure,
// header and ostress line for it). A client-loop run is one call of the client-loop procedure per round trip, each
// session with its own keys and @offset advancing by the rows a call writes: the workload step says that, and the
// ostress line sends that call -r times per session (the calls each session made), keeping the keys apart.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { tsqlBundle, readExperimentFile } from '../../src/engine/notebook/export';
import { buildReplay, loadCommandLines } from '../../src/engine/notebook/replay';
import { defaultParameters, getScenario } from '../../src/engine/scenarios';
import { buildNotebook } from '../../src/engine/notebook/write';
import type { Experiment } from '../../src/shared/experiment';

const root = path.resolve(__dirname, '..', '..', '..');
/** disk-insert by the client loop, batch_size 2, threads 1 and 2, 1 s each (rows 214 at 1 thread). */
const clientLoop = (): Experiment => readExperimentFile(path.join(root, 'test', 'fixtures', 'experiment-v1.json'));

describe('a client-loop run, exported', () => {
  it("the workload step is the client loop's procedure, one call per round trip, not the server loop's", () => {
    const w = buildReplay(clientLoop()).workload;
    assert.match(w.title, /dbo\.spinlab_disk_insert_batch \(client loop\)/);
    assert.doesNotMatch(`${w.title}\n${w.purpose}\n${w.sql}`, /server loop|spinlab_disk_insert_loop|@run_ms/);
    assert.match(w.sql, /EXEC dbo\.spinlab_disk_insert_batch\n {4}@key_base = @key_base,\n {4}@offset = @offset,\n {4}@batch_size = 2;/);
    assert.match(w.purpose, /one call per round trip/);
  });

  it('the ostress lines send that call, -r times per session as the run did, each session keeping its own keys', () => {
    const e = clientLoop();
    const c = loadCommandLines(e);
    assert.match(c.spinlab, /--mode client-loop/);
    assert.equal(c.ostress.length, 2);
    // 214 rows at 1 thread in calls of 2 rows: 107 calls by its one session.
    const perSession = (n: number) => Math.ceil(e.runs.filter((r) => r.threads === n).at(-1)!.rows / 2 / n);
    assert.match(c.ostress[0], new RegExp(`-n1 -r${perSession(1)} -q -Q"`));
    assert.match(c.ostress[1], new RegExp(`-n2 -r${perSession(2)} -q -Q"`));
    for (const l of c.ostress) {
      assert.match(l, /EXEC dbo\.spinlab_disk_insert_batch @key_base = @key_base, @offset = @offset, @batch_size = 2;/);
      assert.doesNotMatch(l, /spinlab_disk_insert_loop|-r1 /);
      assert.match(l, /SESSION_CONTEXT\(N'spinlab_offset'\)/, 'the offset advances from call to call');
    }
    assert.match(c.note ?? '', /one call per iteration/);
  });

  it('the bundle and the notebook carry the note; a server-loop run keeps its own procedure and -r1', () => {
    const files = tsqlBundle(clientLoop());
    assert.match(files['03-workload.sql'], /client loop/);
    assert.doesNotMatch(files['03-workload.sql'], /server loop/);
    assert.match(files['load-commands.txt'], /one call per iteration/);
    const nb = JSON.stringify(buildNotebook([clientLoop()]));
    assert.match(nb, /one call per iteration/);
    const server = clientLoop();
    server.load = { ...server.load, mode: 'server-loop' };
    const s = loadCommandLines(server);
    assert.match(s.ostress[0], /-n1 -r1 -q -Q"DECLARE @key_base bigint .*EXEC dbo\.spinlab_disk_insert_loop/);
    assert.equal(s.note, null);
  });

  it('ring-buffer by the client loop: a plain call, no keys to keep', () => {
    const e = clientLoop();
    e.scenario = { id: 'ring-buffer', parameters: defaultParameters(getScenario('ring-buffer')) };
    const c = loadCommandLines(e);
    assert.match(c.ostress[0], /-Q"EXEC dbo\.spinlab_ring_step @slots = \d+, @mode = N'push/);
    assert.doesNotMatch(c.ostress[0], /SESSION_CONTEXT|key_base/);
  });
});
