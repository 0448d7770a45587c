// The capture's event session: sized from the server's CPUs and NUMA nodes, bounded by MAX_DURATION where the server
// takes it, and its losses (sys.dm_xe_sessions.dropped_event_count / dropped_buffer_count) said plainly. Also the
// simulator's side: buffers that drop events under load, the counters it serves, and MAX_DURATION by version.
import assert from 'node:assert/strict';
import { countNotes } from '../../src/engine/stacks/notes';
import { maxDurationSeconds, sessionSizing, supportsMaxDuration } from '../../src/engine/stacks/sizing';
import { stacksText } from '../../src/cli/stacks';
import { captureText } from '../../src/engine/notebook/stacks';
import type { StackCapture, StackSessionOptions } from '../../src/shared/stacks';
import { parseXeDdl } from '../../tools/sim/grammar/xe';
import { execSetup } from '../helpers/simExec';
import { loadSqlFile } from '../../src/db/sqlFiles';
import { ManualClock } from '../../tools/sim/model/clock';
import { SimModel } from '../../tools/sim/model/instance';
import { BACKOFFS_PER_EVENT, spinlockMapKey } from '../../tools/sim/model/xe';
import { findView } from '../../tools/sim/model/views';
import { parseHistogram } from '../../src/engine/stacks/parse';

const options = (o: Partial<StackSessionOptions> = {}): StackSessionOptions => ({
  partition: 'NONE',
  maxMemoryKb: 4096,
  retention: 'ALLOW_SINGLE_EVENT_LOSS',
  dispatchLatencyS: 1,
  maxDurationS: null,
  cpus: 256,
  numaNodes: 8,
  regularBuffers: 3,
  regularBufferBytes: 1_398_101,
  ...o,
});

function capture(over: Partial<StackCapture>): StackCapture {
  return {
    spinlock: 'LOGCACHE_ACCESS',
    mapKey: 24,
    session: 'SpinlockLab_x',
    startedAt: '2026-11-24T00:00:00.000Z',
    durationMs: 5000,
    events: 100,
    dmvBackoffs: 8000,
    simulated: false,
    buckets: [],
    otherCount: 0,
    tree: { frame: 'all', count: 100, children: [] },
    notes: [],
    ...over,
  };
}

describe('stack capture: the event session sized from the server', () => {
  it('keeps one buffer set for a small box, one per NUMA node while nodes are small, else one per CPU, memory scaled', () => {
    assert.deepEqual(sessionSizing(null), { partition: 'NONE', maxMemoryKb: 4096 });
    assert.deepEqual(sessionSizing({ cpus: 8, numaNodes: 1 }), { partition: 'NONE', maxMemoryKb: 4096 });
    // The whitepaper's box: 8 nodes of 8 cores (16 logical CPUs each): PER_NODE, about its 50 MB.
    assert.deepEqual(sessionSizing({ cpus: 128, numaNodes: 8 }), { partition: 'PER_NODE', maxMemoryKb: 48 * 1024 });
    // 8 sockets of 16 cores with hyperthreads and no soft-NUMA: 32 CPUs a node, so a set per CPU, capped at 256 MB.
    assert.deepEqual(sessionSizing({ cpus: 256, numaNodes: 8 }), { partition: 'PER_CPU', maxMemoryKb: 256 * 1024 });
    assert.deepEqual(sessionSizing({ cpus: 40, numaNodes: 1 }), { partition: 'PER_CPU', maxMemoryKb: 40 * 1024 });
  });

  it('asks MAX_DURATION of SQL Server 2025+ only, of a Managed Instance only when told, a little longer than the capture', () => {
    for (const v of [13, 14, 15, 16]) assert.equal(supportsMaxDuration({ majorVersion: v, engineEdition: 3 }), false, `version ${v}`);
    assert.equal(supportsMaxDuration({ majorVersion: 17, engineEdition: 3 }), true);
    assert.equal(supportsMaxDuration({ majorVersion: 17, engineEdition: 2 }), true);
    // Managed Instance reports 12.x whatever its update policy; only the Always-up-to-date policy has MAX_DURATION.
    assert.equal(supportsMaxDuration({ majorVersion: 12, engineEdition: 8 }), false);
    assert.equal(supportsMaxDuration({ majorVersion: 12, engineEdition: 8 }, true), true);
    assert.equal(maxDurationSeconds(10_000), 40);
    assert.equal(maxDurationSeconds(10_500), 41);
    assert.equal(maxDurationSeconds(1e12), 2_147_483, 'the documented maximum');
  });
});

