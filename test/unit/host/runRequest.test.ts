// The run form -> engine options: a valid form, each invalid input with the message that says how to fix it, every
// problem listed at once, and what will change server-wide in words (from -> to).
import assert from 'node:assert/strict';
import { RunRequestError, buildRunRequest, describeKnobState, resolveScenario, type RunForm } from '../../../src/host/runRequest';
import { AUTO_KNOBS, facts, identity } from './fixtures';

const form = (over: Partial<RunForm> = {}): RunForm => ({
  scenarioId: 'disk-insert',
  parameters: { batch_size: 2 },
  run: { mode: 'client-loop', threads: '1,2,4', duration: '30s', rows: '', warmup: '5s', interval: '1s' },
  knobs: { delayedDurability: 'unchanged', affinity: '' },
  ...over,
});

function problems(f: RunForm, server = facts()): string[] {
  try {
    buildRunRequest(f, server);
  } catch (e) {
    assert.ok(e instanceof RunRequestError, String(e));
    return e.problems;
  }
  assert.fail('expected a RunRequestError');
}

it('a valid form becomes engine options; defaults fill the other parameters; nothing changes server-wide', () => {
  const r = buildRunRequest(form(), facts());
  assert.equal(r.scenarioId, 'disk-insert');
  assert.deepEqual(r.parameters, { batch_size: 2, seed_rows: 100000 });
  assert.deepEqual(r.load, { mode: 'client-loop', threads: [1, 2, 4], durationMs: 30_000, rows: null, warmupMs: 5000, intervalMs: 1000 });
  assert.deepEqual(r.knobs, {});
  assert.deepEqual(r.changes, []);
});

it('rows instead of duration; empty fields take the CLI defaults; warm-up may be 0s', () => {
  const r = buildRunRequest(
    form({ run: { mode: 'server-loop', threads: '', duration: '', rows: '2M', warmup: '0s', interval: '' } }),
    facts(),
  );
  assert.deepEqual(r.load, { mode: 'server-loop', threads: [1, 2, 4], durationMs: null, rows: 2_000_000, warmupMs: 0, intervalMs: 1000 });
});

it('each invalid run field names the field and says what to write', () => {
  const base = form().run;
  assert.match(
    problems(form({ run: { ...base, threads: '1,x' } }))[0],
    /^Threads: .*"x" is not a number or range \(write e\.g\. 1,2,4,8 or 1-4\)/,
  );
  assert.match(problems(form({ run: { ...base, threads: '4-1' } }))[0], /runs backwards; write 1-4/);
  assert.match(problems(form({ run: { ...base, threads: '2000' } }))[0], /outside 1\.\.1024/);
  assert.match(problems(form({ run: { ...base, duration: '30' } }))[0], /^Duration: "30" is not a duration \(add a unit\)/);
  assert.match(problems(form({ run: { ...base, duration: '0s' } }))[0], /is zero/);
  assert.match(problems(form({ run: { ...base, rows: '1M' } }))[0], /Give Duration or Rows, not both/);
  assert.match(problems(form({ run: { ...base, duration: '', rows: '0' } }))[0], /^Rows: row count "0" must be at least 1/);
  assert.match(problems(form({ run: { ...base, warmup: 'soon' } }))[0], /^Warm-up: "soon" is not a duration/);
  assert.match(
    problems(form({ run: { ...base, interval: '100ms' } }))[0],
    /Sampling interval 100ms is below the 250ms minimum.*Write 250ms or more/,
  );
});

it('parameters: out of range, wrong type and unknown names each say what is allowed', () => {
  assert.match(
    problems(form({ parameters: { batch_size: 0 } }))[0],
    /batch_size \(Rows per transaction\): 0 is too small; allowed: a whole number from 1 to 1000 \(rows\)/,
  );
  assert.match(problems(form({ parameters: { batch_size: 'two' } }))[0], /batch_size .*allowed: a whole number/);
  assert.match(problems(form({ parameters: { nope: 1 } }))[0], /Unknown parameter nope .*known parameters: batch_size, seed_rows/);
  assert.match(problems(form({ scenarioId: 'nope' }))[0], /Unknown scenario "nope"; choose one of disk-insert, inmem-insert, ring-buffer/);
});

