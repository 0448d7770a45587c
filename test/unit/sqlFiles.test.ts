// Every SQL file the product sends is well-formed: a header that says what it is for and what permission it needs,
// parameterised files are one batch, and every file a scenario manifest names exists.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listSqlFiles, loadSqlFile, parseSqlFile, sqlRoot } from '../../src/db/sqlFiles';

it('every sql file has a Purpose and a Permission header and at least one batch', () => {
  const ids = listSqlFiles();
  assert.ok(ids.length >= 20, `expected the full set of SQL files, found ${ids.length}`);
  for (const id of ids) {
    const f = loadSqlFile(id);
    assert.ok(f.purpose.length > 20, `${id}: Purpose too short`);
    assert.ok(f.permission.length > 3, `${id}: Permission missing`);
    assert.ok(f.batches.length >= 1, `${id}: no batches`);
    if (f.parameters) assert.equal(f.batches.length, 1, `${id}: parameterised files are one batch`);
  }
});

it('GO splits batches and the header is parsed', () => {
  const f = parseSqlFile('x/y', '-- Purpose: a test file that does things\n-- Permission: public\nSELECT 1;\nGO\nSELECT 2;\n  go  \n');
  assert.deepEqual(f.batches, ['-- Purpose: a test file that does things\n-- Permission: public\nSELECT 1;', 'SELECT 2;']);
  assert.equal(f.parameters, '');
});

it('a file without a header is refused with its name in the message', () => {
  assert.throws(() => parseSqlFile('bad/file', 'SELECT 1;'), /sql\/bad\/file\.sql: the header must have/);
});

it('a parameterised file with two batches is refused', () => {
  const text = '-- Purpose: two batches with parameters\n-- Permission: public\n-- Parameters: @a int\nSELECT @a;\nGO\nSELECT 1;';
  assert.throws(() => parseSqlFile('bad/two', text), /must be a single batch \(it has 2\)/);
});

it('every file named by a scenario manifest exists', () => {
  const dir = path.join(sqlRoot(), 'scenarios');
  const ids = new Set(listSqlFiles());
  const scenarios = fs.readdirSync(dir);
  assert.deepEqual(scenarios.sort(), ['disk-insert', 'inmem-insert', 'ring-buffer']);
  for (const s of scenarios) {
    const m = JSON.parse(fs.readFileSync(path.join(dir, s, 'manifest.json'), 'utf8'));
    assert.equal(m.id, s);
    for (const step of [...m.deploy, ...m.cleanup]) assert.ok(ids.has(step.sql), `${s}: ${step.sql} is not a file`);
  }
});
