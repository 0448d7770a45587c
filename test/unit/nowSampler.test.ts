// The Now view's sampler (engine/now/sampler.ts) over recorded result sets: a baseline, then deltas subtracted on the
// client into the history; a restarted server starts the history again; a missing permission names the GRANT.
import assert from 'node:assert/strict';
import { NOW_SQL, NowSampler, type NowReader } from '../../src/engine/now/sampler';
import { NowHistory } from '../../src/shared/nowHistory';
import { SpinlabError } from '../../src/shared/spinlabError';
import type { ResultSets } from '../../src/db/rows';

function sets(msTicks: number, spins: number, writelogMs: number, start = '2026-12-01T00:00:00'): ResultSets {
  return [
    [{ server_time_utc: '2026-12-08T09:00:00', ms_ticks: msTicks, cpu_ticks: msTicks * 1000, sqlserver_start_time: start }],
    [{ name: 'LOGCACHE_ACCESS', collisions: spins / 100, spins, sleep_time: 0, backoffs: spins / 1000 }],
    [{ wait_type: 'WRITELOG', waiting_tasks_count: writelogMs / 2, wait_time_ms: writelogMs, max_wait_time_ms: 5, signal_wait_time_ms: 0 }],
    [],
    [{ scheduler_id: 0, cpu_id: 0, parent_node_id: 0, is_online: true, total_cpu_usage_ms: msTicks / 2, runnable_tasks_count: 0 }],
  ];
}

function reader(answers: (ResultSets | Error)[]): NowReader & { ids: string[] } {
  const ids: string[] = [];
  return {
    ids,
    runFile: (id: string) => {
      ids.push(id);
      const a = answers.shift()!;
      return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
    },
  };
}

describe('the Now sampler', () => {
  let clock = 1_000_000;
  const ctx = { login: 'reader', majorVersion: 16, now: () => (clock += 1000) };

  it('takes a baseline, then subtracts on the client: per-second figures in the history', async () => {
    const h = new NowHistory();
    const s = new NowSampler(h);
    const r = reader([sets(10_000, 1_000_000, 500), sets(11_000, 2_200_000, 950)]);
    assert.deepEqual(await s.step(r, ctx), { kind: 'baseline' });
    assert.deepEqual(await s.step(r, ctx), { kind: 'delta' });
    assert.deepEqual(r.ids, [NOW_SQL, NOW_SQL]);
    const f = h.figures(clock);
    assert.equal(f.spinlocks[0].name, 'LOGCACHE_ACCESS');
    assert.equal(f.spinlocks[0].perSec, 1_200_000);
    assert.equal(f.waits[0].perSec, 450);
    assert.equal(f.cpuByNode['0'], 50);
  });

  it('a restarted server starts the history again', async () => {
    const h = new NowHistory();
    const s = new NowSampler(h);
    const r = reader([sets(10_000, 1_000, 5), sets(11_000, 2_000, 6), sets(500, 10, 1, '2026-12-08T08:59:59')]);
    await s.step(r, ctx);
    await s.step(r, ctx);
    assert.equal(h.since !== null, true);
    const step = await s.step(r, ctx);
    assert.equal(step.kind, 'restart');
    assert.equal(h.since, null);
  });

  it('a missing permission is said with the GRANT that fixes it', async () => {
    const s = new NowSampler(new NowHistory());
    const r = reader([new Error("VIEW SERVER PERFORMANCE STATE permission was denied on object 'server', database 'master'.")]);
    await assert.rejects(s.step(r, ctx), (e: unknown) => {
      assert.ok(e instanceof SpinlabError);
      assert.equal(e.category, 'permission');
      assert.match(e.hint ?? '', /GRANT VIEW SERVER PERFORMANCE STATE TO \[reader\]/);
      return true;
    });
  });
});