describe('stack capture: losses said plainly', () => {
  it('says events were lost, how many of those fired, and qualifies the one-per-eight comparison', () => {
    const notes = countNotes('LOGCACHE_ACCESS', 100, 8000, 5000, false, { droppedEvents: 300, droppedBuffers: 0, options: options() });
    assert.match(
      notes[0],
      /^EVENTS WERE LOST: the session dropped 300 events \(75\.0% of the 400 fired\) because its buffers \(MEMORY_PARTITION_MODE = NONE, MAX_MEMORY = 4 MB\) were full/,
    );
    assert.match(
      notes[1],
      /100 events kept against 8000 DMV backoffs .*80\.0 backoffs per kept event and 20\.0 per event fired \(kept \+ 300 dropped\)/,
    );
    assert.match(notes[1], /partly the loss/);
  });

  it('says nothing was lost when both counters are 0, and that it cannot tell when they could not be read', () => {
    const none = countNotes('XDESMGR', 100, 800, 5000, false, {
      droppedEvents: 0,
      droppedBuffers: 0,
      options: options({ partition: 'PER_NODE', maxMemoryKb: 49152 }),
    });
    assert.match(
      none[0],
      /^No events were lost: sys\.dm_xe_sessions counted 0 dropped events and 0 dropped buffers .*PER_NODE \(8 NUMA nodes\), MAX_MEMORY = 48 MB/,
    );
    assert.match(none[1], /^Compared: 100 events against 800 DMV backoffs .*\(8\.0 backoffs per event\)/);
    const unknown = countNotes('XDESMGR', 100, 800, 5000, false, { droppedEvents: null, droppedBuffers: null });
    assert.match(unknown[0], /could not be read: events lost to full buffers cannot be ruled out/);
    // Events all dropped: not "no event fired".
    const allLost = countNotes('XDESMGR', 0, 800, 5000, false, { droppedEvents: 90, droppedBuffers: 0, options: options() });
    assert.ok(!allLost.some((n) => /no sqlos\.spinlock_backoff event fired/.test(n)), allLost.join('\n'));
  });

  it('the CLI and the notebook show the counters beside the counts; a capture saved before them shows none', () => {
    const lost = capture({ droppedEvents: 300, droppedBuffers: 0, sessionOptions: options({ maxDurationS: 40 }) });
    assert.match(
      stacksText(lost),
      /sys\.dm_os_spinlock_stats backoffs over the same window: 8000\nEVENTS LOST: 300 events and 0 buffers dropped for full buffers \(sys\.dm_xe_sessions; MEMORY_PARTITION_MODE = NONE, MAX_MEMORY = 4 MB, MAX_DURATION = 40 SECONDS\)/,
    );
    assert.match(captureText(lost), /\nEVENTS LOST: 300 events and 0 buffers dropped/);
    assert.match(
      stacksText(capture({ droppedEvents: 0, droppedBuffers: 0 })),
      /\nLost: 0 events and 0 buffers dropped for full buffers \(sys\.dm_xe_sessions\)/,
    );
    assert.match(stacksText(capture({ droppedEvents: null, droppedBuffers: null })), /\nLost: unknown events and unknown buffers dropped/);
    assert.doesNotMatch(stacksText(capture({})), /dropped for full buffers/);
  });
});

