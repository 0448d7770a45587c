// The panel's Watch mode through LabController, as the panel drives it (messages through receive), against the
// simulator with its own background workload: ticks posted live, a mark saved, the watch saved as a notebook, a
// reloaded webview given the recent ticks, and the server unchanged as another connection sees it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { connect, withSim } from '../helpers/simClient';
import type { Simulator } from '../../tools/sim/simulator';
import { ask, connectedController, resultOf, waitFor } from '../helpers/host';
import type { WatchCompareRequest } from '../../src/shared/watchWindows';
import { fakePorts, tmpDir } from '../unit/host/fakePorts';
import type { WatchRecord } from '../../src/shared/watch';
import { startBackground } from '../../tools/sim/model/background';
import { compareAroundMark } from '../../src/engine/watch/read';

const WATCHER = { name: 'watcher', password: 'W4tcher-Pw1!', permissions: ['VIEW SERVER STATE' as const] };

/** Databases and every database's objects, read from another connection (sa). */
async function serverObjects(sim: Simulator): Promise<string> {
  const pool = await connect(sim);
  try {
    const dbs = (await pool.request().query('SELECT name, database_id FROM sys.databases')).recordset;
    const out: string[] = dbs.map((d) => `db ${d.name} ${d.database_id}`);
    for (const d of dbs) {
      const p = await connect(sim, 'sa', undefined, d.name);
      try {
        out.push(
          ...(await p.request().query('SELECT name, object_id, type FROM sys.objects')).recordset.map(
            (o) => `obj ${d.name}.${o.name} ${o.type}`,
          ),
        );
      } finally {
        await p.close();
      }
    }
    return out.sort().join('\n');
  } finally {
    await pool.close();
  }
}