it('affinity is checked against the connected topology', () => {
  assert.match(
    problems(form({ knobs: { delayedDurability: 'unchanged', affinity: 'cpu:30-31' } }))[0],
    /^CPU affinity: "cpu:30-31": CPUs 30-31 do not exist; this server has CPUs 0-23/,
  );
  assert.match(
    problems(form({ knobs: { delayedDurability: 'unchanged', affinity: 'numa:5' } }))[0],
    /NUMA node 5 does not exist; this server has nodes 0-1/,
  );
  assert.match(
    problems(form({ knobs: { delayedDurability: 'unchanged', affinity: 'fast' } }))[0],
    /Unknown affinity "fast". Use one of: auto/,
  );
});

it('every problem is listed at once', () => {
  const p = problems(
    form({
      parameters: { batch_size: 0 },
      run: { mode: 'server-loop', threads: 'x', duration: '1', rows: '', warmup: '0s', interval: '10ms' },
      knobs: { delayedDurability: 'FORCED', affinity: 'cpu:99' },
    }),
  );
  assert.equal(p.length, 5, p.join('\n'));
});

it('a scenario needing In-Memory OLTP on a server without it says so', () => {
  const noXtp = facts({ identity: identity({ xtpSupported: false, edition: 'Express Edition (64-bit)' }) });
  assert.match(
    problems(form({ scenarioId: 'inmem-insert', parameters: {} }), noXtp)[0],
    /inmem-insert with these parameters needs In-Memory OLTP, which LAB1 \(Express Edition \(64-bit\)\) does not support/,
  );
  assert.match(problems(form({ scenarioId: 'ring-buffer', parameters: { storage: 'memory' } }), noXtp)[0], /needs In-Memory OLTP/);
  assert.doesNotThrow(() =>
    buildRunRequest(form({ scenarioId: 'ring-buffer', parameters: { storage: 'disk', slot_source: 'sequence' } }), noXtp),
  );
});

it('server-wide changes in words, from -> to; settings already as asked are left out', () => {
  const r = buildRunRequest(form({ knobs: { delayedDurability: 'FORCED', affinity: 'exclude-core0' } }), facts());
  assert.deepEqual(r.knobs, { delayedDurability: 'FORCED', affinity: 'exclude-core0' });
  assert.deepEqual(r.changes, [
    'CPU affinity (server-wide): AUTO (every CPU: 0-23) -> CPUs 2-23 (exclude-core0: every CPU except core 0 (CPUs 0-1): 22 CPUs (2-23))',
    'Delayed durability on [SpinlockLab]: DISABLED -> FORCED',
  ]);
  assert.deepEqual(buildRunRequest(form({ knobs: { delayedDurability: 'DISABLED', affinity: 'auto' } }), facts()).changes, []);
  const manual = facts({ knobs: { delayedDurability: 'FORCED', affinity: { type: 'MANUAL', cpus: [2, 3, 4] } } });
  assert.deepEqual(buildRunRequest(form({ knobs: { delayedDurability: 'FORCED', affinity: 'cpu:2-4' } }), manual).changes, []);
  assert.deepEqual(buildRunRequest(form({ knobs: { delayedDurability: 'unchanged', affinity: 'auto' } }), manual).changes, [
    'CPU affinity (server-wide): CPUs 2-4 -> AUTO (every CPU)',
  ]);
  const noLab = facts({ knobs: { ...AUTO_KNOBS, delayedDurability: null } });
  assert.deepEqual(
    buildRunRequest(form({ knobs: { delayedDurability: 'DISABLED', affinity: '' } }), noLab).changes,
    [],
    'a new lab database starts DISABLED',
  );
  assert.match(
    buildRunRequest(form({ knobs: { delayedDurability: 'ALLOWED', affinity: '' } }), noLab).changes[0],
    /DISABLED \(the lab database is created with it\) -> ALLOWED/,
  );
  assert.equal(describeKnobState(AUTO_KNOBS), 'CPU affinity AUTO (every CPU: 0-23); delayed durability DISABLED');
});

it('resolveScenario: parameters for deploy and cleanup', () => {
  assert.deepEqual(resolveScenario('disk-insert', { seed_rows: '10k' }).parameters, { batch_size: 1, seed_rows: 10_000 });
  assert.throws(() => resolveScenario('disk-insert', { seed_rows: -1 }), RunRequestError);
});
