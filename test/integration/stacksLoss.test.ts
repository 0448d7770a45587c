// The capture's losses against the simulator: on a big box (8 sockets x 16 cores x 2 threads, 256 CPUs) under a heavy
// background load, the old session (one 4 MB buffer set, MEMORY_PARTITION_MODE = NONE) drops events and the capture
// says so; the session sized from the server's shape drops none, and says that too. MAX_DURATION is on the session
// at version 17 and not at 13 to 16. Everything through the real driver and sql/xe/*.sql as sent.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { startSimulator, type Simulator } from '../../tools/sim/simulator';
import { ourEventSessions, SIM_PASSWORD } from '../helpers/simClient';
import { captureStacks, type CaptureOptions } from '../../src/engine/stacks';
import { tmp } from '../helpers/common';
import { targetFor } from '../helpers/simTarget';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const BIN = path.join(ROOT, 'bin', 'spinlab.js');

function capture(sim: Simulator, o: Partial<CaptureOptions> = {}) {
  return captureStacks(targetFor(sim), {
    spinlock: 'LOGCACHE_ACCESS',
    durationMs: 3000,
    top: 5,
    signal: new AbortController().signal,
    stateDir: tmp('loss-state'),
    ...o,
  });
}

describe('stack capture losses on a big simulated box under load', function () {
  this.timeout(180_000);
  let sim: Simulator;
  before(async () => {
    sim = await startSimulator({
      password: SIM_PASSWORD,
      log: () => {},
      topology: '8x16x2',
      version: 16,
      background: [{ scenario: 'disk-insert', sessions: 96 }],
    });
  });
  after(async () => {
    await sim?.close();
  });

  it('the old session (NONE, 4 MB) drops events, and the capture reports them beside the events and the backoffs', async () => {
    const c = await capture(sim, { sizing: { partition: 'NONE', maxMemoryKb: 4096 } });
    assert.ok(c.events > 0, 'it kept some');
    assert.ok((c.droppedEvents ?? 0) > 0, `dropped_event_count read and above 0 (got ${String(c.droppedEvents)})`);
    assert.equal(c.droppedBuffers, 0, 'ALLOW_SINGLE_EVENT_LOSS drops events, not buffers');
    assert.deepEqual([c.sessionOptions?.partition, c.sessionOptions?.maxMemoryKb, c.sessionOptions?.regularBuffers], ['NONE', 4096, 3]);
    assert.ok(
      c.notes.some((n) => /^EVENTS WERE LOST: the session dropped \d+ events/.test(n)),
      c.notes.join('\n'),
    );
    assert.ok(
      c.notes.some((n) => /backoffs per kept event and [\d.]+ per event fired/.test(n)),
      'the one-per-eight comparison is qualified',
    );
    assert.deepEqual(await ourEventSessions(sim), []);
  });

  it('sized from the server (PER_CPU over 256 CPUs, 256 MB) it drops none, and says so; spinlab stacks prints it', async () => {
    const c = await capture(sim);
    assert.deepEqual(
      [c.sessionOptions?.partition, c.sessionOptions?.maxMemoryKb, c.sessionOptions?.cpus, c.sessionOptions?.numaNodes],
      ['PER_CPU', 262144, 256, 8],
    );
    assert.equal(c.sessionOptions?.regularBuffers, 256 * 3, 'as sys.dm_xe_sessions reported');
    assert.deepEqual([c.droppedEvents, c.droppedBuffers], [0, 0]);
    assert.ok(c.events > 0);
    assert.match(c.notes.join('\n'), /No events were lost: sys\.dm_xe_sessions counted 0 dropped events and 0 dropped buffers/);
    assert.equal(c.sessionOptions?.maxDurationS, null, 'no MAX_DURATION before SQL Server 2025');

    const proc = spawn(process.execPath, [BIN, 'stacks', '--spinlock', 'LOGCACHE_ACCESS', '--duration', '2s', '--top', '2'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        SPINLAB_CONNECTION: `Server=127.0.0.1,${sim.port};User ID=sa;Encrypt=false`,
        SPINLAB_PASSWORD: SIM_PASSWORD,
        SPINLAB_STATE_DIR: tmp('loss-cli'),
      },
    });
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
    });
    proc.stderr.on('data', (d) => {
      out += d;
    });
    const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
    assert.equal(code, 0, out);
    assert.match(
      out,
      /sys\.dm_os_spinlock_stats backoffs over the same window: \d+\nLost: 0 events and 0 buffers dropped for full buffers \(sys\.dm_xe_sessions; MEMORY_PARTITION_MODE = PER_CPU, MAX_MEMORY = 256 MB\)/,
    );
  });
});

describe('stack capture: MAX_DURATION by version', function () {
  this.timeout(120_000);
  for (const version of [13, 16, 17]) {
    it(`${version === 17 ? 'is' : 'is not'} on the event session at version ${version}`, async () => {
      const sim = await startSimulator({ password: SIM_PASSWORD, log: () => {}, version });
      try {
        const seen: (string | undefined)[] = [];
        const c = await capture(sim, {
          durationMs: 2000,
          onProgress: (p) => {
            if (p.kind === 'tick') for (const s of sim.model.xe.sessions.values()) if (s.running) seen.push(s.options.MAX_DURATION);
          },
        });
        assert.ok(seen.length > 0, 'the session was seen running');
        if (version === 17) {
          assert.equal(c.sessionOptions?.maxDurationS, 32);
          assert.deepEqual([...new Set(seen)], ['32 SECONDS'], "the capture + 30 s, on the server's session");
        } else {
          assert.equal(c.sessionOptions?.maxDurationS, null);
          assert.deepEqual([...new Set(seen)], [undefined]);
        }
        assert.deepEqual(await ourEventSessions(sim), []);
      } finally {
        await sim.close();
      }
    });
  }
});
