// sql/watch/tick.sql and tick-delta.sql kept in step, through the simulator's model (no wire): the delta tick reads
// sys.dm_exec_sessions once and leaves the sessions it keeps in #spinlab_skip out of its lists, where the full tick
// joins each list with the view; both must list the same requests and waiting tasks at the same instant, over both of
// the delta tick's snapshot generations. And the delta tick's two generations are the same statements, names swapped.
import assert from 'node:assert/strict';
import { loadSqlFile } from '../../src/db/sqlFiles';
import { startBackground } from '../../tools/sim/model/background';
import { ManualClock } from '../../tools/sim/model/clock';
import { ModelHandler } from '../../tools/sim/model/handler';
import { SimModel } from '../../tools/sim/model/instance';
import type { ResponseItem, ResultSet, RpcParam, SessionContext, SqlType } from '../../tools/sim/tds/contract';

const sig = () => new AbortController().signal;
const sets = (items: ResponseItem[]) => items.filter((x) => x.kind === 'resultSet') as ResultSet[];
const nv = (name: string, value: string): RpcParam => ({
  name,
  value,
  sqlType: { type: 'nvarchar', length: 4000 } as SqlType,
  output: false,
});
const int = (name: string, value: number): RpcParam => ({ name, value, sqlType: { type: 'int' } as SqlType, output: false });

/** The result set whose columns start with these names. */
function setOf(all: ResultSet[], ...names: string[]): ResultSet {
  const s = all.find((r) => names.every((n, i) => r.columns[i]?.name === n));
  assert.ok(s, `a result set with columns ${names.join(', ')}`);
  return s;
}
const text = (s: ResultSet) =>
  JSON.stringify(s.rows, (_k, v) => (typeof v === 'bigint' ? `${v}n` : Buffer.isBuffer(v) ? v.toString('hex') : v));
const shape = (s: ResultSet) => JSON.stringify(s.columns.map((c) => [c.name, c.sqlType]));

/** #spinlab_X and #spinlab_X_now exchanged. */
const swapped = (t: string) =>
  t
    .replace(/#spinlab_(\w+?)_now\b/g, '#@$1')
    .replace(/#spinlab_(\w+)\b/g, '#spinlab_$1_now')
    .replace(/#@/g, '#spinlab_');

/** The watch's own-cost row as it was read before #spinlab_skip kept it. */
const OWN =
  'SELECT s.cpu_time, s.logical_reads, s.reads, s.writes, s.total_scheduled_time FROM sys.dm_exec_sessions AS s WHERE s.session_id = @@SPID;';

describe('the watch tick and its delta tick kept in step', () => {
  it("tick-delta.sql's two snapshot generations are the same statements with each pair's names swapped", () => {
    const batch = loadSqlFile('watch/tick-delta').batches[0];
    const branches = [...batch.matchAll(/^IF @t % 2 = 1\nBEGIN\n([\s\S]*?)^END\nELSE\nBEGIN\n([\s\S]*?)^END;$/gm)];
    assert.equal(branches.length, 2, 'the keyed sets, then the schedulers');
    for (const [, odd, even] of branches) {
      assert.equal(swapped(odd), even);
      assert.match(odd, /INSERT INTO #spinlab_\w+_now\n/, 'odd ticks write the _now tables');
    }
    const written = branches.flatMap(([, odd]) => [...odd.matchAll(/INSERT INTO (#spinlab_\w+)_now\n/g)].map((m) => m[1]));
    assert.deepEqual(written, ['#spinlab_spin', '#spinlab_wait', '#spinlab_latch', '#spinlab_counter', '#spinlab_log', '#spinlab_sched']);
  });

  it('the requests and waiting-task lists differ only in how they leave sessions out', () => {
    const [full, delta] = ['watch/tick', 'watch/tick-delta'].map((f) => loadSqlFile(f).batches[0]);
    const part = (t: string, from: string, to: string) => {
      const i = t.indexOf(from);
      assert.ok(i >= 0, from);
      return t.slice(i, t.indexOf(to, i));
    };
    for (const [from, to] of [
      ['SELECT r.session_id', 'FROM sys.dm_exec_requests AS rq'],
      ['ORDER BY rq.wait_time DESC', ';'],
      ['SELECT TOP (@top_requests) wt.wait_type', 'FROM sys.dm_os_waiting_tasks AS wt'],
      ['GROUP BY wt.wait_type', ';'],
    ])
      assert.equal(part(delta, from, to).replace(/\nOPTION \(KEEPFIXED PLAN\)$/, ''), part(full, from, to), from);
  });

  it('list the same requests and waiting tasks at the same instant, over both generations, and the same own-cost columns', async () => {
    const clock = new ManualClock();
    const model = new SimModel({ password: 'pw', clock, seed: 7 });
    const h = new ModelHandler(model);
    const stop = startBackground(model, [{ scenario: 'disk-insert', sessions: 6 }]);
    const session = (spid: number): SessionContext => {
      model.sessionStarted(spid, 'sa');
      return { spid, login: 'sa', appName: 't', hostName: 'h', encrypted: false, database: 'master', state: new Map() };
    };
    const [watcher, reader] = [session(51), session(52)];
    const run = async (s: SessionContext, file: string) => {
      const f = loadSqlFile(file);
      const params = [nv('@stmt', f.batches[0]), nv('@params', f.parameters), int('@top_requests', 4), int('@text_chars', 100)];
      return sets(await h.rpc(s, 'sp_executesql', params, sig()));
    };
    try {
      await h.sqlBatch(watcher, loadSqlFile('dmv/snapshot-setup').batches[0], sig());
      clock.advance(2000);
      const system = sets(await h.sqlBatch(reader, 'SELECT session_id FROM sys.dm_exec_sessions WHERE is_user_process = 0', sig()))[0];
      assert.ok(system.rows.length > 0, 'the server has system sessions, with requests and waiting tasks of their own');
      const ownView = sets(await h.sqlBatch(reader, OWN, sig()))[0];
      let listed = 0;
      for (let t = 1; t <= 3; t++) {
        const delta = await run(watcher, 'watch/tick-delta');
        const full = await run(watcher, 'watch/tick');
        assert.equal(Number(setOf(delta, 'ticks_kept').rows[0][0]), t - 1);
        const requests = (all: ResultSet[]) => setOf(all, 'session_id', 'status', 'command');
        const waits = (all: ResultSet[]) => setOf(all, 'wait_type', 'tasks', 'max_wait_ms');
        assert.equal(text(requests(delta)), text(requests(full)), `tick ${t}: requests`);
        assert.equal(text(waits(delta)), text(waits(full)), `tick ${t}: waiting tasks by type`);
        assert.equal(shape(requests(delta)), shape(requests(full)));
        assert.equal(shape(waits(delta)), shape(waits(full)));
        const own = setOf(delta, 'cpu_time', 'logical_reads');
        assert.equal(shape(own), shape(ownView), "the own-cost row has sys.dm_exec_sessions' columns and types");
        assert.equal(own.rows.length, 1, "the watcher's own row");
        const ids = requests(delta).rows.map((r) => Number(r[0]));
        assert.ok(
          ids.every((id) => id !== watcher.spid && !system.rows.some((s) => Number(s[0]) === id)),
          'user sessions only',
        );
        listed += ids.length + waits(delta).rows.length;
        clock.advance(1000);
      }
      assert.ok(listed > 0, 'the lists were not empty');
    } finally {
      stop();
    }
  });
});
