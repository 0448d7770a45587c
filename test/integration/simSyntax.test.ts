// A typo in a procedure body of a sql/ file fails at deploy with SQL Server's syntax error and the line, through the
// product's own client (DbSession.runFile) against the simulator's grammar check.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DbSession } from '../../src/db/client';
import { DbError } from '../../src/db/dbError';
import { parseSqlFile, sqlRoot } from '../../src/db/sqlFiles';
import { withSim } from '../helpers/simClient';
import { targetFor } from '../helpers/simTarget';

describe('syntax errors at deploy', () => {
  it('a misspelled INSERT in disk-insert/deploy.sql fails with Msg 156 naming the batch line and the file line', () =>
    withSim({}, async (sim) => {
      const text = fs.readFileSync(path.join(sqlRoot(), 'scenarios/disk-insert/deploy.sql'), 'utf8');
      const lines = text.split('\n');
      const at = lines.findIndex((l) => /^\s+INSERT INTO dbo\.spinlab_disk_insert/.test(l));
      lines[at] = lines[at].replace('INSERT', 'INSRT');
      const broken = parseSqlFile('scenarios/disk-insert/deploy', lines.join('\n'));
      // The line within its batch, as the server counts it: from the batch's own first line (the file may change).
      const batchStart = broken.batchLines.filter((l) => l <= at + 1).pop()!;
      const batchLine = at + 1 - batchStart + 1;
      const db = await DbSession.open(targetFor(sim), { database: 'master' });
      try {
        await assert.rejects(db.runFile(broken), (e: unknown) => {
          assert.ok(e instanceof DbError);
          assert.equal(e.number, 156);
          assert.equal(e.severity, 15);
          assert.ok(
            e.message.startsWith(`Msg 156, Level 15, State 1, Line ${batchLine}: Incorrect syntax near the keyword 'INTO'.`),
            e.message,
          );
          assert.ok(e.message.includes(`(sql/scenarios/disk-insert/deploy.sql, line ${at + 1})`), e.message);
          return true;
        });
      } finally {
        await db.close();
      }
    }));
});
