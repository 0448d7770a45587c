// "Why is it spinning?" from the panel's host with the real engine, against the simulator under its own load
// (disk-insert x 8): the capture comes back labelled simulated with events counted, and leaves no SpinlockLab_ event
// session (seen from another connection); a login without the event-session permission gets the GRANT and nothing
// is left behind; Cancel part-way ends the capture at once with what it counted so far.
import assert from 'node:assert/strict';
import { ourEventSessions, withSim } from '../helpers/simClient';
import { connectedController, waitFor } from '../helpers/host';
import { fakePorts, tmpDir } from '../unit/host/fakePorts';
import type { SimulatorOptions } from '../../tools/sim/simulator';

const WATCHER = { name: 'watcher', password: 'W4tcher-Pw1!', permissions: ['VIEW SERVER STATE' as const] };
const LOAD: SimulatorOptions = { background: [{ scenario: 'disk-insert', sessions: 8 }], logins: [WATCHER] };

describe('"Why is it spinning?" from the panel host against the simulator', function () {
  this.timeout(90_000);

  it('captures LOGCACHE_ACCESS stacks, labelled simulated, and drops its event session', () =>
    withSim(LOAD, async (sim) => {
      const ports = fakePorts();
      const c = await connectedController(sim, ports, tmpDir('state'));
      try {
        await c.receive({ type: 'stacksCapture', payload: { spinlock: 'LOGCACHE_ACCESS', durationMs: 5000 } });
        await waitFor('the capture', () => ports.ofType('stacksResult').length + ports.ofType('stacksError').length > 0, 60_000);
        assert.deepEqual(
          ports.ofType('stacksError').map((m) => m.payload.message),
          [],
        );
        const capture = ports.ofType('stacksResult')[0].payload.capture;
        assert.equal(capture.spinlock, 'LOGCACHE_ACCESS');
        assert.equal(capture.simulated, true);
        assert.ok(capture.events > 0 && capture.buckets.length > 0, `events ${capture.events}`);
        assert.ok(capture.session.startsWith('SpinlockLab_'));
        assert.ok(
          ports.ofType('stacksProgress').some((m) => m.payload.elapsedMs > 0),
          'progress from the engine',
        );
        assert.deepEqual(await ourEventSessions(sim), [], 'no event session left');
        await c.receive({ type: 'stacksExport', payload: { to: 'clipboard' } });
        assert.match(ports.clipboard.at(-1) ?? '', /^<HistogramTarget /);
      } finally {
        await c.dispose();
      }
    }));

  it('a login without ALTER ANY EVENT SESSION gets the GRANT, and nothing is left on the server', () =>
    withSim(LOAD, async (sim) => {
      const ports = fakePorts();
      const c = await connectedController(sim, ports, tmpDir('state'), WATCHER.name, WATCHER.password);
      try {
        await c.receive({ type: 'stacksCapture', payload: { spinlock: 'LOGCACHE_ACCESS', durationMs: 5000 } });
        await waitFor('the answer', () => ports.ofType('stacksResult').length + ports.ofType('stacksError').length > 0, 60_000);
        const e = ports.ofType('stacksError')[0]?.payload;
        assert.ok(e, 'an error');
        assert.match(e.grant ?? '', /GRANT ALTER ANY EVENT SESSION TO \[watcher\]/);
        assert.deepEqual(await ourEventSessions(sim), []);
      } finally {
        await c.dispose();
      }
    }));

  it('Cancel part-way ends the capture with what it counted, and drops the session', () =>
    withSim(LOAD, async (sim) => {
      const ports = fakePorts();
      const c = await connectedController(sim, ports, tmpDir('state'));
      try {
        await c.receive({ type: 'stacksCapture', payload: { spinlock: 'LOGCACHE_ACCESS', durationMs: 30_000 } });
        await waitFor('a progress tick', () => ports.ofType('stacksProgress').some((m) => m.payload.elapsedMs > 0), 20_000);
        await c.receive({ type: 'stacksCancel', payload: {} });
        // Well before the 30 s asked: the engine reads what the session counted, then drops it.
        await waitFor(
          'the capture after Cancel',
          () => ports.ofType('stacksResult').length + ports.ofType('stacksError').length > 0,
          15_000,
        );
        const capture = ports.ofType('stacksResult')[0]?.payload.capture;
        assert.ok(capture, JSON.stringify(ports.ofType('stacksError')));
        assert.ok(capture.durationMs < 30_000);
        assert.match(capture.notes.join(' '), /Cancelled after/);
        assert.deepEqual(await ourEventSessions(sim), []);
      } finally {
        await c.dispose();
      }
    }));
});