describe('the Watch mode of the panel (host)', function () {
  this.timeout(60_000);

  it('starts a watch of the connected server, posts its ticks, saves a mark and a notebook, and changes nothing on the server', () =>
    withSim({ background: [{ scenario: 'disk-insert', sessions: 8 }], logins: [WATCHER] }, async (sim) => {
      const before = await serverObjects(sim);
      const ports = fakePorts();
      const c = await connectedController(sim, ports, tmpDir('state'), WATCHER.name, WATCHER.password);
      try {
        assert.equal(ports.lastState().connection.status, 'connected', JSON.stringify(ports.lastState().connection.error));
        await c.receive({ type: 'watchStart', payload: { intervalMs: 250, showBenign: false } });
        await waitFor('three watch ticks', () => ports.ofType('watchTick').length >= 3);
        assert.equal(ports.lastState().watch?.status, 'running', ports.lastState().watch?.message);
        const said = ports.ofType('state').map((m) => m.payload.state.watch?.message ?? '');
        assert.ok(
          said.some((m) => /every 250 ms until Stop/.test(m)) && !said.some((m) => /Ctrl\+C/.test(m)),
          'the panel is told to Stop, not Ctrl+C',
        );
        const ticks = ports.ofType('watchTick').map((m) => m.payload.tick);
        assert.ok(
          ticks.some((t) => t.all.spins > 0 && t.all.waitMs > 0 && t.all.latchMs > 0),
          'the background workload moves spinlocks, waits and latches',
        );

        await c.receive({ type: 'watchMark', payload: { name: 'index rebuilt' } });
        await waitFor('the mark in the state', () => (ports.lastState().watch?.marks.length ?? 0) === 1);
        assert.equal(ports.lastState().watch!.marks[0].name, 'index rebuilt');

        await c.receive({ type: 'ready', payload: {} });
        assert.ok(ports.lastState().watch!.recent.length >= 3, 'a reloaded webview gets the recent ticks');
        await c.receive({ type: 'watchBenign', payload: { show: true } });
        assert.equal(ports.lastState().watch!.recent.length, 0, 'an ordinary snapshot leaves the ticks out');
        assert.equal(ports.lastState().watch!.showBenign, true);

        await c.receive({ type: 'watchStop', payload: {} });
        await waitFor('the watch to end', () => ports.lastState().watch?.status === 'cancelled');
        const w = ports.lastState().watch!;
        assert.match(w.id, /-watch$/);
        assert.ok(ports.ofType('watchTick').every((m) => m.payload.watchId === w.id));
        assert.ok(
          w.cost && w.cost.cpuMsPerTick > 0 && w.cost.serverCpuMsPerTick > 0,
          `the panel shows what the watch cost: ${JSON.stringify(w.cost)}`,
        );
        assert.equal(ports.lastState().lastError, null, JSON.stringify(ports.lastState().lastError));

        const nb = path.join(tmpDir('nb'), 'watch.ipynb');
        ports.saveFileAnswer = nb;
        await c.receive({ type: 'watchSaveNotebook', payload: {} });
        assert.deepEqual(ports.opened, [nb]);
        const cells = JSON.parse(fs.readFileSync(nb, 'utf8')).cells as { source: string | string[] }[];
        assert.match(cells.map((x) => [x.source].flat().join('')).join('\n'), /index rebuilt/, 'the notebook shows the mark');
        assert.match(
          cells.map((x) => [x.source].flat().join('')).join('\n'),
          /## What the watch cost the server\n\nSpinlock Lab's own session cost the server/,
          'and what the watch cost',
        );

        const dir = path.join(ports.settingsValue.resultsFolder, 'watches');
        const [folder] = fs.readdirSync(dir);
        const record = JSON.parse(fs.readFileSync(path.join(dir, folder, 'experiment.json'), 'utf8')) as WatchRecord;
        assert.equal(record.kind, 'watch');
        assert.deepEqual(
          record.marks.map((m) => m.name),
          ['index rebuilt'],
        );
        const lines = fs
          .readFileSync(path.join(dir, folder, 'samples.jsonl'), 'utf8')
          .trim()
          .split('\n');
        assert.equal(lines.length, record.ticks);
      } finally {
        await c.dispose();
      }
      assert.equal(await serverObjects(sim), before, 'the watch created nothing on the server');
    }));

  it('refuses a mark when no watch runs, with what to do', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      const c = await connectedController(sim, ports, tmpDir('state'));
      try {
        await c.receive({ type: 'watchMark', payload: { name: 'x' } });
        assert.match(ports.lastState().lastError?.message ?? '', /No watch is running/);
        await c.receive({ type: 'watchMark', payload: { name: '  ' } });
        assert.match(ports.lastState().lastError?.message ?? '', /a mark needs a name/);
      } finally {
        await c.dispose();
      }
    }));

  /** The watch's folder and what it saved (experiment.json and the lines of samples.jsonl). */
  function saved(ports: ReturnType<typeof fakePorts>): { record: WatchRecord; lines: string[] } {
    const dir = path.join(ports.settingsValue.resultsFolder, 'watches');
    const [folder] = fs.readdirSync(dir);
    return {
      record: JSON.parse(fs.readFileSync(path.join(dir, folder, 'experiment.json'), 'utf8')) as WatchRecord,
      lines: fs
        .readFileSync(path.join(dir, folder, 'samples.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    };
  }

  it('disconnecting while a watch runs stops the watch, keeps every tick in samples.jsonl, and says so', () =>
    withSim({ background: [{ scenario: 'disk-insert', sessions: 4 }] }, async (sim) => {
      const ports = fakePorts();
      const c = await connectedController(sim, ports, tmpDir('state'));
      try {
        await c.receive({ type: 'watchStart', payload: { intervalMs: 250, showBenign: false } });
        await waitFor('three watch ticks', () => ports.ofType('watchTick').length >= 3);
        await c.receive({ type: 'connectionClose', payload: {} });
        const s = ports.lastState();
        assert.equal(s.connection.status, 'disconnected');
        assert.equal(s.lastError, null, JSON.stringify(s.lastError));
        assert.equal(s.watch?.status, 'cancelled', s.watch?.message);
        assert.match(
          s.watch!.message,
          /Stopped: the panel disconnected from the server\. The \d+ ticks taken are kept in .*samples\.jsonl/,
        );
        const sent = ports.ofType('watchTick').length;
        const { record, lines } = saved(ports);
        assert.equal(record.status, 'cancelled');
        assert.equal(lines.length, record.ticks);
        assert.ok(record.ticks >= sent, `every tick posted is on disk (${record.ticks} saved, ${sent} posted)`);
        assert.equal(
          sim.server.sessions().filter((x) => x.appName === 'Spinlock Lab watch').length,
          0,
          "the watch's monitor connection is closed",
        );
        await new Promise((r) => setTimeout(r, 600));
        assert.equal(ports.ofType('watchTick').length, sent, 'no tick after the disconnect');
      } finally {
        await c.dispose();
      }
    }));

  it('a dropped monitor connection mid-watch is reported, reconnected, the gap shown with its time, the clock going on, and every tick kept', () =>
    withSim({ background: [{ scenario: 'disk-insert', sessions: 4 }] }, async (sim) => {
      const ports = fakePorts();
      const c = await connectedController(sim, ports, tmpDir('state'));
      try {
        await c.receive({ type: 'watchStart', payload: { intervalMs: 250, showBenign: false } });
        await waitFor('two watch ticks', () => ports.ofType('watchTick').length >= 2);
        const monitor = sim.server.sessions().filter((x) => x.appName === 'Spinlock Lab watch');
        assert.equal(monitor.length, 1, JSON.stringify(sim.server.sessions()));
        const before = ports.ofType('watchTick').length;
        assert.ok(sim.faults.dropSession(monitor[0].spid));
        await waitFor('the gap in the state', () => (ports.lastState().watch?.gaps?.length ?? 0) === 1);
        const said = ports.ofType('state').map((m) => m.payload.state.watch?.message ?? '');
        assert.ok(
          said.some((m) => /(monitor sample failed|monitor connection was lost).*; the \d+ ticks so far are kept/.test(m)),
          said.join('\n'),
        );
        assert.ok(
          said.some((m) =>
            /^connection lost \d\d:\d\d:\d\d-\d\d:\d\d:\d\d UTC \([\d.]+ s\), reconnected: no tick and no delta across the gap; watching again$/.test(
              m,
            ),
          ),
          said.join('\n'),
        );
        const gap = ports.lastState().watch!.gaps![0];
        assert.equal(gap.reason, 'connection-lost');
        assert.ok(
          ports.lastState().watch!.warnings!.some((w) => /monitor connection was lost/.test(w)),
          'the warning listed in the panel',
        );
        assert.equal(ports.lastState().watch?.status, 'running');
        await waitFor('a tick after the reconnect', () => ports.ofType('watchTick').length >= before + 3);
        await c.receive({ type: 'watchStop', payload: {} });
        await waitFor('the watch to end', () => ports.lastState().watch?.status === 'cancelled');
        const { record, lines } = saved(ports);
        assert.equal(lines.length, record.ticks);
        assert.ok(record.ticks >= ports.ofType('watchTick').length);
        assert.ok(
          record.events.some((e) => e.level === 'warning' && /reconnecting/.test(e.message)),
          'the record says what happened',
        );
        // One clock: every tick after the gap is later than the gap, which is later than every tick before it.
        const ts = lines.map((l) => (JSON.parse(l) as { t: number }).t);
        assert.ok(
          ts.every((t, i) => i === 0 || t > ts[i - 1]),
          `tick times only go forward: ${ts.join(' ')}`,
        );
        assert.ok(
          ts.some((t) => t <= gap.fromT) && ts.some((t) => t > gap.toT),
          `ticks on both sides of the gap: ${ts.join(' ')} / ${gap.fromT}-${gap.toT}`,
        );
        assert.deepEqual(record.gaps, [gap]);
        assert.match(
          ports.lastState().watch!.coverage ?? '',
          /^watched [\d.]+ s; [\d.]+ s lost in 1 gap: connection lost .* UTC .*, reconnected; rates are per second of the [\d.]+ s the ticks cover$/,
        );
      } finally {
        await c.dispose();
      }
    }));

  it('compares two windows of the watch from samples.jsonl at full resolution, as spinlab watch --compare does', () =>
    withSim({ background: [{ scenario: 'disk-insert', sessions: 4 }] }, async (sim) => {
      const ports = fakePorts();
      const c = await connectedController(sim, ports, tmpDir('state'));
      let stopExtra: (() => void) | undefined;
      try {
        await c.receive({ type: 'watchStart', payload: { intervalMs: 250, showBenign: false } });
        await waitFor('six watch ticks', () => ports.ofType('watchTick').length >= 6);
        // The workload changes (a ring buffer on a sequence starts) and the user marks it.
        stopExtra = startBackground(sim.model, [{ scenario: 'ring-buffer', sessions: 2 }]);
        await c.receive({ type: 'watchMark', payload: { name: 'ring buffer started' } });
        await waitFor('the mark', () => (ports.lastState().watch?.marks.length ?? 0) === 1);
        const mark = ports.lastState().watch!.marks[0];
        await waitFor('six ticks after the mark', () => ports.ofType('watchTick').filter((m) => m.payload.tick.t > mark.t).length >= 6);
        const watchId = ports.lastState().watch!.id;

        // While it runs: from the start to the mark against from the mark to now.
        const req: WatchCompareRequest = {
          watchId,
          a: { from: { kind: 'start' }, to: { kind: 'mark', id: mark.id } },
          b: { from: { kind: 'mark', id: mark.id }, to: { kind: 'now' } },
        };
        const r = resultOf(await ask(c, ports, 'watchCompare', req));
        assert.equal(r.a.described, `from the start to "ring buffer started" (${(mark.t / 1000).toFixed(1)} s)`);
        const seq = r.figures.find((f) => f.key === 'latchMsPerSec:METADATA_SEQUENCE_GENERATOR');
        assert.ok(seq && seq.a === 0 && (seq.b ?? 0) > 0, `the sequence latch appears after the mark: ${JSON.stringify(seq)}`);
        assert.ok(
          r.summary.some((x) => /METADATA_SEQUENCE_GENERATOR latch wait: only in window B/.test(x)),
          r.summary.join(' | '),
        );
        assert.ok(r.a.ticks >= 6 && r.b.ticks >= 5, `${r.a.ticks} and ${r.b.ticks} ticks`);

        await c.receive({ type: 'watchStop', payload: {} });
        await waitFor('the watch to end', () => ports.lastState().watch?.status === 'cancelled');
        // Stopped: the same windows hold every tick on disk but the one the mark fell in, and give the CLI's figures.
        const done = resultOf(await ask(c, ports, 'watchCompare', req));
        const dir = path.join(ports.settingsValue.resultsFolder, 'watches', watchId);
        const { record, lines } = saved(ports);
        assert.equal(done.a.ticks + done.b.ticks, lines.length - 1);
        assert.equal(lines.length, record.ticks);
        const cli = await compareAroundMark(dir, mark.name, null);
        assert.deepEqual(done.figures, cli.comparison.figures, 'the figures of spinlab watch --compare');
        assert.deepEqual([done.a.ticks, done.b.ticks], [cli.comparison.a.ticks, cli.comparison.b.ticks]);

        // By times (the accessible path): 0.5 s to 1.5 s holds the ticks that end in (0.5, 1.5] s.
        const ends = lines.map((l) => (JSON.parse(l) as { t: number }).t);
        const byTime = resultOf(
          await ask(c, ports, 'watchCompare', {
            watchId,
            a: { from: { kind: 'time', t: 500 }, to: { kind: 'time', t: 1500 } },
            b: { from: { kind: 'mark', id: mark.id }, to: { kind: 'now' } },
          }),
        );
        assert.equal(byTime.a.ticks, ends.filter((t) => t > 500 && t <= 1500).length);
        assert.equal(byTime.a.described, 'from 0.5 s to 1.5 s');

        // A window that ends before it starts, or holds no tick, is the answer's error (said beside the pickers), not a
        // panel error; so is a watch that is no longer the panel's.
        const errorOf = async (r: typeof req) => {
          const a = await ask(c, ports, 'watchCompare', r);
          return a.ok ? '(a result)' : a.error.message;
        };
        assert.match(
          await errorOf({ ...req, a: { from: { kind: 'time', t: 3000 }, to: { kind: 'time', t: 1000 } } }),
          /Window A ends \(1\.0 s\) before it starts \(3\.0 s\)/,
        );
        assert.match(
          await errorOf({ ...req, b: { from: { kind: 'time', t: 3_600_000 }, to: { kind: 'now' } } }),
          /Window B \(from 3600\.0 s to now\) holds no tick/,
        );
        assert.match(await errorOf({ ...req, watchId: 'another-watch' }), /no longer the panel's/);
        assert.equal(ports.lastState().lastError, null);
      } finally {
        stopExtra?.();
        await c.dispose();
      }
    }));
});