describe('simulator: MAX_DURATION by version', () => {
  const file = loadSqlFile('xe/create-session');
  /** Runs the file on a server of `version`: what it answered and the session it left. */
  const create = async (maxDuration: number | null, version = 17) => {
    const { model, run } = execSetup({ version });
    const params = new Map<string, string | number | null>([
      ['@session', 'SpinlockLab_t'],
      ['@type', 24],
      ['@slots', 256],
      ['@partition', 'PER_CPU'],
      ['@max_memory_kb', 262144],
      ['@max_duration_s', maxDuration],
    ]);
    const out = await run(file.batches[0], params, file.parameters);
    return { out, session: model.xe.sessions.get('spinlocklab_t') };
  };
  const DDL =
    "CREATE EVENT SESSION [SpinlockLab_t] ON SERVER ADD EVENT sqlos.spinlock_backoff (ACTION (package0.callstack) WHERE ([type] = (24))) ADD TARGET package0.histogram (SET filtering_event_name = N'sqlos.spinlock_backoff', source_type = (1), source = N'package0.callstack', slots = (256)) WITH (MAX_MEMORY = 262144 KB, MEMORY_PARTITION_MODE = PER_CPU, MAX_DURATION = 40 SECONDS);";

  it('create-session.sql adds MAX_DURATION = n SECONDS only when asked, and maps the partition to a literal', async () => {
    const { out, session } = await create(40);
    assert.deepEqual(out, []);
    assert.deepEqual(session?.options, {
      MAX_MEMORY: '262144 KB',
      EVENT_RETENTION_MODE: 'ALLOW_SINGLE_EVENT_LOSS',
      MAX_DISPATCH_LATENCY: '1 SECONDS',
      MEMORY_PARTITION_MODE: 'PER_CPU',
      TRACK_CAUSALITY: 'OFF',
      STARTUP_STATE: 'OFF',
      MAX_DURATION: '40 SECONDS',
    });
    assert.equal((await create(null)).session?.options.MAX_DURATION, undefined);
  });

  it('SQL Server 2025 takes it; 2016 to 2022 answer Msg 102 near MAX_DURATION', async () => {
    assert.ok((await create(40, 17)).session?.running);
    for (const v of [13, 14, 15, 16]) {
      const { out, session } = await create(40, v);
      assert.deepEqual(
        out.map((m) => (m.kind === 'error' ? [m.number, m.message] : m.kind)),
        // The dynamic CREATE's compile error ends that statement only: the batch goes on to the START, which finds no
        // session (15151), as on SQL Server.
        [
          [102, "Incorrect syntax near 'MAX_DURATION'."],
          [15151, "Cannot alter the event session 'SpinlockLab_t', because it does not exist or you do not have permission."],
        ],
        `version ${v} must refuse it`,
      );
      assert.equal(session, undefined);
      assert.ok((await create(null, v)).session?.running, `version ${v} takes the session without it`);
    }
    const near = (t: string) => {
      const r = parseXeDdl(t, 17);
      return 'fault' in r ? r.fault.near : null;
    };
    assert.equal(near(DDL), null);
    assert.equal(near(DDL.replace('40 SECONDS', '40 SECOND')), 'SECOND');
    assert.equal(near(DDL.replace('40 SECONDS', 'UNLIMITED')), null);
  });
});

