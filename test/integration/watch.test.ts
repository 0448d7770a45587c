// spinlab watch end to end against the simulator with its own background workload: the CLI in process, a login with
// VIEW SERVER STATE only, ticks with moving spinlocks, waits and latches on disk, the server unchanged afterwards as
// another connection sees it; a mark dropped during a watch while the workload changes, and the windows around it
// compared; a login without the permission told the GRANT.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { connect, withSim } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import { startBackground } from '../../tools/sim/model/background';
import { targetFromArgs } from '../../src/cli/commands';
import { runWatch } from '../../src/engine/watch/run';
import { dropMark } from '../../src/engine/watch/marks';
import { diagnoseWatch } from '../../src/shared/watchDiagnosis';
import type { WatchRecord, WatchTick } from '../../src/shared/watch';
import { tmp } from '../helpers/common';
import { connString } from '../helpers/simTarget';
import { mainCli as cli } from '../helpers/cliInProcess';
import { failFile } from '../helpers/simFaults';

const WATCHER = { name: 'watcher', password: 'W4tcher-Pw1!', permissions: ['VIEW SERVER STATE' as const] };
const NOBODY = { name: 'nobody', password: 'N0body-Pw1!', permissions: [] };
const conn = (sim: Simulator, u = WATCHER) => connString(sim, { user: u.name, password: u.password });

/** What a watch must not change, read from another connection (sa): databases, and objects and settings per database. */
async function serverState(sim: Simulator): Promise<string> {
  const pool = await connect(sim);
  try {
    const dbs = (await pool.request().query('SELECT name, database_id, delayed_durability_desc FROM sys.databases')).recordset;
    const out: string[] = dbs.map((d) => `db ${d.name} ${d.database_id} ${d.delayed_durability_desc}`);
    for (const d of dbs) {
      const p = await connect(sim, 'sa', undefined, d.name);
      try {
        const objs = (await p.request().query('SELECT name, object_id, type FROM sys.objects')).recordset;
        out.push(...objs.map((o) => `obj ${d.name}.${o.name} ${o.object_id} ${o.type}`));
      } finally {
        await p.close();
      }
    }
    const nodes = (await pool.request().query('SELECT node_id, online_scheduler_count FROM sys.dm_os_nodes')).recordset;
    out.push(...nodes.map((n) => `node ${n.node_id} ${n.online_scheduler_count}`));
    return out.sort().join('\n');
  } finally {
    await pool.close();
  }
}

