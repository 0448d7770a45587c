// Bad input, generated: every parser that takes what a person typed or a file or a webview sent either
// returns a valid value or throws its own module's error type with a message that names the problem; never another
// exception. Seeded, so a failure reproduces (fast-check prints the seed and the shrunk counterexample).
// Also: no file under src/ builds T-SQL from input (template strings or concatenation with SQL keywords), outside the
// few documented places that only emit literals through sqlLiteral/quoteName or display a hint.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import ts from 'typescript';
import {
  ParamError,
  coerceParam,
  parseDuration,
  parseRowCount,
  parseThreadList,
  resolveParams,
  MAX_THREADS,
  type ParamSpec,
} from '../../src/shared/params';
import { AffinityError, parseAffinity, cpusByNode, threadsPerCore } from '../../src/shared/affinity';
import { ConnectionStringError, parseConnectionString, redactConnectionString } from '../../src/engine/connection';
import { NotebookError, parseNotebook } from '../../src/engine/notebook/read';
import { buildNotebook } from '../../src/engine/notebook/write';
import { parseToHost, ToHost } from '../../src/shared/protocol';
import { listScenarios } from '../../src/engine/scenarios';
import { loadSettingsFrom } from '../../src/engine/runSettings';
import { experiment } from '../helpers/builders';
import type { Topology } from '../../src/shared/types';

const SEED = 0x5eed7;
const RUNS = 300;
const opts = (numRuns = RUNS) => ({ seed: SEED, numRuns });

/** Runs `f`; a throw must be an instance of `type` with a non-empty message. Returns the value or null. */
function valueOrOwnError<T>(type: new (...a: never[]) => Error, f: () => T, input: unknown): T | null {
  try {
    return f();
  } catch (e) {
    assert.ok(e instanceof type, `expected ${type.name}, got ${(e as Error)?.name}: ${(e as Error)?.message} for ${JSON.stringify(input)}`);
    assert.ok((e as Error).message.trim().length > 0, `empty message for ${JSON.stringify(input)}`);
    return null;
  }
}

// ---------------------------------------------------------------- scenario parameters

const specs: ParamSpec[] = listScenarios().flatMap((s) => s.parameters);
const jsonish = fc.oneof(
  fc.jsonValue(),
  fc.string(),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('1k', '2M', '1e3', '-0', ' 7 ', 'true', 'no', '0x10', '1_000', 'NaN', 'Infinity', '1.5', '9'.repeat(30)),
);

function assertValidParam(p: ParamSpec, v: unknown): void {
  if (p.type === 'int') {
    assert.ok(Number.isSafeInteger(v), `${p.name}: ${String(v)} is an integer`);
    if (p.min !== undefined) assert.ok((v as number) >= p.min);
    if (p.max !== undefined) assert.ok((v as number) <= p.max);
  } else if (p.type === 'enum') assert.ok(p.values!.includes(v as string), `${p.name}: ${String(v)} is a choice`);
  else assert.equal(typeof v, 'boolean');
}

it('coerceParam: every value of every scenario parameter is either valid or a ParamError naming the parameter', () => {
  fc.assert(
    fc.property(fc.constantFrom(...specs), jsonish, (p, raw) => {
      const v = valueOrOwnError(ParamError, () => coerceParam(p, raw), raw);
      if (v === null) {
        try {
          coerceParam(p, raw);
        } catch (e) {
          assert.match((e as Error).message, new RegExp(`Parameter ${p.name} `));
        }
      } else {
        assertValidParam(p, v);
        assert.equal(coerceParam(p, v), v, 'a valid value coerces to itself');
      }
    }),
    opts(),
  );
});