describe('simulator: event buffers that drop under load', () => {
  const CREATE = (opts: string) =>
    `CREATE EVENT SESSION [SpinlockLab_t] ON SERVER ADD EVENT sqlos.spinlock_backoff (ACTION (package0.callstack) WHERE ([type] = (${spinlockMapKey('LOGCACHE_ACCESS', 16)}))) ADD TARGET package0.histogram (SET filtering_event_name = N'sqlos.spinlock_backoff', source_type = (1), source = N'package0.callstack', slots = (256)) WITH (${opts});`;
  const parse = (text: string, v = 16) => {
    const r = parseXeDdl(text, v);
    if ('fault' in r) throw new Error(r.fault.near);
    return r.statement;
  };

  /** Fires `events` sqlos.spinlock_backoff events over `seconds` on a big box and returns what the session kept and lost. */
  function fire(opts: string, events: number, seconds: number, version = 16) {
    const clock = new ManualClock();
    const m = new SimModel({ version, password: 'x', topology: '8x16x2', clock });
    m.xe.execute(m, 'sa', parse(CREATE(opts), version));
    m.xe.execute(m, 'sa', parse('ALTER EVENT SESSION [SpinlockLab_t] ON SERVER STATE = START'));
    const s = m.xe.sessions.get('spinlocklab_t')!;
    m.counters.spinlocks.get('LOGCACHE_ACCESS')!.backoffs =
      s.running!.backoffsAtStart.get('LOGCACHE_ACCESS')! + events * BACKOFFS_PER_EVENT;
    clock.advance(seconds * 1000);
    const view = findView('sys.dm_xe_sessions')!;
    const ctx = { model: m, session: { login: 'sa', database: 'master' } } as unknown as Parameters<typeof view.rows>[0];
    const cols = view.columns(ctx).map((c) => c.name);
    const row = view.rows(ctx, null)[0];
    const col = (n: string) => row[cols.indexOf(n)];
    const kept = parseHistogram(m.xe.targetData(m, s)).slots.reduce((a, x) => a + x.count, 0);
    return {
      kept,
      droppedEvents: col('dropped_event_count'),
      droppedBuffers: col('dropped_buffer_count'),
      buffers: col('total_regular_buffers'),
      m,
      s,
      clock,
    };
  }

  it('one 4 MB buffer set for 256 CPUs drops events at a rate a set per CPU takes whole', () => {
    const old = fire(
      'MAX_MEMORY = 4096 KB, EVENT_RETENTION_MODE = ALLOW_SINGLE_EVENT_LOSS, MAX_DISPATCH_LATENCY = 1 SECONDS, MEMORY_PARTITION_MODE = NONE',
      50_000,
      10,
    );
    assert.ok(Number(old.droppedEvents) > 0, `dropped ${String(old.droppedEvents)}`);
    assert.equal(old.kept + Number(old.droppedEvents), 50_000, 'kept + dropped = fired');
    assert.equal(old.droppedBuffers, 0, 'ALLOW_SINGLE_EVENT_LOSS drops events, not buffers');
    assert.equal(old.buffers, 3);
    const sized = fire(
      'MAX_MEMORY = 262144 KB, EVENT_RETENTION_MODE = ALLOW_SINGLE_EVENT_LOSS, MAX_DISPATCH_LATENCY = 1 SECONDS, MEMORY_PARTITION_MODE = PER_CPU',
      50_000,
      10,
    );
    assert.deepEqual([sized.droppedEvents, sized.droppedBuffers, sized.kept], [0, 0, 50_000]);
    assert.equal(sized.buffers, 256 * 3);
    const light = fire('MAX_MEMORY = 4096 KB, MEMORY_PARTITION_MODE = NONE', 200, 10);
    assert.deepEqual([light.droppedEvents, light.kept], [0, 200], 'a light load loses nothing even with one set');
  });

  it('counts whole buffers under ALLOW_MULTIPLE_EVENT_LOSS and nothing under NO_EVENT_LOSS; the counters never fall', () => {
    const multi = fire('MAX_MEMORY = 4096 KB, EVENT_RETENTION_MODE = ALLOW_MULTIPLE_EVENT_LOSS, MEMORY_PARTITION_MODE = NONE', 50_000, 10);
    assert.equal(multi.droppedEvents, 0);
    assert.ok(Number(multi.droppedBuffers) > 0);
    const none = fire('MAX_MEMORY = 4096 KB, EVENT_RETENTION_MODE = NO_EVENT_LOSS, MEMORY_PARTITION_MODE = NONE', 50_000, 10);
    assert.deepEqual([none.droppedEvents, none.droppedBuffers, none.kept], [0, 0, 50_000]);
    const old = fire('MAX_MEMORY = 4096 KB, MEMORY_PARTITION_MODE = NONE', 50_000, 10);
    const before = old.m.xe.lost(old.m, old.s).events;
    old.clock.advance(60_000); // no more events: the capacity catches up, the counter stays
    assert.equal(old.m.xe.lost(old.m, old.s).events, before);
  });

  it('stops a session at its MAX_DURATION, as SQL Server 2025 does, and the target goes with it', () => {
    const r = fire('MAX_MEMORY = 4096 KB, MAX_DURATION = 40 SECONDS', 100, 10, 17);
    assert.ok(r.s.running, 'still running after 10 s');
    r.clock.advance(31_000);
    r.m.xe.expire(r.m);
    assert.equal(r.s.running, null, 'stopped at 40 s');
    assert.ok(r.m.xe.sessions.has('spinlocklab_t'), 'the definition stays (DROP EVENT SESSION removes it)');
  });
});
