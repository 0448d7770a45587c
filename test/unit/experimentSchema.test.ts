import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { computeTick } from '../../src/engine/deltas';
import { LatencyRecorder } from '../../src/engine/histogram';
import { computeDerived, cpusUsedFromTicks, foldTicks } from '../../src/engine/totals';
import { EXPERIMENT_SCHEMA_VERSION, type Experiment, type Tick } from '../../src/shared/experiment';
import { DB, sample } from './samples';
import { tuneExperiment } from '../helpers/tuneExperiment';

const schemaPath = path.resolve(__dirname, '../../../schema/experiment.schema.json');
const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const validate = ajv.compile<Experiment>(schema);

/** A two-run experiment built with the real engine modules from synthetic samples. */
function experiment(): Experiment {
  const samples = [0, 1, 2, 3].map((i) =>
    sample({
      msTicks: 100_000 + i * 1000,
      spins: { LOGCACHE_ACCESS: 1000 + i * 50_000, XDESMGR: 10 + i * 900 },
      waits: { WRITELOG: [5 + i * 400, 10 + i * 800], LAZYWRITER_SLEEP: [1 + i, 1000 * (i + 1)] },
      latches: { LOG_MANAGER: [i, i * 2] },
      transactions: i * 4000,
      writeTransactions: i * 4000,
      batches: i * 4000,
      flushes: i * 3000,
      bytesFlushed: i * 3_000_000,
      flushWaits: i * 2900,
      flushWaitTime: i * 900,
      logFile: { writes: 10 + i * 3000, bytesWritten: i * 3_000_000, ioStallWriteMs: i * 600 },
      cpu: [
        [0, i * 700],
        [0, i * 650],
        [1, i * 20],
        [1, i * 10],
      ],
      rows: { 'dbo.spinlab_disk_insert': [i * 4000, 0] },
      pendingLog: i % 2,
    }),
  );
  const ctx = { labDatabase: DB, progressTables: ['spinlab_disk_insert'], runStartMsTicks: samples[0].msTicks };
  const timeline: Tick[] = [];
  for (let i = 1; i < samples.length; i++) {
    const r = computeTick(samples[i - 1], samples[i], ctx);
    assert.equal(r.kind, 'tick');
    if (r.kind === 'tick') timeline.push(r.tick);
  }
  const totals = foldTicks(timeline);
  const derived = computeDerived(totals, { cpusUsed: cpusUsedFromTicks(timeline), first: samples[0], last: samples[3] });
  const latency = new LatencyRecorder();
  for (let i = 0; i < 100; i++) latency.record(200 + i * 3);
  const schedulers = [0, 1, 2, 3].map((cpu) => ({
    schedulerId: cpu,
    cpuId: cpu,
    nodeId: cpu >> 1,
    status: 'VISIBLE ONLINE',
    isOnline: true,
  }));
  return {
    schemaVersion: EXPERIMENT_SCHEMA_VERSION,
    id: '2024-05-01T10-00-00-disk-insert',
    title: 'Disk inserts, 1 vs 2 rows per transaction',
    question: 'Does batching relieve XDESMGR?',
    createdAt: '2024-05-01T10:00:00.000Z',
    tool: { name: 'spinlock-lab', version: '0.1.0' },
    simulated: true,
    server: {
      serverName: 'LAB',
      machineName: 'LAB',
      productVersion: '16.0.4135.4',
      majorVersion: 16,
      edition: 'Developer Edition (64-bit)',
      engineEdition: 3,
      versionBanner: 'Microsoft SQL Server 2022 (RTM-CU15)',
      simulated: true,
      xtpSupported: true,
      defaultDataPath: '/var/opt/mssql/data/',
      startTime: '2024-05-01T08:00:00.000Z',
      login: 'sa',
      permissions: { viewServerState: true, alterSettings: true, viewDatabaseState: null },
    },
    topology: {
      cpuCount: 4,
      hyperthreadRatio: 2,
      socketCount: 2,
      coresPerSocket: 1,
      numaNodeCount: 2,
      softNuma: 'OFF',
      memoryModel: 'CONVENTIONAL',
      largePageAllocationsKb: 0,
      lockedPageAllocationsKb: 0,
      affinityType: 'AUTO',
      schedulers,
      nodes: [0, 1].map((n) => ({ nodeId: n, state: 'ONLINE', onlineSchedulerCount: 2, cpuCount: 2, processorGroup: 0 })),
      logWriters: [{ sessionId: 12, schedulerId: 1048578, cpuId: 0, nodeId: 0 }],
      traceFlags: [{ flag: 1117, status: true, global: true, session: false }],
    },
    labDatabase: DB,
    scenario: { id: 'disk-insert', parameters: { batch_size: 1, seed_rows: 100000 } },
    load: { mode: 'client-loop', threads: [1, 2], durationMs: 3000, rows: null, warmupMs: 0, intervalMs: 1000 },
    knobs: {
      before: { delayedDurability: 'DISABLED', affinity: { type: 'AUTO', cpus: [0, 1, 2, 3] } },
      applied: { delayedDurability: 'FORCED', affinity: { spec: 'numa:0', cpus: [0, 1] } },
      restored: { delayedDurability: 'DISABLED', affinity: { type: 'AUTO', cpus: [0, 1, 2, 3] } },
    },
    status: 'completed',
    preset: null,
    runs: [1, 2].map((threads, index) => ({
      index,
      threads,
      arm: {
        id: 'main',
        label: 'disk-insert',
        scenarioId: 'disk-insert',
        parameters: { batch_size: 1, seed_rows: 100000 },
        knobs: { delayedDurability: 'FORCED' as const, affinity: { spec: 'numa:0', cpus: [0, 1] } },
        mode: 'client-loop' as const,
      },
      status: 'completed' as const,
      startedAt: '2024-05-01T10:00:01.000Z',
      endedAt: '2024-05-01T10:00:04.000Z',
      elapsedMs: totals.elapsedMs,
      rows: totals.rows,
      sessionsOk: threads,
      sessionFailures: [],
      timeline,
      totals,
      derived,
      client: { cpuUserMs: 120, cpuSystemMs: 30, cpuUsPerCall: 12.5, eventLoopLagP99Ms: 11, eventLoopLagMaxMs: 15, rssMb: 80 },
      latency: latency.summary({ keepHistogram: index === 1 }),
      events: index === 0 ? [] : [{ time: '2024-05-01T10:00:02.000Z', level: 'warning' as const, message: 'monitor reconnected' }],
    })),
    events: [{ time: '2024-05-01T10:00:00.000Z', level: 'info', message: 'affinity set to numa:0' }],
  };
}