it('resolveParams: JSON objects and --set lists, known and unknown names, give every parameter a valid value or one ParamError listing the problems', () => {
  const scenario = fc.constantFrom(...listScenarios());
  const name = (s: ReturnType<typeof listScenarios>[number]) =>
    fc.oneof(fc.constantFrom(...s.parameters.map((p) => p.name), 'x'), fc.string({ maxLength: 12 }));
  fc.assert(
    fc.property(
      scenario.chain((s) =>
        fc.tuple(
          fc.constant(s),
          fc.option(fc.oneof(fc.dictionary(name(s), jsonish, { maxKeys: 5 }), jsonish as fc.Arbitrary<unknown>), { nil: undefined }),
          fc.array(
            fc.oneof(
              fc.tuple(name(s), fc.string({ maxLength: 10 })).map(([k, v]) => `${k}=${v}`),
              fc.string({ maxLength: 12 }),
            ),
            { maxLength: 4 },
          ),
        ),
      ),
      ([s, json, set]) => {
        const values = valueOrOwnError(
          ParamError,
          () => resolveParams(s.parameters, { json: json as Record<string, unknown> | undefined, set }),
          { json, set },
        );
        if (values === null) {
          try {
            resolveParams(s.parameters, { json: json as Record<string, unknown> | undefined, set });
          } catch (e) {
            assert.ok((e as ParamError).problems.length >= 1 && (e as ParamError).problems.every((p) => p.trim().length > 0));
          }
          return;
        }
        assert.deepEqual(Object.keys(values).sort(), s.parameters.map((p) => p.name).sort());
        for (const p of s.parameters) assertValidParam(p, values[p.name]);
      },
    ),
    opts(),
  );
});

// ---------------------------------------------------------------- thread lists, durations, row counts

const numberish = fc.oneof(fc.nat(2000).map(String), fc.constantFrom('0', '-1', '1025', '99999999999999999999', '1.5', ' 4 ', ''));
const threadText = fc.oneof(
  fc
    .array(
      fc.oneof(
        numberish,
        fc.tuple(numberish, numberish).map(([a, b]) => `${a}-${b}`),
      ),
      { minLength: 1, maxLength: 6 },
    )
    .map((xs) => xs.join(',')),
  fc.string({ maxLength: 20 }),
  fc.array(fc.constantFrom('1', '2', '-', ',', ' ', '4', '8', 'x', '0'), { maxLength: 12 }).map((xs) => xs.join('')),
);

it('parseThreadList: a list of distinct counts in 1..1024 in the order given, or a ParamError quoting the list', () => {
  fc.assert(
    fc.property(threadText, (s) => {
      const v = valueOrOwnError(ParamError, () => parseThreadList(s), s);
      if (v === null) return;
      assert.ok(v.length >= 1);
      assert.equal(new Set(v).size, v.length, 'distinct');
      assert.ok(v.every((n) => Number.isInteger(n) && n >= 1 && n <= MAX_THREADS));
    }),
    opts(),
  );
});

const durationText = fc.oneof(
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.nat(100000).map(String), fc.constantFrom('1.5', '0', '0.0001', '1e3', '99999999999999999')),
        fc.constantFrom('ms', 's', 'm', 'h', '', 'd', 'S', ' s'),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((ps) => ps.map(([n, u]) => n + u).join('')),
  fc.string({ maxLength: 16 }),
);

it('parseDuration and parseRowCount: a positive whole number of ms (or rows), or a ParamError quoting the text', () => {
  fc.assert(
    fc.property(durationText, fc.boolean(), (s, allowZero) => {
      const v = valueOrOwnError(ParamError, () => parseDuration(s, { allowZero }), s);
      if (v !== null) assert.ok(Number.isSafeInteger(v) && (v > 0 || (allowZero && v === 0)), `${s} -> ${v}`);
    }),
    opts(),
  );
  fc.assert(
    fc.property(
      fc.oneof(
        numberish,
        fc.string({ maxLength: 16 }),
        fc.tuple(fc.nat(5000), fc.constantFrom('k', 'M', 'g', 'B', 'e3', '.5', '')).map(([n, u]) => `${n}${u}`),
      ),
      (s) => {
        const v = valueOrOwnError(ParamError, () => parseRowCount(s), s);
        if (v !== null) assert.ok(Number.isSafeInteger(v) && v >= 1, `${s} -> ${v}`);
      },
    ),
    opts(),
  );
});

