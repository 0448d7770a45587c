// The engine's small pure parts: the restore journal on disk, scenario resolution, the SQL parameter declarations
// the driver module binds, and the GRANT a permission error names.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { deleteJournal, listJournals, readJournal, serverKey, writeJournal } from '../../src/engine/journal';
import { deploySteps, getScenario, needsXtp, rowsPerCall, workloadProcedure, defaultParameters } from '../../src/engine/scenarios';
import { parseParameterDeclaration } from '../../src/db/params';
import { grantFor } from '../../src/engine/errors';

it('the journal survives a round trip and is keyed by server', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-journal-'));
  const key = serverKey('127.0.0.1,14330', 'SIM');
  assert.equal(readJournal(dir, key), null);
  writeJournal(dir, {
    version: 1,
    serverKey: key,
    serverAddress: '127.0.0.1,14330',
    serverName: 'SIM',
    labDatabase: 'SpinlockLab',
    createdAt: '2026-11-22T00:00:00Z',
    pid: 42,
    original: { delayedDurability: 'DISABLED', affinity: { type: 'AUTO', cpus: [0, 1, 2] } },
    changes: ['affinity'],
  });
  const j = readJournal(dir, key);
  assert.deepEqual(j?.original.affinity, { type: 'AUTO', cpus: [0, 1, 2] });
  assert.equal(readJournal(dir, serverKey('127.0.0.1,14331', 'SIM')), null, 'another server has no journal');
  deleteJournal(dir, key);
  assert.equal(readJournal(dir, key), null);
});

it('a journal that cannot be written says where, why, that nothing was changed, and how to fix it, leaving no temporary file', () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-journal-'));
  fs.writeFileSync(path.join(parent, 'a-file'), '');
  const key = serverKey('h,1', 'S');
  const j = {
    version: 1 as const,
    serverKey: key,
    serverAddress: 'h,1',
    serverName: 'S',
    labDatabase: 'L',
    createdAt: '',
    pid: 1,
    original: { delayedDurability: null, affinity: { type: 'AUTO' as const, cpus: [] } },
    changes: [],
  };
  assert.throws(
    () => writeJournal(path.join(parent, 'a-file'), j),
    /Could not write the restore journal .*a part of its path is a file, not a folder \(ENOTDIR\)\. It is written before any setting changes, so nothing was changed\.\n {2}How to fix: set SPINLAB_STATE_DIR/,
  );
  // A journal folder on a full disk: the temporary file is what fails, and it does not stay behind.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-journal-'));
  fs.mkdirSync(path.join(dir, 'journal'));
  const file = path.join(dir, 'journal', `${key.replace(/[^a-z0-9._-]+/gi, '_')}.json`);
  fs.symlinkSync('/dev/full', `${file}.${process.pid}.tmp`);
  assert.throws(() => writeJournal(dir, j), /the disk is full \(ENOSPC\)/);
  assert.deepEqual(fs.readdirSync(path.join(dir, 'journal')), []);
});

it('a corrupt journal is an error that says what to do, not a crash or a silent skip', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-journal-'));
  const key = serverKey('h,1', 'S');
  writeJournal(dir, {
    version: 1,
    serverKey: key,
    serverAddress: 'h,1',
    serverName: 'S',
    labDatabase: 'L',
    createdAt: '',
    pid: 1,
    original: { delayedDurability: null, affinity: { type: 'AUTO', cpus: [] } },
    changes: [],
  });
  const file = fs.readdirSync(path.join(dir, 'journal')).map((f) => path.join(dir, 'journal', f))[0];
  fs.writeFileSync(file, '{ not json');
  // The file cannot be read, so the fix says what to check by hand and to delete it, never to restore "from it".
  assert.throws(
    () => readJournal(dir, key),
    /cannot be read [^\n]*\n {2}How to fix: check process affinity and delayed durability on the lab database by hand .* then delete /,
  );
});

it("a damaged journal of one server does not stop the listing of the others (restore's 'journals exist for')", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spinlab-journal-'));
  const original = { delayedDurability: null, affinity: { type: 'AUTO' as const, cpus: [] } };
  const base = {
    version: 1 as const,
    serverAddress: 'h,1',
    serverName: 'S',
    labDatabase: 'L',
    createdAt: '',
    pid: 1,
    original,
    changes: [],
  };
  writeJournal(dir, { ...base, serverKey: serverKey('h,1', 'S') });
  writeJournal(dir, { ...base, serverKey: serverKey('h,2', 'T'), serverAddress: 'h,2' });
  fs.writeFileSync(path.join(dir, 'journal', 'h_2_t.json'), 'garbage');
  assert.deepEqual(
    listJournals(dir).map((j) => j.serverAddress),
    ['h,1'],
  );
});

it('ring-buffer resolves its deploy files, features, procedure and rows per call from the parameters', () => {
  const m = getScenario('ring-buffer');
  const v = { ...defaultParameters(m), storage: 'memory', slot_source: 'identity', mode: 'push' };
  assert.deepEqual(deploySteps(m, v), [
    'scenarios/ring-buffer/tables',
    'scenarios/ring-buffer/procs-memory-identity',
    'scenarios/ring-buffer/procs-loop',
  ]);
  assert.equal(needsXtp(m, v), true);
  assert.equal(needsXtp(m, { ...v, storage: 'disk', slot_source: 'sequence' }), false);
  assert.equal(rowsPerCall(m, v), 1);
  assert.equal(rowsPerCall(m, { ...v, mode: 'push-pop' }), 2);
  assert.equal(workloadProcedure(m, 'client-loop', v).name, 'dbo.spinlab_ring_step');
});

it('inmem-insert picks native or interpreted procedures; disk-insert skips seeding at 0 rows', () => {
  const im = getScenario('inmem-insert');
  assert.equal(
    workloadProcedure(im, 'server-loop', { ...defaultParameters(im), procs: 'interpreted' }).name,
    'dbo.spinlab_inmem_insert_loop_interpreted',
  );
  assert.equal(workloadProcedure(im, 'client-loop', defaultParameters(im)).name, 'dbo.spinlab_inmem_insert_native');
  const d = getScenario('disk-insert');
  assert.deepEqual(deploySteps(d, { ...defaultParameters(d), seed_rows: 0 }), ['scenarios/disk-insert/deploy']);
  // A usage error (spinlab exits 2), not a failure of the server.
  assert.throws(
    () => getScenario('nope'),
    (e: Error) =>
      e.name === 'ParamError' && /Unknown scenario 'nope'. Known scenarios: disk-insert, inmem-insert, ring-buffer/.test(e.message),
  );
});

it('parameter declarations parse, including types with a length', () => {
  assert.deepEqual(parseParameterDeclaration('@db sysname, @mode nvarchar(16), @n bigint'), [
    ['db', 'sysname'],
    ['mode', 'nvarchar(16)'],
    ['n', 'bigint'],
  ]);
  assert.deepEqual(parseParameterDeclaration(''), []);
  assert.throws(() => parseParameterDeclaration('db sysname'), /bad parameter declaration/);
});

it('a missing permission names the GRANT for the version', () => {
  assert.match(grantFor('VIEW SERVER STATE', 'bob', 15), /GRANT VIEW SERVER STATE TO \[bob\]/);
  assert.match(grantFor('VIEW SERVER STATE', 'bob', 16), /GRANT VIEW SERVER PERFORMANCE STATE TO \[bob\]/);
  assert.match(grantFor('ALTER SETTINGS', 'a]b', 16), /GRANT ALTER SETTINGS TO \[a\]\]b\]/);
});