function errorsOf(e: unknown): string {
  return validate(e) ? '' : ajv.errorsText(validate.errors, { separator: '\n' });
}

it('the schema compiles in strict mode and carries its version', () => {
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.match(schema.$id, /experiment/);
  assert.equal(schema.properties.schemaVersion.const, EXPERIMENT_SCHEMA_VERSION);
});

it('a realistic experiment built by the engine modules is valid (also after a JSON round trip)', () => {
  const e = experiment();
  assert.equal(errorsOf(e), '');
  assert.equal(errorsOf(JSON.parse(JSON.stringify(e))), '');
  // The figures are real, not placeholders.
  assert.ok(e.runs[0].timeline.length === 3 && e.runs[0].totals.rows === 12_000);
  assert.ok(e.runs[0].derived.clockHz !== null);
});

it('a preset experiment: arms differ per run and the preset says how it adapted', () => {
  const e = experiment();
  e.preset = {
    id: 'writelog',
    post: 'writelog-at-scale',
    question: 'Does FORCED take WRITELOG away?',
    notes: ['this server has one NUMA node'],
  };
  e.runs[1].arm = { ...e.runs[1].arm, id: 'forced', label: 'FORCED', knobs: { delayedDurability: 'FORCED' } };
  assert.equal(errorsOf(e), '');
});

it('optional and nullable parts may be absent or null', () => {
  const e = experiment();
  delete e.preset;
  e.question = null;
  e.knobs = { before: null, applied: {}, restored: null };
  e.topology.traceFlags = null;
  e.runs[0].latency = null;
  e.runs[0].derived = computeDerived(e.runs[0].totals, { cpusUsed: 4 }); // no clock: nulls
  e.load.durationMs = null;
  e.load.rows = 1_000_000;
  e.knobs.applied = { affinity: { spec: 'auto', cpus: 'AUTO' } };
  assert.equal(errorsOf(e), '');
});

