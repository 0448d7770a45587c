// Azure SQL Managed Instance end to end against `spinlab sim --platform managed-instance`: check reports it (not
// "older than SQL Server 2016") with every feature's state and what differs there; the simulator refuses what Managed
// Instance refuses; disk-insert and inmem-insert deploy and run with the lab's counters read under their GUID names;
// drop-lab drops the lab without SINGLE_USER, ending the sessions still in it; a watch names databases, not GUIDs.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import schema from '../../schema/check-report.schema.json';
import type { CheckReport } from '../../src/engine/check';
import type { Experiment } from '../../src/shared/experiment';
import type { WatchTick } from '../../src/shared/watch';
import type { Simulator } from '../../tools/sim/simulator';
import { connect, withSim } from '../helpers/simClient';
import { tmp } from '../helpers/common';
import { connString } from '../helpers/simTarget';
import { programCli } from '../helpers/cliInProcess';

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const validate = ajv.compile<CheckReport>(schema);
const MI = { platform: 'managed-instance' as const };
const LAB = 'SpinlockLab';

/** `spinlab ...` through the program, with what it wrote to stdout and stderr in one text. */
async function cli(args: string[]): Promise<{ code: number; out: string }> {
  const r = await programCli(args);
  return { code: r.code, out: r.out + r.err };
}

/** The SQL Server error number a statement gets, or 0 when it runs. */
async function errorOf(sim: Simulator, text: string, database?: string): Promise<number> {
  const pool = await connect(sim, 'sa', undefined, database);
  try {
    await pool.request().batch(text);
    return 0;
  } catch (e) {
    return (e as { number?: number }).number ?? -1;
  } finally {
    await pool.close();
  }
}

