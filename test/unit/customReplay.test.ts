// A custom workload's T-SQL bundle (spinlab export --tsql): the user's statements in their database, each marked reads
// or writes from its text, the knob it changed and its restore, and command lines that run the same again; never the
// scenario replay (which wrote "EXEC ;" and a CREATE DATABASE of the user's database).
import assert from 'node:assert/strict';
import { tsqlBundle } from '../../src/engine/notebook/export';
import { experiment } from '../helpers/builders';
import type { Experiment } from '../../src/shared/experiment';

function custom(): Experiment {
  const e = experiment('2026-01-01T00-00-00-000Z-custom', [2, 4], { ticks: 2 });
  e.scenario = { id: 'custom', parameters: {} };
  e.title = 'Custom workload in [shop]: 2, 4 threads';
  e.labDatabase = 'shop';
  e.knobs = {
    before: { delayedDurability: 'DISABLED', affinity: { type: 'AUTO', cpus: [] } },
    applied: { delayedDurability: 'FORCED' },
    restored: null,
  };
  e.custom = {
    statements: [
      { source: '--sql 1', text: 'SELECT * FROM dbo.orders WHERE id = @id' },
      { source: 'orders.sql batch 2', text: 'UPDATE dbo.orders SET n = n + 1 WHERE id = @id' },
    ],
    database: 'shop',
    params: { kind: 'csv', from: 'ids.csv', columns: [{ name: 'id', type: 'int' }], rows: 2, order: 'round-robin', scope: 'session' },
    iterations: 50,
    thinkTimeMs: 0,
    queryTimeoutMs: 2000,
    stopOnError: false,
    writes: 'UPDATE may write',
  };
  return e;
}

it("a custom workload's bundle holds its statements, its knob and restore, and the command lines; no scenario replay", () => {
  const files = tsqlBundle(custom());
  assert.deepEqual(Object.keys(files).sort(), ['02-knobs.sql', '03-workload.sql', '04-sample.sql', '05-restore.sql', 'load-commands.txt']);
  const all = Object.values(files).join('\n');
  assert.doesNotMatch(all, /EXEC\s*;/, 'no empty procedure call');
  assert.doesNotMatch(all, /CREATE DATABASE/, "the user's database is not created");
  const w = files['03-workload.sql'];
  // ostress runs every batch of its -i file each iteration: no USE batch in it (-d names the database).
  assert.doesNotMatch(w, /^USE /m);
  assert.match(w, /-- Run it in \[shop\]: ostress -d/);
  assert.match(w, /-- DECLARE @id int = <a value from a row>;/);
  assert.match(w, /-- Statement 1 \(--sql 1\): reads\nSELECT \* FROM dbo\.orders WHERE id = @id\nGO/);
  assert.match(
    w,
    /-- Statement 2 \(orders\.sql batch 2\): WRITES \(UPDATE may write\)\nUPDATE dbo\.orders SET n = n \+ 1 WHERE id = @id\nGO/,
  );
  assert.match(files['02-knobs.sql'], /DELAYED_DURABILITY|delayed durability/i);
  assert.match(files['05-restore.sql'], /Delayed durability back to DISABLED/);
  assert.match(
    files['load-commands.txt'],
    /npx spinlab run --sql-file 03-workload\.sql --database shop --threads 2,4 --iterations 50 .*--query-timeout 2000ms --delayed-durability forced --params-csv ids\.csv/,
  );
  // 50 calls per session taking the 2 statements in turn: ostress sends as many batches with -r25, in its own order.
  assert.match(files['load-commands.txt'], /ostress\.exe .* -d"shop" -n4 -r25 -q -i"03-workload\.sql"/);
  assert.match(files['load-commands.txt'], /Note: This run took one batch per call.* not in the same order/);
});

it('a run whose iterations each ran every statement in order (as ostress does): -r is its iterations, and the spinlab line says so', () => {
  const e = custom();
  e.custom!.perIteration = 'all';
  const cmds = tsqlBundle(e)['load-commands.txt'];
  assert.match(cmds, /--iterations 50 --per-iteration all/);
  assert.match(cmds, /ostress\.exe .* -n4 -r50 -q -i"03-workload\.sql"/);
  assert.doesNotMatch(cmds, /Note:/);
});