it('loadSettingsFrom: any mix of fields gives settings or one ParamError naming each field at fault', () => {
  const field = fc.option(fc.oneof(durationText, threadText, fc.string({ maxLength: 10 })), { nil: undefined });
  fc.assert(
    fc.property(
      fc.constantFrom('server-loop' as const, 'client-loop' as const),
      field,
      field,
      field,
      field,
      field,
      (mode, threads, duration, rows, warmup, interval) => {
        const v = valueOrOwnError(ParamError, () => loadSettingsFrom({ mode, threads, duration, rows, warmup, interval }), {
          threads,
          duration,
          rows,
          warmup,
          interval,
        });
        if (v === null) {
          try {
            loadSettingsFrom({ mode, threads, duration, rows, warmup, interval });
          } catch (e) {
            assert.ok(
              (e as ParamError).problems.every((p) => /--(threads|duration|rows|warmup|interval)/.test(p)),
              (e as Error).message,
            );
          }
          return;
        }
        assert.ok(v.threads.length >= 1 && v.intervalMs >= 250 && v.warmupMs >= 0);
        assert.ok((v.durationMs === null) !== (v.rows === null), 'a time or a row count, not both');
      },
    ),
    opts(),
  );
});

// ---------------------------------------------------------------- affinity against generated topologies

interface Shape {
  nodes: number;
  coresPerNode: number;
  ht: 1 | 2;
  offline: number[];
  oddRatio: boolean;
}

const shape: fc.Arbitrary<Shape> = fc
  .record({ nodes: fc.integer({ min: 1, max: 4 }), ht: fc.constantFrom(1 as const, 2 as const) })
  .chain(({ nodes, ht }) =>
    fc.record({
      nodes: fc.constant(nodes),
      ht: fc.constant(ht),
      coresPerNode: fc.integer({ min: 1, max: Math.max(1, Math.floor(64 / (nodes * ht))) }),
      offline: fc.uniqueArray(fc.nat(63), { maxLength: 6 }),
      oddRatio: fc.boolean(),
    }),
  );

function topologyOf(s: Shape): Topology {
  const perNode = s.coresPerNode * s.ht;
  const cpuCount = s.nodes * perNode;
  const schedulers = Array.from({ length: cpuCount }, (_, cpu) => {
    const online = !s.offline.includes(cpu);
    return {
      schedulerId: cpu,
      cpuId: cpu,
      nodeId: Math.floor(cpu / perNode),
      status: online ? 'VISIBLE ONLINE' : 'VISIBLE OFFLINE',
      isOnline: online,
    };
  });
  return {
    cpuCount,
    hyperthreadRatio: s.oddRatio ? perNode + 1 : perNode,
    socketCount: s.nodes,
    coresPerSocket: s.coresPerNode,
    numaNodeCount: s.nodes,
    softNuma: 'OFF',
    memoryModel: 'CONVENTIONAL',
    largePageAllocationsKb: 0,
    lockedPageAllocationsKb: 0,
    affinityType: s.offline.some((c) => c < cpuCount) ? 'MANUAL' : 'AUTO',
    schedulers,
    nodes: Array.from({ length: s.nodes }, (_, n) => ({
      nodeId: n,
      state: 'ONLINE',
      onlineSchedulerCount: perNode,
      cpuCount: perNode,
      processorGroup: 0,
    })),
    logWriters: [],
    traceFlags: null,
  };
}

const idList = fc
  .array(
    fc.oneof(
      fc.nat(80).map(String),
      fc.tuple(fc.nat(80), fc.nat(80)).map(([a, b]) => `${a}-${b}`),
      fc.constantFrom('', ' ', 'x', '-1', '99999', '1--2'),
    ),
    { minLength: 1, maxLength: 5 },
  )
  .map((xs) => xs.join(','));
const affinitySpec = fc.oneof(
  fc.constantFrom(
    'auto',
    'AUTO',
    ' auto ',
    'exclude-core0',
    'EXCLUDE-CORE0',
    'numa:',
    'cpu:',
    'cpu',
    'numa:0-first-core',
    'numa:first-core',
    '',
  ),
  idList.map((l) => `cpu:${l}`),
  idList.map((l) => `numa:${l}`),
  fc.nat(6).map((n) => `numa:${n}-first-core`),
  fc.string({ maxLength: 20 }),
  fc.tuple(fc.constantFrom('cpu:', 'numa:', 'CPU: ', 'Numa:'), fc.string({ maxLength: 10 })).map(([a, b]) => a + b),
);

