// A lab database for the tests of INSERT ... SELECT into the lab's tables: its In-Memory OLTP filegroup, the session
// in it, the disk-insert table deployed (optionally renamed), and the seed and ring-buffer table files run with their
// parameters, each returning its error numbers.
import assert from 'node:assert/strict';
import { loadSqlFile } from '../../src/db/sqlFiles';
import type { ResponseItem, ServerMessage, Value } from '../../tools/sim/tds/contract';
import { execSetup } from './simExec';

export const errorsOf = (items: ResponseItem[]) => (items.filter((x) => x.kind === 'error') as ServerMessage[]).map((e) => e.number);
export const SEED = loadSqlFile('scenarios/disk-insert/seed');
export const RING = loadSqlFile('scenarios/ring-buffer/tables');
const DEPLOY = loadSqlFile('scenarios/disk-insert/deploy').batches;

export async function labTables(rename = (t: string) => t) {
  const x = execSetup();
  for (const b of [
    'CREATE DATABASE lab;',
    'ALTER DATABASE lab ADD FILEGROUP lab_xtp CONTAINS MEMORY_OPTIMIZED_DATA;',
    "ALTER DATABASE lab ADD FILE (NAME = lab_c, FILENAME = N'/x/lab_xtp') TO FILEGROUP lab_xtp;",
  ])
    assert.deepEqual(errorsOf(await x.run(b)), []);
  x.session.database = 'lab';
  for (const b of DEPLOY) assert.deepEqual(errorsOf(await x.run(rename(b))), []);
  const table = (name: string) => x.model.findObject(x.model.database('lab')!, name);
  const seed = async (n: bigint, text = SEED.batches[0]) =>
    errorsOf(await x.run(rename(text), new Map<string, Value>([['@seed_rows', n]]), SEED.parameters));
  // A mutant can loop forever (WHILE over a statement whose overflow, 8115, ends only the statement, as on SQL Server):
  // cut off as a client's query timeout would.
  const ring = async (p: Record<string, Value>, text = RING.batches[0]) =>
    errorsOf(await x.run(text, new Map(Object.entries(p).map(([k, v]) => [`@${k}`, v])), RING.parameters, AbortSignal.timeout(3000)));
  return { ...x, table, seed, ring };
}