const broken: [string, (e: Experiment) => void, RegExp][] = [
  ['missing runs', (e) => delete (e as Partial<Experiment>).runs, /must have required property 'runs'/],
  ['missing tick field', (e) => delete (e.runs[0].timeline[0] as Partial<Tick>).intervalMs, /must have required property 'intervalMs'/],
  ['missing server', (e) => delete (e as Partial<Experiment>).server, /required property 'server'/],
  ['wrong schema version', (e) => ((e as { schemaVersion: number }).schemaVersion = 1), /schemaVersion must be equal to constant/],
  ['a run without its arm', (e) => delete (e.runs[0] as Partial<Experiment['runs'][number]>).arm, /must have required property 'arm'/],
  [
    'an arm with an unknown mode',
    (e) => ((e.runs[1].arm as { mode: string }).mode = 'loop'),
    /mode must be equal to one of the allowed values/,
  ],
  [
    'a preset without its post',
    (e) => (e.preset = { id: 'writelog', question: 'q', notes: [] } as unknown as Experiment['preset']),
    /must have required property 'post'/,
  ],
  [
    'a preset citing a file name instead of a post',
    (e) => (e.preset = { id: 'writelog', post: '003_91849d3d42cb46a9.txt', question: 'q', notes: [] } as unknown as Experiment['preset']),
    /post must be equal to one of the allowed values/,
  ],
  ['string where a number belongs', (e) => ((e.runs[0] as { rows: unknown }).rows = '12000'), /rows must be integer/],
  ['boolean as text', (e) => ((e as { simulated: unknown }).simulated = 'true'), /simulated must be boolean/],
  ['negative spins', (e) => (e.runs[0].totals.spinlocks.LOGCACHE_ACCESS.spins = -5), /spins must be >= 0/],
  ['negative wait count in a tick', (e) => (e.runs[0].timeline[1].waits.WRITELOG.count = -1), /count must be >= 0/],
  ['fractional row count', (e) => (e.runs[0].rows = 10.5), /rows must be integer/],
  ['zero-length interval', (e) => (e.runs[0].timeline[0].intervalMs = 0), /intervalMs must be > 0/],
  ['CPU above 100 %', (e) => (e.runs[0].timeline[0].cpuByNode['0'] = 140), /must be <= 100/],
  ['unknown status', (e) => ((e as { status: string }).status = 'done'), /status must be equal to one of the allowed values/],
  ['zero threads', (e) => (e.load.threads = [0]), /must be >= 1/],
  ['bad time', (e) => (e.createdAt = 'yesterday'), /createdAt must match pattern/],
  ['bad affinity', (e) => ((e.knobs.applied.affinity as { cpus: unknown }).cpus = 'ALL'), /cpus/],
  [
    'parameter of an object type',
    (e) => ((e.scenario.parameters as Record<string, unknown>).batch_size = { n: 1 }),
    /batch_size must be number,string,boolean/,
  ],
];

for (const [name, breakIt, expected] of broken) {
  it(`rejects: ${name}`, () => {
    const e = experiment();
    breakIt(e);
    const errors = errorsOf(e);
    assert.notEqual(errors, '', 'should be invalid');
    assert.match(errors, expected);
  });
}

it("a tune's result with its confirmation on fresh pairs is valid, and a record from before it (none) too", () => {
  const e = tuneExperiment();
  assert.equal(errorsOf(e), '');
  e.tune!.result!.confirmation = {
    pairs: 12,
    ratio: 1.5,
    interval: { low: 1.4, high: 1.6 },
    sdLog: 0.1,
    a: { config: 'c0', threads: 8 },
    b: { config: 'c1', threads: 8 },
    planned: 12,
  };
  e.tune!.result!.selection = "The search's own estimate (biased upward): ...";
  assert.equal(errorsOf(e), '');
  e.tune!.result!.confirmation.a = { config: 'c0' } as never;
  assert.notEqual(errorsOf(e), '', 'a side without its session count is refused');
});