it('parseAffinity against 1-4 NUMA nodes, 1-64 CPUs, hyperthreads on and off: CPUs that exist (or AUTO), or an AffinityError', () => {
  fc.assert(
    fc.property(shape, affinitySpec, (s, spec) => {
      const topology = topologyOf(s);
      const r = valueOrOwnError(AffinityError, () => parseAffinity(spec, topology), { s, spec });
      if (r === null) return;
      if (r.cpus === 'AUTO') {
        assert.equal(spec.trim().toLowerCase(), 'auto');
        return;
      }
      const exist = new Set([...cpusByNode(topology).values()].flat());
      assert.ok(r.cpus.length >= 1, 'at least one CPU');
      assert.ok(
        r.cpus.every((c) => exist.has(c)),
        `only CPUs that exist: ${spec} on ${JSON.stringify(s)} -> ${r.cpus}`,
      );
      assert.deepEqual(
        r.cpus,
        [...new Set(r.cpus)].sort((a, b) => a - b),
        'sorted and distinct',
      );
      assert.ok(r.description.length > 0);
    }),
    opts(500),
  );
});

it('parseAffinity: every valid form resolves on every generated topology it fits', () => {
  fc.assert(
    fc.property(shape, fc.nat(3), (s, k) => {
      const topology = topologyOf(s);
      const n = k % s.nodes;
      const perNode = s.coresPerNode * s.ht;
      assert.deepEqual(
        parseAffinity(`numa:${n}`, topology).cpus,
        Array.from({ length: perNode }, (_, i) => n * perNode + i),
      );
      assert.deepEqual(
        parseAffinity(`cpu:0-${s.nodes * perNode - 1}`, topology).cpus,
        Array.from({ length: s.nodes * perNode }, (_, i) => i),
      );
      if (s.nodes * perNode > threadsPerCore(topology))
        assert.ok((parseAffinity('exclude-core0', topology).cpus as number[]).every((c) => c > 0));
    }),
    opts(),
  );
});

// ---------------------------------------------------------------- connection strings

const KEYWORDS = [
  'Server',
  'Data Source',
  'Database',
  'Initial Catalog',
  'User ID',
  'UID',
  'Password',
  'Pwd',
  'Encrypt',
  'TrustServerCertificate',
  'Connect Timeout',
  'Authentication',
  'Integrated Security',
  'Application Name',
  'AccessToken',
  'Pooling',
  'MultipleActiveResultSets',
  'Passwrd',
  'Servr',
  '',
];
const csValue = fc.oneof(
  fc.constantFrom(
    'localhost',
    'tcp:host,1433',
    'host\\SQL2022',
    'np:pipe',
    '(localdb)\\x',
    '.',
    'host,0',
    'host,70000',
    'host,abc',
    'true',
    'no',
    'strict',
    'optional',
    'Active Directory Default',
    'Sql Password',
    'Windows',
    'CORP\\alice',
    '30',
    '-1',
    '',
    '{a;b}',
    '{unclosed',
    '"q"',
    "'x",
    '=',
    ';;',
  ),
  fc.string({ maxLength: 12 }),
);
const connectionString = fc.oneof(
  fc.array(fc.tuple(fc.constantFrom(...KEYWORDS), csValue), { maxLength: 8 }).map((ps) => ps.map(([k, v]) => `${k}=${v}`).join(';')),
  fc.string({ maxLength: 60 }),
);

it('parseConnectionString: a usable config or a ConnectionStringError with an example; never another exception', () => {
  fc.assert(
    fc.property(connectionString, (s) => {
      const cfg = valueOrOwnError(ConnectionStringError, () => parseConnectionString(s), s);
      if (cfg === null) return;
      assert.ok(cfg.server.trim().length > 0, 'a server');
      assert.ok(cfg.port === null ? !!cfg.instanceName : Number.isInteger(cfg.port) && cfg.port >= 1 && cfg.port <= 65535);
      assert.ok(cfg.connectTimeoutMs >= 1000);
      assert.ok(
        [
          'sql',
          'ntlm',
          'azure-active-directory-password',
          'azure-active-directory-access-token',
          'azure-active-directory-msi-vm',
          'azure-active-directory-default',
        ].includes(cfg.authentication),
      );
    }),
    opts(500),
  );
});

