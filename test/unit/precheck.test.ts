// Checking a command before it connects: spinlock and wait names against the catalogue (a typo suggests the nearest
// name), gates the run cannot judge, options that do not apply, and output paths; and claiming an output folder for
// one experiment (never shared, never colliding, removed again when left unused).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { closestName, knownName, nameProblem } from '../../src/shared/names';
import { canonicalGates, gateProblems } from '../../src/shared/gateCheck';
import { evaluateGates, parseGate } from '../../src/shared/gates';
import { claimOutput, notebookPathProblems, outDirProblems } from '../../src/cli/output';
import { emptyValueProblems, inapplicableProblems, stacksProblems, type RunPrecheckArgs } from '../../src/cli/precheck';
import { repeatProblems } from '../../src/cli/repeatCheck';
import { runRecord } from '../helpers/builders';
import { tmp } from '../helpers/common';

const gates = (...texts: string[]) => texts.map(parseGate);
const base: RunPrecheckArgs = { mode: 'server-loop', set: [], deploy: true, labDb: 'SpinlockLab', scenario: 'disk-insert' };
const typed = { mode: false, labDb: false };

describe('precheck: spinlock and wait names', () => {
  it('knows the names sys.dm_os_spinlock_stats and sys.dm_os_wait_stats list, in any case, spelled as the server does', () => {
    assert.equal(knownName('spinlock', 'logcache_access'), 'LOGCACHE_ACCESS');
    assert.equal(knownName('spinlock', 'XDESMGR'), 'XDESMGR');
    assert.equal(knownName('wait', 'writelog'), 'WRITELOG');
    assert.equal(knownName('wait', 'LCK_M_RIN_NL'), 'LCK_M_RIn_NL');
    assert.equal(knownName('spinlock', 'LOGCACHE_ACESS'), null);
  });
  it('suggests the nearest known name for a typo, and none for something unlike any name', () => {
    assert.equal(closestName('spinlock', 'LOGCACHE_ACESS'), 'LOGCACHE_ACCESS');
    assert.equal(closestName('wait', 'WRITELGO'), 'WRITELOG');
    assert.equal(closestName('spinlock', 'QQQQQQQQQQQQQQQQQQQQ'), null);
  });
  it('refuses an unknown name unless --any-name, and a wait where a spinlock belongs even then', () => {
    const p = nameProblem('spinlock', 'LOGCACHE_ACESS', '--stacks LOGCACHE_ACESS', false);
    assert.match(p!, /not a spinlock Spinlock Lab knows; did you mean LOGCACHE_ACCESS\?/);
    assert.match(p!, /--any-name/);
    assert.equal(nameProblem('spinlock', 'NEW_IN_2025', 'x', true), null);
    assert.match(nameProblem('spinlock', 'WRITELOG', 'x', true)!, /WRITELOG is a wait type, not a spinlock/);
    assert.match(nameProblem('wait', 'XDESMGR', 'x', false)!, /XDESMGR is a spinlock, not a wait type/);
  });
});

