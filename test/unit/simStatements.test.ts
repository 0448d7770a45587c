// Every batch of every file under sql/ must have a simulator handler or be executed (exec/files.ts), never both, so
// adding or changing a file without teaching the simulator fails here.
import assert from 'node:assert/strict';
import { listSqlFiles, loadSqlFile } from '../../src/db/sqlFiles';
import { EXECUTED_FILES } from '../../tools/sim/model/exec/files';
import { FILE_HANDLERS } from '../../tools/sim/model/handlers';
import { recognise } from '../../tools/sim/model/statements';

it('every batch of every sql/ file has a handler or is executed, not both', () => {
  const ids = listSqlFiles();
  assert.ok(ids.length >= 20, `found ${ids.length} sql files`);
  const missing: string[] = [];
  for (const id of ids) {
    const f = loadSqlFile(id);
    const h = FILE_HANDLERS[id];
    if (EXECUTED_FILES.has(id)) {
      if (h) missing.push(`${id} (executed, yet a handler is registered)`);
      continue;
    }
    if (!h) missing.push(`${id} (no handler)`);
    else if (h.length !== f.batches.length) missing.push(`${id}: ${f.batches.length} batches, ${h.length} handlers`);
  }
  assert.deepEqual(missing, []);
});

it('no handler is registered for a file that does not exist', () => {
  const ids = new Set(listSqlFiles());
  assert.deepEqual(
    [...Object.keys(FILE_HANDLERS), ...EXECUTED_FILES].filter((id) => !ids.has(id)),
    [],
  );
});

it('each batch text is recognised as its own (file, batch), with CRLF line ends too', () => {
  for (const id of listSqlFiles()) {
    loadSqlFile(id).batches.forEach((b, i) => {
      assert.deepEqual({ ...recognise(b)!, hasParameters: undefined }, { fileId: id, batch: i, hasParameters: undefined });
      assert.equal(recognise(b.replace(/\n/g, '\r\n'))?.fileId, id);
    });
  }
  assert.equal(recognise('SELECT 1'), undefined);
});
