// "Why is it spinning?" through LabController as the panel drives it (messages through receive), connected to the
// simulator: the capture the engine returns is forwarded with its progress, Cancel aborts it, a permission failure
// comes back with the GRANT, and a reloaded webview gets the last capture again. The engine's capture is a stand-in
// here (LabControllerOptions.captureStacks) that records what the host asked for.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Experiment } from '../../src/shared/experiment';
import { withSim, SIM_PASSWORD } from '../helpers/simClient';
import { simProfile, waitFor } from '../helpers/host';
import { fakePorts, tmpDir, type FakePorts } from '../unit/host/fakePorts';
import * as b from '../helpers/builders';
import { LabController } from '../../src/host/labController';
import type { CaptureStacks, CaptureStacksOptions } from '../../src/host/features/stacks/stacksCapture';
import { DbError } from '../../src/db/dbError';
import type { Simulator } from '../../tools/sim/simulator';

async function controller(sim: Simulator, ports: FakePorts, captureStacks: CaptureStacks): Promise<LabController> {
  const c = new LabController(ports, { editor: 'vscode', stateDir: tmpDir('state'), captureStacks });
  await c.start();
  await c.receive({ type: 'connectionOpen', payload: { profile: simProfile(sim), password: SIM_PASSWORD, savePassword: false } });
  assert.equal(ports.lastState().connection.status, 'connected', JSON.stringify(ports.lastState().connection.error));
  return c;
}