describe('precheck: gates the run can judge', () => {
  const scenario = { kind: 'scenario' as const, mode: 'server-loop' as const, anyName: false };
  it('refuses a misspelt spinlock or wait, which would read 0 and pass', () => {
    const [p] = gateProblems(gates('LOGCACHE_ACESS.spins_per_row<50'), scenario);
    assert.match(p, /--assert "LOGCACHE_ACESS.spins_per_row<50".*did you mean LOGCACHE_ACCESS/);
    assert.equal(gateProblems(gates('WRITELGO.wait_ms_per_row<1'), scenario).length, 1);
    assert.deepEqual(gateProblems(gates('LOGCACHE_ACCESS.spins_per_row<50', 'writelog.wait_ms_per_row<1'), scenario), []);
    assert.deepEqual(gateProblems(gates('NEW_ONE.backoffs_per_row<1'), { ...scenario, anyName: true }), []);
  });
  it('refuses a benign wait, which the per-row figures leave out', () => {
    assert.match(gateProblems(gates('WAITFOR.wait_ms_per_row<1'), scenario)[0], /always read 0/);
  });
  it('refuses a latency in server-loop and calls_per_sec outside a custom workload', () => {
    assert.match(
      gateProblems(gates('p99<5ms'), scenario)[0],
      /server-loop run has no per-call latency; add --mode client-loop|no per-call latency/,
    );
    assert.deepEqual(gateProblems(gates('p99<5ms'), { ...scenario, mode: 'client-loop' }), []);
    assert.deepEqual(gateProblems(gates('p99<5ms', 'calls_per_sec>10'), { ...scenario, kind: 'custom', mode: 'client-loop' }), []);
    assert.match(gateProblems(gates('calls_per_sec>10'), { ...scenario, kind: 'preset' })[0], /a preset counts rows: gate on rows_per_sec/);
  });
  it('judges a gate on a mixed-case wait by the name the server reports', () => {
    const r = runRecord(0, 4);
    r.derived = { ...r.derived, waitMsPerRow: { LCK_M_RIn_NL: 3 } };
    const [res] = evaluateGates(canonicalGates(gates('LCK_M_RIN_NL.wait_ms_per_row<1')), [r]);
    assert.equal(res.ok, false);
    assert.equal(res.actual, '3');
    assert.deepEqual(canonicalGates(gates('lck_m_rin_nl.wait_ms_per_row<1'))[0].metric, {
      kind: 'per-row',
      name: 'LCK_M_RIn_NL',
      stat: 'wait_ms_per_row',
    });
    // A name the catalogue lacks (--any-name) is matched in any case too.
    r.derived = { ...r.derived, spinsPerRow: { New_Mixed: 7 } };
    assert.equal(evaluateGates(gates('NEW_MIXED.spins_per_row<1'), [r])[0].actual, '7');
  });
});

describe('precheck: options that do not apply', () => {
  it('refuses custom-workload options on a scenario or preset, and --client-workers in server-loop', () => {
    const p = inapplicableProblems(
      { ...base, iterations: '5', thinkTime: '1ms', paramsCsv: 'x.csv', clientWorkers: '2' },
      'scenario',
      typed,
    );
    assert.equal(p.length, 4);
    assert.match(p[0], /--iterations goes with a custom workload/);
    assert.match(p[3], /--client-workers .* add --mode client-loop/);
    assert.deepEqual(inapplicableProblems({ ...base, mode: 'client-loop', clientWorkers: '2' }, 'scenario', typed), []);
    assert.match(inapplicableProblems({ ...base, stopOnError: true }, 'preset', typed)[0], /--stop-on-error goes with a custom workload/);
  });
  it('refuses --set, a typed --mode server-loop and --lab-db on a custom workload', () => {
    const p = inapplicableProblems({ ...base, scenario: undefined, sql: ['SELECT 1'], set: ['a=1'] }, 'custom', {
      mode: true,
      labDb: true,
    });
    assert.equal(p.length, 3);
    assert.deepEqual(inapplicableProblems({ ...base, scenario: undefined, sql: ['SELECT 1'] }, 'custom', typed), []);
  });
  it('refuses an option given empty rather than falling back to its default', () => {
    const p = emptyValueProblems({ threads: '', duration: ' ', warmup: '1s' }, [
      ['threads', '--threads'],
      ['duration', '--duration'],
      ['warmup', '--warmup'],
    ]);
    assert.equal(p.length, 2);
    assert.match(p[0], /--threads was given empty/);
  });
  it('refuses a --repeat that is not a whole number from 1 to 100, naming the flag and what to write', () => {
    for (const bad of ['0', '101', '2.5', 'x', '-3'])
      assert.match(repeatProblems(bad)[0], new RegExp(`^--repeat ${bad}: write a whole number .* from 1 to 100, e\\.g\\. --repeat 3`));
    assert.deepEqual(repeatProblems('3'), []);
    assert.deepEqual(repeatProblems('100'), []);
    assert.deepEqual(repeatProblems(undefined), []);
  });
  it('--repeat auto needs a gate; --max-repeat goes with auto (typed, or the default with gates), 2 to 100', () => {
    assert.match(repeatProblems('auto')[0], /^--repeat auto repeats until every --assert gate is decided: give a gate/);
    assert.deepEqual(repeatProblems('auto', '8', 1), []);
    assert.deepEqual(repeatProblems(undefined, '8', 1), []);
    assert.match(repeatProblems('3', '8', 1)[0], /^--max-repeat goes with --repeat auto .*with --repeat 3 leave it out/);
    assert.match(repeatProblems(undefined, '8', 0)[0], /^--max-repeat goes with --repeat auto/);
    for (const bad of ['1', '101', 'x'])
      assert.match(
        repeatProblems('auto', bad, 1)[0],
        new RegExp(`^--max-repeat ${bad}: write a whole number of repetitions from 2 to 100`),
      );
  });
  it('refuses --stacks on an unknown spinlock, and a capture longer than the run allows', () => {
    assert.match(stacksProblems({ ...base, stacks: 'LOGCACHE_ACESS' })[0], /did you mean LOGCACHE_ACCESS/);
    assert.match(
      stacksProblems({ ...base, stacks: 'LOGCACHE_ACCESS', duration: '10s', stacksDuration: '20s' })[0],
      /does not fit in --duration 10s.*9s or less/,
    );
    assert.match(stacksProblems({ ...base, stacks: 'XDESMGR', duration: '1s' })[0], /runs of 2 s or more/);
    assert.deepEqual(stacksProblems({ ...base, stacks: 'XDESMGR', duration: '10s', stacksDuration: '9s' }), []);
  });
});

