// `spinlab sim --uptime 400d`, and #temp tables typed as SQL Server types them: counters past 2^31 on a long-running
// instance; a value outside an integer column's range refused with SQL Server's error (8115, 220) and its statement
// ended while the batch goes on, unless XACT_ABORT (or ARITHABORT without ANSI_WARNINGS) ends the batch.
import assert from 'node:assert/strict';
import { ManualClock } from '../../tools/sim/model/clock';
import { ModelHandler } from '../../tools/sim/model/handler';
import { SimModel } from '../../tools/sim/model/instance';
import { parseUptime } from '../../tools/sim/model/uptime';
import { runSimCommand } from '../../tools/sim/simulator';
import { sessionState } from '../../tools/sim/model/sessionState';
import { loadSqlFile } from '../../src/db/sqlFiles';
import type { ResponseItem, ResultSet, RpcParam, ServerMessage, SessionContext } from '../../tools/sim/tds/contract';

const DAY = 86_400_000;
const INT_MAX = 2 ** 31 - 1;
const sig = () => new AbortController().signal;
const sets = (items: ResponseItem[]) => items.filter((x) => x.kind === 'resultSet') as ResultSet[];
const errors = (items: ResponseItem[]) => items.filter((x) => x.kind === 'error') as ServerMessage[];
const p = (name: string, value: RpcParam['value']): RpcParam => ({
  name,
  value,
  sqlType: { type: 'nvarchar', length: 4000 },
  output: false,
});

function setup(uptimeMs?: number) {
  const clock = new ManualClock();
  const model = new SimModel({ password: 'pw', clock, seed: 7, uptimeMs });
  const h = new ModelHandler(model);
  const s: SessionContext = {
    spid: 51,
    login: 'sa',
    appName: 'test',
    hostName: 'h',
    encrypted: false,
    database: 'master',
    state: new Map(),
  };
  model.sessionStarted(51, 'sa');
  const batch = (text: string) => h.sqlBatch(s, text, sig());
  const delta = () => {
    const f = loadSqlFile('dmv/sample-delta');
    return h.rpc(
      s,
      'sp_executesql',
      [p('@stmt', f.batches[0]), p('@params', f.parameters), p('@db', 'master'), p('@db_physical', null)],
      sig(),
    );
  };
  const count = async (table: string) => Number(sets(await batch(`SELECT COUNT(*) AS n FROM ${table}`))[0].rows[0][0]);
  return { clock, model, h, s, batch, delta, count };
}

/** The snapshot tables as they were before backoffs was typed from the current docs page (int). */
const OLD_SETUP = loadSqlFile('dmv/snapshot-setup').batches[0].replace(/backoffs bigint/g, 'backoffs int');

describe('simulator: --uptime', () => {
  it('parses days, hours, minutes and seconds, and refuses a bare number, zero or more than ten years', () => {
    assert.equal(parseUptime('400d'), 400 * DAY);
    assert.equal(parseUptime('12h'), 12 * 3_600_000);
    assert.equal(parseUptime('30m'), 1_800_000);
    assert.equal(parseUptime('1d12h'), 1.5 * DAY);
    for (const bad of ['400', '0d', '-1d', '4000d', 'd', '']) assert.throws(() => parseUptime(bad), /uptime/, bad);
  });

  it('spinlab sim --uptime refuses a value without a unit, exit code 2, before it listens', async () => {
    let out = '';
    assert.equal(
      await runSimCommand(['--uptime', '400'], (t) => {
        out += t;
      }),
      2,
    );
    assert.match(out, /uptime "400" must be a duration such as 400d/);
  });

  it("400d: the start time 400 days back and a busy server's counters past 2^31, served in their documented types", async () => {
    const { model, batch } = setup(400 * DAY);
    assert.equal(model.startTime.getTime(), Math.floor(model.clock.now() - 400 * DAY));
    const one = async (sql: string) => {
      const r = sets(await batch(sql))[0];
      return { type: r.columns[0].sqlType.type, max: Math.max(...r.rows.map((x) => Number(x[0]))) };
    };
    const checks: [string, string][] = [
      ['SELECT backoffs FROM sys.dm_os_spinlock_stats', 'bigint'],
      ['SELECT spins FROM sys.dm_os_spinlock_stats', 'bigint'],
      ['SELECT collisions FROM sys.dm_os_spinlock_stats', 'bigint'],
      ['SELECT waiting_tasks_count FROM sys.dm_os_wait_stats', 'bigint'],
      ['SELECT wait_time_ms FROM sys.dm_os_wait_stats', 'bigint'],
      ['SELECT waiting_requests_count FROM sys.dm_os_latch_stats', 'bigint'],
      ['SELECT total_cpu_usage_ms FROM sys.dm_os_schedulers', 'bigint'],
      ['SELECT cntr_value FROM sys.dm_os_performance_counters', 'bigint'],
      ['SELECT num_of_bytes_written FROM sys.dm_io_virtual_file_stats(NULL, NULL)', 'bigint'],
      ['SELECT ms_ticks FROM sys.dm_os_sys_info', 'bigint'],
      ['SELECT cpu_ticks FROM sys.dm_os_sys_info', 'bigint'],
    ];
    for (const [sql, type] of checks) {
      const r = await one(sql);
      assert.equal(r.type, type, sql);
      assert.ok(r.max > INT_MAX, `${sql}: ${r.max} is past 2^31`);
    }
    // Every other column of these views still fits its type (the wire layer would refuse it otherwise).
    for (const v of ['sys.dm_os_schedulers', 'sys.dm_os_sys_info', 'sys.dm_exec_requests', 'sys.dm_os_performance_counters']) {
      assert.equal(errors(await batch(`SELECT * FROM ${v}`)).length, 0, v);
    }
    model.restart();
    assert.equal(model.startTime.getTime(), Math.floor(model.clock.now()), 'a restart starts the clock again');
    assert.ok((await one('SELECT backoffs FROM sys.dm_os_spinlock_stats')).max < INT_MAX);
  });

  it('without it the instance starts now, as before', async () => {
    const { model, batch } = setup();
    assert.equal(model.startTime.getTime(), Math.floor(model.clock.now()));
    const r = sets(await batch('SELECT backoffs FROM sys.dm_os_spinlock_stats'))[0];
    assert.ok(r.rows.every((x) => Number(x[0]) < 1000));
  });
});