it('a password in any connection string, good or bad, never shows in the error message or the redacted form', () => {
  const secret = fc.stringMatching(/^[A-Za-z0-9!#%*+-]{10,20}$/).map((s) => `Pw${s}`);
  // First or last: in the middle it could land inside a braced value, where by the grammar it is no password.
  fc.assert(
    fc.property(connectionString, secret, fc.constantFrom('Password', 'Pwd', 'PASSWORD'), fc.boolean(), (s, pw, kw, first) => {
      // (After a trailing ';' the pair would read as part of the value before it: ';;' is an escaped ';'.)
      const text = first ? `${kw}=${pw};${s}` : `${s.replace(/;+$/, '')};${kw}=${pw}`;
      try {
        parseConnectionString(text);
      } catch (e) {
        assert.ok(e instanceof ConnectionStringError, String(e));
        assert.ok(!(e as Error).message.includes(pw), `the error message shows the password: ${(e as Error).message}`);
      }
      assert.ok(!redactConnectionString(text).includes(pw), 'redacted');
    }),
    opts(),
  );
});

// ---------------------------------------------------------------- notebooks

const good = buildNotebook([experiment('e1', [1, 2], { ticks: 2 })]);

/** A random path into a JSON value (objects and arrays), for deleting or replacing what is there. */
function paths(v: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = [], depth = 0): (string | number)[][] {
  if (depth > 7 || v === null || typeof v !== 'object') return out;
  const entries: [string | number, unknown][] = Array.isArray(v) ? v.slice(0, 3).map((x, i) => [i, x]) : Object.entries(v as object);
  for (const [k, x] of entries) {
    out.push([...prefix, k]);
    paths(x, [...prefix, k], out, depth + 1);
  }
  return out;
}
const notebookPaths = paths(good);

function mutate(root: unknown, at: (string | number)[], op: 'delete' | 'set', value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let cur = copy as Record<string | number, unknown>;
  for (const k of at.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  const last = at[at.length - 1];
  if (op === 'delete') {
    if (Array.isArray(cur)) cur.splice(last as number, 1);
    else delete cur[last];
  } else cur[last] = value;
  return copy;
}

it('parseNotebook: notebooks with any field deleted or replaced by any JSON give a record or a NotebookError', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.tuple(fc.constantFrom(...notebookPaths), fc.constantFrom('delete' as const, 'set' as const), fc.jsonValue({ maxDepth: 2 })),
        { minLength: 1, maxLength: 3 },
      ),
      (muts) => {
        let nb: unknown = good;
        for (const [at, op, value] of muts) {
          try {
            nb = mutate(nb, at, op, value);
          } catch {
            /* the path went away with an earlier mutation */
          }
        }
        const r = valueOrOwnError(NotebookError, () => parseNotebook(JSON.stringify(nb)), muts);
        if (r) assert.ok(r.record.experiments.length >= 1);
      },
    ),
    opts(),
  );
});

it('parseNotebook: arbitrary JSON and arbitrary text give a NotebookError', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null'),
        fc.string({ maxLength: 80 }),
      ),
      (text) => {
        valueOrOwnError(NotebookError, () => parseNotebook(text), text);
      },
    ),
    opts(),
  );
});

// ---------------------------------------------------------------- webview messages