/** Resolves when aborted (as the engine does after dropping its session), with the reason. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
}

describe('"Why is it spinning?" in the panel (host)', function () {
  this.timeout(60_000);

  it('forwards the capture of the spinlock asked for, with its progress, and sends it again to a reloaded webview', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      const asked: CaptureStacksOptions[] = [];
      const c = await controller(sim, ports, async (conn, o) => {
        asked.push(o);
        assert.equal(conn.identity.serverName.length > 0, true);
        o.onProgress?.({ elapsedMs: 5000, durationMs: o.durationMs });
        return { capture: b.stackCapture({ spinlock: o.spinlock, durationMs: o.durationMs }) };
      });
      try {
        await c.receive({ type: 'stacksCapture', payload: { spinlock: 'LOCK_HASH', durationMs: 10_000 } });
        await waitFor('the capture', () => ports.ofType('stacksResult').length === 1);
        assert.equal(asked.length, 1);
        assert.equal(asked[0].spinlock, 'LOCK_HASH');
        assert.equal(asked[0].durationMs, 10_000);
        assert.ok(asked[0].top > 0);
        const progress = ports.ofType('stacksProgress').map((m) => m.payload);
        assert.deepEqual(progress, [
          { spinlock: 'LOCK_HASH', elapsedMs: 0, durationMs: 10_000 },
          { spinlock: 'LOCK_HASH', elapsedMs: 5000, durationMs: 10_000 },
        ]);
        const capture = ports.ofType('stacksResult')[0].payload.capture;
        assert.equal(capture.spinlock, 'LOCK_HASH');
        assert.equal(capture.events, 1000);
        assert.equal(ports.ofType('stacksError').length, 0);
        assert.equal(ports.lastState().lastError, null, "a capture never touches the panel's error line");

        await c.receive({ type: 'ready', payload: {} });
        assert.equal(ports.ofType('stacksResult').length, 2, 'a reloaded webview gets the last capture');
      } finally {
        await c.dispose();
      }
    }));

  it('refuses a request that is not a spinlock name or an offered duration', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      let called = 0;
      const c = await controller(sim, ports, async () => {
        called++;
        return { capture: b.stackCapture() };
      });
      try {
        await c.receive({
          type: 'stacksCapture',
          payload: { spinlock: "LOCK_HASH'; DROP EVENT SESSION x ON SERVER --", durationMs: 10_000 },
        });
        await c.receive({ type: 'stacksCapture', payload: { spinlock: 'LOCK_HASH', durationMs: 3_600_000 } });
        assert.equal(called, 0);
        assert.match(ports.lastState().lastError?.message ?? '', /stacksCapture/);
      } finally {
        await c.dispose();
      }
    }));

  it('Cancel aborts the capture and says its session was dropped', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      let signal: AbortSignal | null = null;
      const c = await controller(sim, ports, (_conn, o) => {
        signal = o.signal;
        return untilAborted(o.signal);
      });
      try {
        await c.receive({ type: 'stacksCapture', payload: { spinlock: 'SOS_CACHESTORE', durationMs: 30_000 } });
        await waitFor('the capture started', () => signal !== null);
        await c.receive({ type: 'stacksCapture', payload: { spinlock: 'LOCK_HASH', durationMs: 5000 } });
        await waitFor('one at a time', () => ports.ofType('stacksError').length === 1);
        assert.match(ports.ofType('stacksError')[0].payload.message, /already running/);
        await c.receive({ type: 'stacksCancel', payload: {} });
        await waitFor('the cancel answered', () => ports.ofType('stacksError').length === 2);
        assert.equal(signal!.aborted, true);
        const e = ports.ofType('stacksError')[1].payload;
        assert.equal(e.cancelled, true);
        assert.equal(e.spinlock, 'SOS_CACHESTORE');
        assert.match(e.message, /cancelled; its event session was dropped/);
        assert.equal(ports.ofType('stacksResult').length, 0);
      } finally {
        await c.dispose();
      }
    }));

  it('a missing permission comes back with the GRANT for event sessions, for the login connected', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      const text = "CREATE EVENT SESSION permission denied in database 'master'.";
      const denied = new DbError(text, 262, 'EREQUEST', 1, 14, [{ number: 262, message: text }]);
      const c = await controller(sim, ports, () => Promise.reject(denied));
      try {
        await c.receive({ type: 'stacksCapture', payload: { spinlock: 'LOCK_HASH', durationMs: 5000 } });
        await waitFor('the error', () => ports.ofType('stacksError').length === 1);
        const e = ports.ofType('stacksError')[0].payload;
        assert.match(e.message, /permission denied/);
        const major = ports.lastState().server!.identity.majorVersion;
        assert.match(e.grant ?? '', /GRANT ALTER ANY EVENT SESSION TO \[sa\]/);
        if (major >= 16) assert.match(e.grant ?? '', /CREATE ANY EVENT SESSION, ALTER ANY EVENT SESSION ENABLE, DROP ANY EVENT SESSION/);
        assert.equal(e.cancelled, undefined);
      } finally {
        await c.dispose();
      }
    }));

  it('exports the last capture for SQLCallStackResolver: every slot as histogram XML, to the clipboard or a file', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      const slots = [
        { count: 7, frames: [b.stackFrame('sqlmin.dll+0x000A'), b.stackFrame('sqldk.dll+0x000B')] },
        { count: 900, frames: [b.stackFrame('sqlmin.dll+0x1A2B3C'), b.stackFrame('sqldk.dll+0x004400')] },
      ];
      const c = await controller(sim, ports, async () => ({ capture: b.stackCapture(), slots, buckets: 256 }));
      try {
        await c.receive({ type: 'stacksExport', payload: { to: 'clipboard' } });
        assert.match(ports.lastState().lastError?.message ?? '', /no capture to export/);
        await c.receive({ type: 'stacksCapture', payload: { spinlock: 'LOCK_HASH', durationMs: 5000 } });
        await waitFor('the capture', () => ports.ofType('stacksResult').length === 1);
        await c.receive({ type: 'stacksExport', payload: { to: 'clipboard' } });
        const xml = ports.clipboard.at(-1) ?? '';
        assert.match(xml, /^<HistogramTarget truncated="0" buckets="256">/);
        assert.ok(xml.indexOf('count="900"') < xml.indexOf('count="7"'), 'largest first');
        assert.match(xml, /<value>sqlmin.dll\+0x000A\nsqldk.dll\+0x000B<\/value>/, 'every slot, the ones beyond the top too');
        const file = `${tmpDir('export')}/stacks.xml`;
        ports.saveFileAnswer = file;
        await c.receive({ type: 'stacksExport', payload: { to: 'file' } });
        assert.equal(fs.readFileSync(file, 'utf8'), xml);
      } finally {
        await c.dispose();
      }
    }));

  it('keeps the capture with the saved experiment it was asked from, in its experiment.json', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      const saved = b.experiment('exp-6', [1, 2], { ticks: 3 });
      const dir = path.join(ports.settingsValue.resultsFolder, saved.id);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'experiment.json'), JSON.stringify(saved));
      const c = await controller(sim, ports, async (_conn, o) => ({ capture: b.stackCapture({ spinlock: o.spinlock }) }));
      try {
        await c.receive({ type: 'stacksCapture', payload: { spinlock: 'XDESMGR', durationMs: 5000, experimentId: 'exp-6' } });
        await waitFor('the saved toast', () => ports.ofType('toast').some((m) => /Saved the XDESMGR stacks/.test(m.payload.message)));
        const after = JSON.parse(fs.readFileSync(path.join(dir, 'experiment.json'), 'utf8')) as Experiment;
        assert.deepEqual(
          after.stacks?.map((x) => x.spinlock),
          ['XDESMGR'],
        );
        await c.receive({ type: 'stacksCapture', payload: { spinlock: 'LOCK_HASH', durationMs: 5000, experimentId: null } });
        await waitFor('the second capture', () => ports.ofType('stacksResult').length === 2);
        await new Promise((r) => setTimeout(r, 200));
        const again = JSON.parse(fs.readFileSync(path.join(dir, 'experiment.json'), 'utf8')) as Experiment;
        assert.equal(again.stacks?.length, 1, 'a capture asked from the watch goes with no experiment');
      } finally {
        await c.dispose();
      }
    }));

  it('closing the panel mid-capture aborts it and waits for it while the connection is still open; nothing starts after', () =>
    withSim({}, async (sim) => {
      const ports = fakePorts();
      const seen: string[] = [];
      let started = 0;
      const c = await controller(sim, ports, async (conn, o) => {
        started++;
        await untilAborted(o.signal).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 50));
        // What the engine does once aborted, a moment later: drop its event session, over a connection that must still be open.
        await conn.session();
        seen.push('aborted; the connection still open');
        throw new Error('aborted');
      });
      await c.receive({ type: 'stacksCapture', payload: { spinlock: 'LOCK_HASH', durationMs: 30_000 } });
      await waitFor('the capture to start', () => started === 1);
      const posted = ports.posted.length;
      await c.dispose();
      assert.deepEqual(seen, ['aborted; the connection still open'], 'the capture ended before dispose resolved');
      await c.receive({ type: 'stacksCapture', payload: { spinlock: 'LOCK_HASH', durationMs: 5000 } });
      assert.equal(started, 1, 'a message after the close starts no capture');
      assert.equal(ports.posted.length, posted, 'nothing is posted to a closed panel');
    }));
});