describe('precheck: output paths', () => {
  it('refuses an --out that is a file, sits under a file, or already holds files; takes a new or empty folder', () => {
    const dir = tmp('precheck');
    fs.writeFileSync(path.join(dir, 'f'), 'x');
    fs.mkdirSync(path.join(dir, 'used'));
    fs.writeFileSync(path.join(dir, 'used', 'samples.jsonl'), '{}\n');
    fs.mkdirSync(path.join(dir, 'empty'));
    assert.match(outDirProblems(path.join(dir, 'f'))[0], /is a file, not a folder/);
    assert.match(outDirProblems(path.join(dir, 'f', 'x'))[0], /is a file, so no folder can be made under it/);
    assert.match(outDirProblems(path.join(dir, 'used'))[0], /already holds files \(samples.jsonl\).*used-2/);
    assert.deepEqual(outDirProblems(path.join(dir, 'empty')), []);
    assert.deepEqual(outDirProblems(path.join(dir, 'new', 'deeper')), []);
    assert.match(outDirProblems('/dev/null/x')[0], /\/dev\/null is a file/);
  });
  it('refuses a --notebook that is a folder, is not .ipynb, or whose folder does not exist', () => {
    const dir = tmp('precheck');
    assert.match(notebookPathProblems(dir)[0], /is a folder/);
    assert.match(notebookPathProblems(path.join(dir, 'n.json'))[0], /ends in \.ipynb \(e\.g\. .*n\.ipynb\)/);
    assert.match(notebookPathProblems(path.join(dir, 'no', 'n.ipynb'))[0], /does not exist/);
    assert.deepEqual(notebookPathProblems(path.join(dir, 'n.ipynb')), []);
    assert.deepEqual(notebookPathProblems(path.join(dir, 'no', 'n.ipynb'), '--notebook', true), []);
  });
});

describe('precheck: claiming the output folder', () => {
  it('gives two runs started in the same millisecond two folders', () => {
    const cwd = process.cwd();
    process.chdir(tmp('precheck'));
    try {
      const now = new Date('2026-11-25T03:00:00.000Z');
      const a = claimOutput(undefined, 'disk-insert', now);
      const b = claimOutput(undefined, 'disk-insert', now);
      assert.notEqual(a.dir, b.dir);
      assert.equal(b.dir, `${a.dir}-2`);
    } finally {
      process.chdir(cwd);
    }
  });
  it('lets one experiment claim an --out folder: a second claim of it is refused', () => {
    const out = path.join(tmp('precheck'), 'res');
    claimOutput(out, 'x');
    assert.throws(() => claimOutput(out, 'x'), /already holds files \(samples\.jsonl\)/);
  });
  it('removes a folder left unused, with the parents it made, and keeps a folder that was there or was used', () => {
    const dir = tmp('precheck');
    const made = claimOutput(path.join(dir, 'a', 'b'), 'x');
    made.releaseIfUnused();
    assert.deepEqual(fs.readdirSync(dir), []);
    fs.mkdirSync(path.join(dir, 'given'));
    claimOutput(path.join(dir, 'given'), 'x').releaseIfUnused();
    assert.deepEqual(fs.readdirSync(path.join(dir, 'given')), []);
    const used = claimOutput(path.join(dir, 'used'), 'x');
    fs.writeFileSync(path.join(dir, 'used', 'experiment.json'), '{}');
    used.releaseIfUnused();
    assert.deepEqual(fs.readdirSync(path.join(dir, 'used')).sort(), ['experiment.json', 'samples.jsonl']);
  });
});