const validMessages: unknown[] = [
  { type: 'ready', payload: {} },
  { type: 'profilePick', payload: { id: null } },
  { type: 'sqlExtensionConnect', payload: { id: 'mssql-6f9619ff' } },
  {
    type: 'connectionOpen',
    payload: {
      profile: {
        id: 'p',
        label: 'l',
        server: 'h',
        port: 1433,
        instanceName: null,
        authentication: 'sql',
        user: 'u',
        domain: '',
        encrypt: 'mandatory',
        trustServerCertificate: false,
        labDatabase: 'SpinlockLab',
      },
      password: 'pw',
      savePassword: false,
    },
  },
  { type: 'scenarioDeploy', payload: { scenarioId: 'disk-insert', parameters: { batch_size: 1 } } },
  {
    type: 'experimentRun',
    payload: {
      scenarioId: 'disk-insert',
      parameters: {},
      run: { mode: 'server-loop', threads: '1,2', duration: '5s', rows: '', warmup: '0s', interval: '1s' },
      knobs: { delayedDurability: 'FORCED', affinity: 'numa:0' },
    },
  },
  { type: 'serverRestore', payload: {} },
  { type: 'experimentReveal', payload: { id: 'abc' } },
  { type: 'experimentExport', payload: { id: 'abc', kind: 'csv' } },
  { type: 'stacksCapture', payload: { spinlock: 'LOGCACHE_ACCESS', durationMs: 10000 } },
  { type: 'stacksCancel', payload: {} },
  { type: 'stacksExport', payload: { to: 'file' } },
  {
    type: 'tuneStart',
    payload: {
      workload: { kind: 'scenario', scenarioId: 'disk-insert', parameters: { batch_size: 1 } },
      mode: 'server-loop',
      objective: 'spins-per-row:LOGCACHE_ACCESS',
      budget: '10m',
      sessions: '2,4',
      affinity: ['numa:0', 'cpu:0,2,4-7'],
      batchSizes: '',
      allowForced: false,
      sharedServer: false,
    },
  },
  {
    type: 'tuneStart',
    payload: {
      workload: { kind: 'preset', presetId: 'writelog' },
      mode: 'client-loop',
      objective: 'p99',
      budget: '1m',
      sessions: '',
      affinity: [],
      batchSizes: '1',
      allowForced: true,
      sharedServer: true,
      trial: '2s',
    },
  },
];

it('parseToHost: the valid messages pass (the generator starts from real ones)', () => {
  for (const m of validMessages) assert.equal(parseToHost(m).ok, true, JSON.stringify(parseToHost(m)));
});

it('parseToHost: arbitrary values and mutated valid messages are accepted or refused with a reason, never thrown', () => {
  const anyValue = fc.oneof(fc.anything({ maxDepth: 3 }), fc.jsonValue({ maxDepth: 3 }));
  const mutated = fc
    .tuple(
      fc.constantFrom(...validMessages),
      fc.array(fc.tuple(fc.nat(40), fc.constantFrom('delete' as const, 'set' as const), anyValue), { minLength: 1, maxLength: 3 }),
    )
    .map(([m, muts]) => {
      const ps = paths(m);
      let out: unknown = m;
      for (const [i, op, v] of muts) {
        try {
          out = mutate(out, ps[i % ps.length], op, v);
        } catch {
          /* gone */
        }
      }
      return out;
    });
  const typed = fc
    .tuple(fc.constantFrom(...Object.keys(ToHost), '__proto__', 'constructor', 'toString', ''), anyValue)
    .map(([type, payload]) => ({ type, payload }));
  fc.assert(
    fc.property(fc.oneof(anyValue, mutated, typed), (raw) => {
      let r: ReturnType<typeof parseToHost>;
      try {
        r = parseToHost(raw);
      } catch (e) {
        assert.fail(`parseToHost threw ${(e as Error)?.message} for ${String(raw)}`);
      }
      if (r.ok) assert.ok(Object.prototype.hasOwnProperty.call(ToHost, r.message.type));
      else assert.ok(r.error.trim().length > 0);
    }),
    opts(500),
  );
});

// ---------------------------------------------------------------- no T-SQL built from input

/**
 * Places allowed to put SQL keywords next to runtime values, and why:
 * - src/engine/notebook/replay.ts writes the replay script for a person to run by hand: every value goes through
 *   sqlLiteral and every name through quoteName (test/unit/notebook.test.ts checks hostile names).
 * - src/engine/check.ts (spinlab check) writes the GRANT each missing permission needs, shown to the user, never sent.
 * - src/engine/errors.ts (grantFor) writes the GRANT a missing permission needs, shown in an error message and never
 *   sent; the login and database names in it are bracket-quoted with ] doubled.
 * - src/engine/tune/result.ts writes the T-SQL that applies a tune's winner, shown to the user and never sent (--apply
 *   sets the knobs through the sql/knobs files): CPU and node numbers formatted from the topology, the database name
 *   bracket-quoted with ] doubled.
 * - src/engine/checkJournal.ts (spinlab check) writes the statements that check and set back by hand what a restore
 *   journal that cannot be read may cover, shown to the user and never sent: the lab database's name bracket-quoted
 *   with ] doubled, and as a literal with ' doubled.
 * - src/shared/cycleMath.ts and src/webview: none needed today; listed here only if they ever do, with a reason.
 */