describe('Azure SQL Managed Instance (spinlab sim --platform managed-instance)', function () {
  this.timeout(180_000);

  it('check as sa: reports a Managed Instance, every feature and what differs there; exit 0; --json matches the schema', () =>
    withSim(MI, async (sim) => {
      const text = await cli(['check', '-c', connString(sim)]);
      assert.equal(text.code, 0, text.out);
      assert.match(text.out, /^Server: Azure SQL Managed Instance \(12\.0\.2000\.8\), SQL Azure; EngineEdition 8/m);
      assert.doesNotMatch(text.out, /older than SQL Server 2016/);
      for (const id of ['sample', 'deploy', 'affinity', 'delayed-durability', 'in-memory', 'watch', 'event-sessions']) {
        assert.match(text.out, new RegExp(`^ {2}(ok|NO) {2}${id} `, 'm'), `the state of ${id}`);
      }
      assert.match(text.out, /NO {2}affinity .*\(not asked\)/);
      assert.match(text.out, /refuses ALTER DATABASE \.\.\. SET RECOVERY SIMPLE/);
      assert.match(text.out, /refuses SET SINGLE_USER/);
      assert.match(text.out, /memory-optimized filegroup \(XTP\)/);
      assert.match(text.out, /physical_database_name \(a GUID\)/);
      const json = await cli(['check', '-c', connString(sim), '--json']);
      const report = JSON.parse(json.out) as CheckReport;
      assert.ok(validate(report), ajv.errorsText(validate.errors));
      assert.equal(report.supported, true);
      assert.equal(report.server.azure, 'managed-instance');
      assert.equal(report.server.majorVersion, 12);
      assert.equal(report.server.serviceTier, 'BusinessCritical');
      assert.ok(!report.asked.includes('affinity'));
      assert.equal(report.ok, true);
      // The 2022 permission names are asked there: Managed Instance runs the newest engine.
      assert.equal(report.permissions.find((p) => p.name === 'VIEW SERVER PERFORMANCE STATE')?.has, true);
      const affinity = await cli(['check', '-c', connString(sim), '--feature', 'affinity']);
      assert.equal(affinity.code, 1, 'asked by name, affinity counts');
    }));

  it('the simulator refuses what Managed Instance refuses, with its numbers, and names counters by physical_database_name', () =>
    withSim(MI, async (sim) => {
      sim.model.createDatabase('Scratch');
      assert.equal(await errorOf(sim, 'ALTER DATABASE Scratch SET RECOVERY SIMPLE;'), 5008);
      assert.equal(await errorOf(sim, 'ALTER DATABASE Scratch SET SINGLE_USER WITH ROLLBACK IMMEDIATE;'), 5008);
      assert.equal(await errorOf(sim, 'ALTER SERVER CONFIGURATION SET PROCESS AFFINITY CPU = AUTO;'), 40510);
      const pool = await connect(sim);
      try {
        const props = (
          await pool.request()
            .query(`SELECT CAST(SERVERPROPERTY('EngineEdition') AS int) AS e, CAST(SERVERPROPERTY('ProductMajorVersion') AS nvarchar(8)) AS v,
          CAST(SERVERPROPERTY('Edition') AS nvarchar(128)) AS ed, @@VERSION AS banner`)
        ).recordset[0];
        assert.deepEqual([props.e, props.v, props.ed], [8, '12', 'SQL Azure']);
        assert.match(props.banner, /Spinlock Lab simulator imitating Azure SQL Managed Instance/);
        const db = (await pool.request().query("SELECT physical_database_name FROM sys.databases WHERE name = 'Scratch'")).recordset[0];
        assert.match(db.physical_database_name, /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
        const counters = (
          await pool
            .request()
            .query("SELECT RTRIM(instance_name) AS i FROM sys.dm_os_performance_counters WHERE counter_name = 'Log Flushes/sec'")
        ).recordset.map((r) => r.i);
        assert.ok(counters.includes(db.physical_database_name) && !counters.includes('Scratch'), counters.join(', '));
        const fg = (await pool.request().query("USE Scratch; SELECT name FROM sys.filegroups WHERE type = N'FX';")).recordset.map(
          (r) => r.name,
        );
        assert.deepEqual(fg, ['XTP'], 'the service adds the memory-optimized filegroup');
      } finally {
        await pool.close();
      }
    }));

  it("SQL Server accepts the same statements (the refusals are the platform's)", () =>
    withSim({}, async (sim) => {
      sim.model.createDatabase('Scratch');
      assert.equal(await errorOf(sim, 'ALTER DATABASE Scratch SET RECOVERY SIMPLE;'), 0);
      assert.equal(await errorOf(sim, 'ALTER SERVER CONFIGURATION SET PROCESS AFFINITY CPU = AUTO;'), 0);
      assert.equal(sim.model.database('Scratch')?.recovery, 'SIMPLE');
    }));

  it('run disk-insert and inmem-insert deploy and run there (lab counters read under their GUID), then drop-lab drops the lab with sessions still in it', () =>
    withSim(MI, async (sim) => {
      for (const scenario of ['disk-insert', 'inmem-insert']) {
        const out = tmp(scenario);
        const r = await cli([
          'run',
          '-c',
          connString(sim),
          '--scenario',
          scenario,
          '--threads',
          '1,2',
          '--duration',
          '2s',
          '--warmup',
          '500ms',
          '--out',
          out,
        ]);
        assert.equal(r.code, 0, r.out);
        const e = JSON.parse(fs.readFileSync(path.join(out, 'experiment.json'), 'utf8')) as Experiment;
        assert.equal(e.server.engineEdition, 8);
        assert.equal(e.runs.length, 2);
        for (const run of e.runs) {
          assert.equal(run.status, 'completed');
          assert.ok(run.totals.rows > 0, `${scenario}: rows`);
          // Log flushes (and transactions, which natively compiled procedures do not count) come only from the lab
          // database's *:Databases counters.
          assert.ok(run.totals.logFlushes > 0, `${scenario}: the lab's log counters were read`);
          if (scenario === 'disk-insert') assert.ok(run.totals.transactions > 0, "the lab's Transactions/sec was read");
        }
      }
      const lab = sim.model.database(LAB)!;
      assert.equal(lab.recovery, 'FULL', 'Managed Instance keeps the lab in FULL recovery');
      assert.ok(lab.hasXtpFilegroup);
      // More sessions in the lab than the drop's retries end one by one: they are ended before the DROP.
      const holders = await Promise.all(Array.from({ length: 6 }, () => connect(sim, 'sa', undefined, LAB)));
      for (const h of holders) await h.request().query('SELECT 1');
      const dropped = await cli(['drop-lab', '-c', connString(sim)]);
      assert.equal(dropped.code, 0, dropped.out);
      assert.equal(sim.model.database(LAB), undefined);
      for (const h of holders) {
        await assert.rejects(h.request().query('SELECT 1'), 'the sessions in the lab were ended');
        await h.close().catch(() => undefined);
      }
    }));

  it('a watch names each database by its name, not the GUID its counters carry', () =>
    withSim({ ...MI, background: [{ scenario: 'disk-insert', sessions: 4 }] }, async (sim) => {
      const out = tmp('watch');
      process.env.SPINLAB_STATE_DIR = tmp('state');
      try {
        const r = await cli(['watch', '-c', connString(sim), '--duration', '4s', '--out', out, '--quiet']);
        assert.equal(r.code, 0, r.out);
      } finally {
        delete process.env.SPINLAB_STATE_DIR;
      }
      const ticks = fs
        .readFileSync(path.join(out, 'samples.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as WatchTick);
      assert.ok(ticks.length >= 2);
      const physical = sim.model.database('SpinlabSimBackground')!.physicalName;
      for (const t of ticks) {
        assert.ok(t.logByDb.SpinlabSimBackground?.flushes > 0, `named by its name: ${Object.keys(t.logByDb).join(', ')}`);
        assert.equal(t.logByDb[physical], undefined);
      }
    }));
});