function ticksOf(dir: string): WatchTick[] {
  return fs
    .readFileSync(path.join(dir, 'samples.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as WatchTick);
}

describe('spinlab watch against the simulator', function () {
  this.timeout(120_000);
  const state = tmp('state');
  before(() => {
    process.env.SPINLAB_STATE_DIR = state;
  });
  after(() => {
    delete process.env.SPINLAB_STATE_DIR;
  });

  it('watches --background disk-insert:8 for 10 s as a VIEW SERVER STATE login: moving deltas on disk, the server unchanged', () =>
    withSim({ background: [{ scenario: 'disk-insert', sessions: 8 }], logins: [WATCHER] }, async (sim) => {
      const before = await serverState(sim);
      const out = tmp('out');
      const r = await cli(['watch', '-c', conn(sim), '--duration', '10s', '--out', out, '--quiet']);
      assert.equal(r.code, 0, r.stderr);
      const record = JSON.parse(fs.readFileSync(path.join(out, 'experiment.json'), 'utf8')) as WatchRecord;
      assert.equal(record.kind, 'watch');
      assert.equal(record.status, 'completed');
      const ticks = ticksOf(out);
      assert.equal(ticks.length, record.ticks);
      assert.ok(ticks.length >= 8, `a line per tick over 10 s at 1 s, got ${ticks.length}`);
      for (const t of ticks) {
        assert.ok(t.all.spins > 0 && t.all.waitMs > 0 && t.all.latchCount > 0, `tick at ${t.t} ms moved: ${JSON.stringify(t.all)}`);
        assert.ok(Object.keys(t.spinlocks).length > 0 && Object.keys(t.waits).length > 0 && Object.keys(t.latches).length > 0);
        assert.ok(t.logByDb.SpinlabSimBackground?.flushes > 0, 'the background database flushes its log');
        assert.ok(t.requests.length > 0 && t.requests.length <= 10, 'the requests running now, bounded');
      }
      assert.equal(await serverState(sim), before, 'no database, object or setting changed');
      assert.deepEqual([...sim.model.databases.keys()].sort(), ['master', 'model', 'msdb', 'spinlabsimbackground', 'tempdb']);
    }));

  it('--full-ticks creates nothing, not even session temporary tables: it watches with the setup batch refused', () =>
    withSim({ background: [{ scenario: 'disk-insert', sessions: 2 }], logins: [WATCHER] }, async (sim) => {
      // A server where creating #tables is refused: the delta tick cannot start there, the full tick never asks.
      failFile(sim, 'dmv/snapshot-setup', {
        number: 262,
        message: "CREATE TABLE permission denied in database 'tempdb'.",
        class: 14,
      });
      const refused = await cli(['watch', '-c', conn(sim), '--duration', '2s', '--out', tmp('delta'), '--quiet']);
      assert.notEqual(refused.code, 0, 'the delta tick needs its temporary tables');
      const out = tmp('full');
      const r = await cli(['watch', '-c', conn(sim), '--duration', '3s', '--out', out, '--quiet', '--full-ticks']);
      assert.equal(r.code, 0, r.stderr);
      const record = JSON.parse(fs.readFileSync(path.join(out, 'experiment.json'), 'utf8')) as WatchRecord;
      assert.equal(record.settings.fullTicks, true);
      assert.ok(ticksOf(out).length >= 2 && ticksOf(out).every((t) => t.all.spins > 0), 'ticks with moving spinlocks');
    }));

  it('a server gone for a while fails tick after tick: each problem said once, the monitor falls back and backs off, then comes back', () =>
    withSim({ logins: [WATCHER] }, async (sim) => {
      const out = tmp('gone');
      const ac = new AbortController();
      let ticks = 0;
      const result = runWatch(
        {
          target: targetFromArgs(conn(sim), {}),
          outDir: out,
          stateDir: state,
          settings: { intervalMs: 250, durationMs: 8000, topRequests: 10, textChars: 80 },
        },
        ac.signal,
        (p) => {
          if (p.kind === 'tick') ticks++;
        },
      );
      while (ticks < 2) await new Promise((r) => setTimeout(r, 50));
      await sim.faults.refuseConnections(true);
      for (const x of sim.server.sessions().filter((x) => x.appName === 'Spinlock Lab watch')) sim.faults.dropSession(x.spid);
      await new Promise((r) => setTimeout(r, 3000)); // a dozen tick slots: fewer tries, backing off
      await sim.faults.refuseConnections(false);
      const { record } = await result;
      const warnings = record.events.filter((e) => e.level === 'warning').map((e) => e.message);
      const counts = new Map<string, number>();
      for (const w of warnings) counts.set(w, (counts.get(w) ?? 0) + 1);
      assert.ok(
        [...counts.values()].every((n) => n === 1),
        `no message listed twice:\n${warnings.join('\n')}`,
      );
      assert.ok(
        warnings.some((w) => /failed 3 times in a row [\s\S]*in full every tick/.test(w)),
        warnings.join('\n'),
      );
      assert.ok(
        warnings.some((w) => /ticking less often, every 500 ms/.test(w)),
        warnings.join('\n'),
      );
      assert.ok(
        warnings.some((w) => /succeed again after \d+ failed in a row: back to every 250 ms/.test(w)),
        warnings.join('\n'),
      );
      assert.equal(record.monitor?.fallbacks, 2, JSON.stringify(record.monitor));
      assert.ok(
        record.monitor!.failedTicks >= 6 && record.monitor!.failedTicks < 12,
        `backing off, fewer tries than ticks: ${JSON.stringify(record.monitor)}`,
      );
      assert.ok(ticksOf(out).length >= 2, 'the ticks before and after are kept');
    }));

  it('keeps no window in memory: the diagnosis reads the last ticks back from samples.jsonl, and a late mark goes on the last one', () =>
    withSim({ background: [{ scenario: 'disk-insert', sessions: 4 }], logins: [WATCHER] }, async (sim) => {
      const out = tmp('window');
      const ac = new AbortController();
      const { record, history } = await runWatch(
        {
          target: targetFromArgs(conn(sim), {}),
          outDir: out,
          stateDir: state,
          windowTicks: 4,
          settings: { intervalMs: 250, durationMs: null, topRequests: 10, textChars: 80 },
        },
        ac.signal,
        (p) => {
          // A mark dropped as the watch ends: no tick after it reads it, so it goes on the last tick's time.
          if (p.kind === 'tick' && p.index === 8) {
            dropMark(out, 'as it ended');
            ac.abort();
          }
        },
      );
      assert.equal(history.window().length, 0, 'no tick held in memory');
      const ticks = ticksOf(out);
      assert.equal(record.ticks, ticks.length);
      assert.equal(record.marks.at(-1)?.name, 'as it ended');
      assert.equal(record.marks.at(-1)?.t, ticks.at(-1)!.t, 'the late mark is on the last tick of samples.jsonl');
      const fromFile = diagnoseWatch(record.totals, ticks.slice(-4), {
        topology: record.topology,
        majorVersion: record.server.majorVersion,
      });
      assert.deepEqual(
        record.diagnosis,
        fromFile.map((d) => d.text),
      );
    }));

  it('saves a mark dropped during a watch, and comparing the windows around it shows the change', () =>
    withSim({ background: [{ scenario: 'disk-insert', sessions: 4 }], logins: [WATCHER] }, async (sim) => {
      const out = tmp('mark');
      let stopExtra: (() => void) | undefined;
      const ac = new AbortController();
      let marked = false;
      const result = runWatch(
        {
          target: targetFromArgs(conn(sim), {}),
          outDir: out,
          stateDir: state,
          settings: { intervalMs: 250, durationMs: 6000, topRequests: 10, textChars: 80 },
        },
        ac.signal,
        (p) => {
          // Halfway, the workload changes (a ring buffer on a sequence starts) and the user marks it, via the CLI.
          if (p.kind === 'tick' && p.index === 10 && !marked) {
            marked = true;
            stopExtra = startBackground(sim.model, [{ scenario: 'ring-buffer', sessions: 2 }]);
            void cli(['mark', 'ring buffer started']);
          }
        },
      );
      const { record } = await result;
      stopExtra?.();
      assert.equal(record.marks.length, 1);
      assert.equal(record.marks[0].name, 'ring buffer started');
      const saved = JSON.parse(fs.readFileSync(path.join(out, 'experiment.json'), 'utf8')) as WatchRecord;
      assert.deepEqual(saved.marks, record.marks);
      assert.ok(
        ticksOf(out).some((t) => t.marks?.includes(record.marks[0].id)),
        'the tick the mark fell in names it',
      );
      const r = await cli(['watch', '--compare', out, '--mark', 'ring buffer', '--json']);
      assert.equal(r.code, 0, r.stderr);
      const cmp = JSON.parse(r.stdout) as { figures: { key: string; a: number; b: number }[]; summary: string[] };
      const seq = cmp.figures.find((f) => f.key === 'latchMsPerSec:METADATA_SEQUENCE_GENERATOR');
      assert.ok(seq && seq.a === 0 && seq.b > 0, `the sequence latch appears after the mark: ${JSON.stringify(seq)}`);
      assert.ok(
        cmp.summary.some((s) => /METADATA_SEQUENCE_GENERATOR latch wait: only after the mark/.test(s)),
        cmp.summary.join(' | '),
      );
      assert.throws(() => dropMark(tmp('empty'), 'x'), /holds no watch/);

      // The watch as a notebook: valid for nbformat, the mark compared, charts as SVG, no password in it.
      const nbFile = path.join(out, 'watch.ipynb');
      const ex = await cli(['export', out, '--notebook', nbFile]);
      assert.equal(ex.code, 0, ex.stderr);
      const check = spawnSync(
        'python3',
        [
          '-c',
          'import sys, nbformat\nnb = nbformat.read(sys.argv[1], as_version=4)\nnbformat.validate(nb)\nprint("valid", len(nb.cells))',
          nbFile,
        ],
        { encoding: 'utf8' },
      );
      assert.equal(check.status, 0, `nbformat rejects the watch notebook: ${check.stdout}${check.stderr}`);
      const text = fs.readFileSync(nbFile, 'utf8');
      assert.match(text, /ring buffer started/);
      assert.match(text, /METADATA(\\\\)?_SEQUENCE(\\\\)?_GENERATOR latch wait: only after the mark/);
      assert.match(text, /image\/svg\+xml/);
      assert.ok(!text.includes(WATCHER.password), 'no password in the notebook');
    }));

  it('a login without VIEW SERVER STATE is told the GRANT, and nothing is left behind', () =>
    withSim({ logins: [NOBODY], version: 16 }, async (sim) => {
      const out = tmp('denied');
      const r = await cli(['watch', '-c', conn(sim, NOBODY), '--duration', '2s', '--out', out]);
      assert.equal(r.code, 4, `a permission error: ${r.stderr}`);
      assert.match(r.stderr, /lacks VIEW SERVER STATE/);
      assert.match(r.stderr, /GRANT VIEW SERVER PERFORMANCE STATE TO \[nobody\]/);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    }));
});