describe('simulator: #temp tables typed as SQL Server types them', () => {
  it('the old int backoffs column: the delta tick fails with Msg 8115, level 16, and the rest of its batch still runs', async () => {
    const { batch, delta, count } = setup(400 * DAY);
    assert.deepEqual(errors(await batch(OLD_SETUP)), []);
    const items = await delta();
    const errs = errors(items);
    assert.deepEqual(
      errs.map((e) => [e.number, e.class, e.state, e.message]),
      [[8115, 16, 2, 'Arithmetic overflow error converting expression to data type int.']],
    );
    // Statement-terminating (docs: SET ARITHABORT, ANSI_WARNINGS ON): what follows the INSERT ran.
    assert.ok(sets(items).length > 10, 'the result sets after the failed INSERT are sent');
    assert.equal(await count('#spinlab_spin'), 0, 'the failed INSERT stored no row');
    assert.ok((await count('#spinlab_wait')) > 0, 'the waits after it were read and kept');
    assert.equal(await count('#spinlab_tick'), 1);
  });

  it('the current bigint column takes the same values: no error', async () => {
    const { batch, delta, count } = setup(400 * DAY);
    await batch(loadSqlFile('dmv/snapshot-setup').batches[0]);
    assert.deepEqual(errors(await delta()), []);
    assert.ok((await count('#spinlab_spin')) > 0);
  });

  it('XACT_ABORT ON, or ARITHABORT ON with ANSI_WARNINGS OFF, ends the batch at the overflow', async () => {
    for (const opts of [{ XACT_ABORT: 'ON' }, { ANSI_WARNINGS: 'OFF', ARITHABORT: 'ON' }]) {
      const { s, batch, delta, count } = setup(400 * DAY);
      await batch(OLD_SETUP);
      for (const [k, v] of Object.entries(opts)) sessionState(s).options.set(k, v);
      const items = await delta();
      assert.equal(errors(items)[0]?.number, 8115, JSON.stringify(opts));
      assert.equal(items.at(-1)?.kind, 'error', `${JSON.stringify(opts)}: nothing after the error`);
      assert.equal(await count('#spinlab_wait'), 0, JSON.stringify(opts));
    }
  });

  it('integer literals and expressions out of range: 220 into smallint and tinyint, 8115 into int; bit takes any number', async () => {
    const { batch, count } = setup(400 * DAY);
    await batch('CREATE TABLE #t (a smallint NULL, b tinyint NULL, c bit NULL, d int NULL, e bigint NULL)');
    const msg = async (sql: string) => errors(await batch(sql)).map((e) => `${e.number}/${e.class}: ${e.message}`);
    assert.deepEqual(await msg('INSERT INTO #t (a) VALUES (40000)'), [
      '220/16: Arithmetic overflow error for data type smallint, value = 40000.',
    ]);
    assert.deepEqual(await msg('INSERT INTO #t (b) VALUES (-1)'), ['220/16: Arithmetic overflow error for data type tinyint, value = -1.']);
    assert.deepEqual(await msg('INSERT INTO #t (d) VALUES (2147483648)'), [
      '8115/16: Arithmetic overflow error converting expression to data type int.',
    ]);
    assert.deepEqual(await msg('INSERT INTO #t (d) SELECT sl.backoffs FROM sys.dm_os_spinlock_stats AS sl'), [
      '8115/16: Arithmetic overflow error converting expression to data type int.',
    ]);
    assert.equal(await count('#t'), 0, 'no failed INSERT stored a row, not even the rows before the one out of range');
    assert.deepEqual(await msg('INSERT INTO #t (a, b, c, d, e) VALUES (32767, 255, 5, 2147483647, 9223372036854775807)'), []);
    assert.deepEqual(await msg('INSERT INTO #t (e) SELECT sl.backoffs FROM sys.dm_os_spinlock_stats AS sl'), []);
    const row = sets(await batch('SELECT a, b, c, d FROM #t WHERE a = 32767'))[0].rows[0];
    assert.deepEqual(row, [32767, 255, true, 2147483647]);
  });
});