const ALLOWED = new Set([
  'src/engine/notebook/replay.ts',
  'src/engine/errors.ts',
  'src/engine/check.ts',
  'src/engine/checkJournal.ts',
  'src/engine/tune/result.ts',
]);
const SQL =
  /\b(SELECT|INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM|EXEC(UTE)?|ALTER\s+(DATABASE|SERVER|TABLE|PROCEDURE|INDEX)|CREATE\s+(DATABASE|TABLE|PROCEDURE|INDEX|LOGIN|USER)|DROP\s+(DATABASE|TABLE|PROCEDURE|INDEX)|DECLARE\s+@|GRANT\s|USE\s+\[?\w|MERGE\s+INTO|TRUNCATE\s+TABLE|WAITFOR|sp_executesql)\b/;

function srcFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? srcFiles(p) : /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Template strings with substitutions, and `+` chains with a string part, whose text has a SQL keyword. */
function sqlBuiltFromValues(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const hits: string[] = [];
  const at = (n: ts.Node) => `${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}: ${n.getText().slice(0, 120)}`;
  const literalText = (n: ts.Node): string => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return n.text;
    if (ts.isTemplateExpression(n)) return [n.head.text, ...n.templateSpans.map((s) => s.literal.text)].join(' ');
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.PlusToken)
      return `${literalText(n.left)} ${literalText(n.right)}`;
    if (ts.isParenthesizedExpression(n)) return literalText(n.expression);
    return '';
  };
  const visit = (n: ts.Node) => {
    if (ts.isTemplateExpression(n) && SQL.test(literalText(n))) hits.push(at(n));
    else if (
      ts.isBinaryExpression(n) &&
      n.operatorToken.kind === ts.SyntaxKind.PlusToken &&
      !(ts.isBinaryExpression(n.parent) && n.parent.operatorToken.kind === ts.SyntaxKind.PlusToken)
    ) {
      const parts = literalText(n);
      const hasValue = (x: ts.Node): boolean =>
        ts.isBinaryExpression(x) && x.operatorToken.kind === ts.SyntaxKind.PlusToken
          ? hasValue(x.left) || hasValue(x.right)
          : !(ts.isStringLiteral(x) || ts.isNoSubstitutionTemplateLiteral(x));
      if (SQL.test(parts) && hasValue(n)) hits.push(at(n));
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return hits;
}

it('no file under src/ builds T-SQL from values (template strings or concatenation with SQL keywords), outside the documented exceptions', () => {
  const root = path.resolve(__dirname, '..', '..', '..');
  const files = srcFiles(path.join(root, 'src'));
  assert.ok(files.length > 50, `scanned ${files.length} files`);
  const found: string[] = [];
  for (const f of files) {
    const rel = path.relative(root, f).split(path.sep).join('/');
    if (ALLOWED.has(rel)) continue;
    for (const h of sqlBuiltFromValues(f)) found.push(`${rel}:${h}`);
  }
  assert.deepEqual(found, [], `T-SQL built from values outside the allowed files:\n${found.join('\n')}`);
  // The scanner finds what it is meant to find: the allowed files do contain such text.
  assert.ok(sqlBuiltFromValues(path.join(root, 'src/engine/errors.ts')).length > 0, 'the scanner sees grantFor');
  assert.ok(sqlBuiltFromValues(path.join(root, 'src/engine/notebook/replay.ts')).length > 0, 'the scanner sees the replay script');
  // And only src/db/client.ts hands text to the driver, taken from sql/ files, never from a caller.
  const driverCalls = files.filter(
    (f) => !f.endsWith(path.join('db', 'client.ts')) && /\.(query|batch)\(\s*[`'"]/.test(fs.readFileSync(f, 'utf8')),
  );
  assert.deepEqual(driverCalls, []);
});
