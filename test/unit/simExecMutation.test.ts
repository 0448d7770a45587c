// Logic mutants of every reading file under sql/ (the simulator executes them all): each WHERE/ON comparison
// flipped, each WHERE/ON conjunct removed, each join key swapped for another column of the same type, each ORDER BY
// reversed. Since no handler knows what these files mean, a mutant is caught when running it against the model
// answers differently from the file as written (rows, columns or errors). Prints the counts and the survivors.
import assert from 'node:assert/strict';
import { listSqlFiles, loadSqlFile } from '../../src/db/sqlFiles';
import { ManualClock } from '../../tools/sim/model/clock';
import { executeBatch } from '../../tools/sim/model/exec/batch';
import { ModelHandler } from '../../tools/sim/model/handler';
import { BACKGROUND_DATABASE, startBackground } from '../../tools/sim/model/background';
import { SimModel } from '../../tools/sim/model/instance';
import { getAppLock } from '../../tools/sim/model/applocks';
import { noteDatabaseChange } from '../../tools/sim/model/holds';
import { sessionState } from '../../tools/sim/model/sessionState';
import { findView } from '../../tools/sim/model/views';
import { spinlockMapKey } from '../../tools/sim/model/xe';
import type { RpcParam, SessionContext } from '../../tools/sim/tds/contract';

const XE = (name: string) =>
  `CREATE EVENT SESSION [${name}] ON SERVER ADD EVENT sqlos.spinlock_backoff ADD TARGET package0.ring_buffer WITH (MAX_MEMORY = 4096 KB);`;
/** A capture's session on one spinlock type (its histogram), and with `ring` a second target the reader must skip. */
const HISTOGRAM = (name: string, type: number, ring: boolean) =>
  `CREATE EVENT SESSION [${name}] ON SERVER ADD EVENT sqlos.spinlock_backoff (ACTION (package0.callstack) WHERE ([type] = (${type}))) ADD TARGET package0.histogram (SET filtering_event_name = N'sqlos.spinlock_backoff', source_type = (1), source = N'package0.callstack', slots = (256))${ring ? ', ADD TARGET package0.ring_buffer' : ''} WITH (MAX_MEMORY = 4096 KB);`;

/** Values for the files' parameters, by name: the busy database, this session's id, a few requests. */
const PARAMS: Record<string, string | number | null> = {
  '@db': BACKGROUND_DATABASE,
  '@db_physical': null,
  '@ids': ',51,',
  '@top_requests': 5,
  '@text_chars': 100,
  '@resource': 'spinlab_lab',
  '@mode': 'Exclusive',
  '@session': 'SpinlockLab_h',
  '@spinlock': 'LOGCACHE_ACCESS',
  '@type': 24,
  '@slots': 256,
  '@partition': 'PER_NODE',
  '@max_memory_kb': 8192,
  '@max_duration_s': null,
  '@spid': 52,
};

/**
 * Files whose predicates bite on different inputs run several times on one model, each run with its own parameters
 * (over PARAMS) and login, and their answers compared together: a session present and absent, a login that sees
 * sys.server_event_sessions and one that does not (blind: ALTER ANY EVENT SESSION only), a bound and an unbound
 * MAX_DURATION, a spinlock name that is also a latch class (DBTABLE) in sys.dm_xe_map_values.
 */
const RUNS: Record<string, { params?: Record<string, string | number | null>; login?: 'blind' }[]> = {
  'xe/create-session': [
    { params: { '@session': 'SpinlockLab_new' } },
    { params: { '@session': 'SpinlockLab_new2', '@max_duration_s': 40 } },
  ],
  'xe/drop-session': [
    {},
    { params: { '@session': 'SpinlockLab_none' } },
    { login: 'blind', params: { '@session': 'SpinlockLab_h2' } },
    { login: 'blind', params: { '@session': 'SpinlockLab_none' } },
  ],
  'xe/spinlock-type': [{}, { params: { '@spinlock': 'DBTABLE' } }],
};
/** MAX_DURATION is SQL Server 2025's (17): the file's bounds on it only run there. */
const VERSION: Record<string, number> = { 'xe/create-session': 17 };
/** lab/lock-release releases what lab/lock-take took first (releasing a lock not held is Msg 1223). */
const TAKE = loadSqlFile('lab/lock-take').batches[0];
/** The files that compare with the session's snapshot #temp tables: set up first, then two ticks, the second a delta. */
const SNAPSHOT_TICKS = new Set(['dmv/sample-delta', 'watch/tick-delta']);
const SETUP = loadSqlFile('dmv/snapshot-setup').batches[0];

/**
 * A model up 400 days (counters past 2^31, model/uptime.ts) where each predicate of the files has rows on both sides:
 * offline CPUs, event sessions ours and not, disk-based and memory-optimized user tables, a second session, and a
 * --background workload writing in the session's database (pending log I/O, requests).
 */
async function answer(file: string, batch: string, setup = SETUP): Promise<string> {
  const clock = new ManualClock();
  const model = new SimModel({
    password: 'pw',
    clock,
    seed: 7,
    uptimeMs: 400 * 86_400_000,
    version: VERSION[file],
    logins: [{ name: 'blind', password: 'pw', permissions: ['ALTER ANY EVENT SESSION'] }],
  });
  const h = new ModelHandler(model);
  const stop = startBackground(model, [{ scenario: 'disk-insert', sessions: 4 }]);
  const s: SessionContext = {
    spid: 51,
    login: 'sa',
    appName: 't',
    hostName: 'h',
    encrypted: false,
    database: BACKGROUND_DATABASE,
    state: new Map(),
  };
  model.sessionStarted(51, 'sa');
  const db = model.database(BACKGROUND_DATABASE)!;
  // Other wire sessions as the server lists them (KILL ends one): 52 in the busy database, 53 to 55 in master, logged
  // a second apart (lock-holder orders by login time).
  const others = [52, 53, 54, 55].map((spid): SessionContext => {
    model.sessionStarted(spid, 'sa');
    model.sessions.get(spid)!.loginTime = new Date(clock.now() - (60 - spid) * 1000);
    return { ...s, spid, hostName: `h${spid}`, clientPid: 1000 + spid, database: spid === 52 ? db.name : 'master', state: new Map() };
  });
  const live = new Map(others.map((o) => [o.spid, o]));
  model.connections = { list: () => [...live.values()], kill: (spid) => live.delete(spid) };
  const waiting = new AbortController();
  if (file === 'lab/lock-holder') {
    // Granted Shared to 51 (the caller), 52 and 54 (in the busy database), to 53 on another resource and to 55 in
    // master; 54 also waits for Exclusive.
    const lock = (o: SessionContext, resource: string, mode: string, timeoutMs = 0) =>
      getAppLock(model, o, { resource, mode, owner: 'Session', timeoutMs, principal: 'public' }, waiting.signal);
    const [o52, o53, o54, o55] = others;
    for (const o of [o53, o54]) o.database = db.name;
    await lock(s, PARAMS['@resource'] as string, 'Shared');
    await lock(o52, PARAMS['@resource'] as string, 'Shared');
    await lock(o54, PARAMS['@resource'] as string, 'Shared');
    await lock(o53, 'another_lock', 'Exclusive');
    await lock(o55, PARAMS['@resource'] as string, 'Exclusive');
    void lock({ ...o54, state: new Map() }, PARAMS['@resource'] as string, 'Exclusive', -1);
  }
  if (file === 'lab/holder') {
    // @db is 'lab', with a memory-optimized filegroup (its checkpoint workers, system sessions, live in it); the caller
    // is in it, 52 and 53 are in master, and 54 is in master with an open transaction that left locks in 'lab'.
    model.createDatabase('lab').hasXtpFilegroup = true;
    s.database = 'lab';
    const o54 = others[2];
    sessionState(o54).tranCount = 1;
    o54.database = 'lab';
    noteDatabaseChange(model, o54, 'lab');
    o54.database = 'master';
  }
  // server/check lists our leftover event sessions in name order: a second one of ours.
  if (file === 'server/check') await h.sqlBatch(s, XE('SpinlockLab_z'), new AbortController().signal);
  for (const name of ['dbo.lab_disk_a', 'dbo.lab_disk_b']) model.addObject(db, { name, type: 'U' });
  model.addObject(db, { name: 'dbo.lab_memory', type: 'U', memoryOptimized: true });
  model.addObject(db, { name: 'dbo.sysdiagrams', type: 'U', msShipped: true }); // SSMS's, is_ms_shipped = 1
  clock.advance(2000);
  const sig = new AbortController().signal;
  const nv = (name: string, value: string): RpcParam => ({ name, sqlType: { type: 'nvarchar', length: 4000 }, value, output: false });
  await h.rpc(
    s,
    'sp_executesql',
    [nv('@stmt', loadSqlFile('knobs/affinity-cpu').batches[0]), nv('@params', '@cpu_ranges nvarchar(4000)'), nv('@cpu_ranges', '2 TO 11')],
    sig,
  );
  // Ours by one pattern (1), by the other (2), neither (3): a flipped LIKE in an OR changes every count.
  // With the two captures below, 3 / 2 / 5: no two of the counts a flip could give are equal.
  for (const n of ['SpinlockLab_a', 'spinlab_b', 'spinlab_c', 'other_d', 'other_e', 'other_f', 'other_g', 'other_h']) {
    await h.sqlBatch(s, XE(n), sig);
    await h.sqlBatch(s, `ALTER EVENT SESSION [${n}] ON SERVER STATE = START;`, sig);
  }
  // Two captures running, on different spinlock types, the first with a ring_buffer target besides its histogram.
  for (const [n, type, ring] of [
    ['SpinlockLab_h', spinlockMapKey('LOGCACHE_ACCESS', model.version)!, true],
    ['SpinlockLab_h2', spinlockMapKey('XDESMGR', model.version)!, false],
  ] as const) {
    await h.sqlBatch(s, HISTOGRAM(n, type, ring), sig);
    await h.sqlBatch(s, `ALTER EVENT SESSION [${n}] ON SERVER STATE = START;`, sig);
  }
  clock.advance(2000);
  // A mutant is no longer the product's text, so it goes to the executor directly, as the file itself does.
  const paramDefs = loadSqlFile(file).parameters;
  const names = [...paramDefs.matchAll(/@\w+/g)].map((m) => m[0].toLowerCase());
  const blind: SessionContext = { ...s, spid: 56, login: 'blind', database: 'master', state: new Map() };
  model.sessionStarted(56, 'blind');
  const once = (text: string, r: (typeof RUNS)[string][number]) => {
    const p: Record<string, string | number | null> = { ...PARAMS, ...(file === 'lab/holder' ? { '@db': 'lab' } : {}), ...r.params };
    const params = new Map(names.map((n) => [n, p[n] ?? null]));
    return executeBatch({ model, session: r.login ? blind : s, params, paramDefs, signal: sig, text });
  };
  const run = async (text: string) => {
    const out = [];
    for (const r of RUNS[file] ?? [{}]) out.push(...(await once(text, r)));
    return out;
  };
  const items = [];
  // The per-second reads run three times, a second apart: the delta files' later ticks compare with the snapshot.
  if (SNAPSHOT_TICKS.has(file)) items.push(...(await run(setup)));
  if (file === 'lab/key-block') items.push(...(await run(loadSqlFile('lab/common').batches[0])));
  if (file === 'lab/lock-release')
    items.push(...(await executeBatch({ model, session: s, params: new Map(Object.entries(PARAMS)), signal: sig, text: TAKE })));
  for (let t = 0; t < (/^(dmv|watch)\//.test(file) ? 2 : 0); t++) {
    items.push(...(await run(batch)));
    clock.advance(1000);
  }
  items.push(...(await run(batch)));
  waiting.abort();
  stop();
  return JSON.stringify(items, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
}

const FLIP: Record<string, string> = { '=': '<>', '<>': '=', '<': '>=', '>=': '<', '>': '<=', '<=': '>' };
const codeOnly = (t: string) => t.replace(/--[^\n]*|N?'(?:[^']|'')*'/g, (m) => m.replace(/[^\n]/g, ' '));

/** A clause's text up to the parenthesis that closes what it sits in (an EXISTS or scalar subquery), if any. */
function enclosed(clause: string): string {
  let depth = 0;
  for (let i = 0; i < clause.length; i++) {
    if (clause[i] === '(') depth++;
    else if (clause[i] === ')' && --depth < 0) return clause.slice(0, i);
  }
  return clause;
}

/** The mutants of one batch: [what, text]. */
function mutants(batch: string): [string, string][] {
  const code = codeOnly(batch);
  const out: [string, string][] = [];
  const at = (i: number, len: number, by: string) => batch.slice(0, i) + by + batch.slice(i + len);
  // 1. Each comparison flipped, each LIKE negated (only after WHERE/ON/AND/OR, i.e. predicates).
  for (const m of code.matchAll(/(?<=\b(?:WHERE|ON|AND|OR)\s+[\w.@()]+\s*)(<>|<=|>=|=|<|>)(?=\s)/gi))
    out.push([`${m[0]} -> ${FLIP[m[0]]} at ${m.index}`, at(m.index!, m[0].length, FLIP[m[0]])]);
  for (const m of code.matchAll(/\bNOT LIKE\b|(?<!NOT )\bLIKE\b/gi))
    out.push([
      `${m[0]} -> ${/NOT/i.test(m[0]) ? 'LIKE' : 'NOT LIKE'} at ${m.index}`,
      at(m.index!, m[0].length, /NOT/i.test(m[0]) ? 'LIKE' : 'NOT LIKE'),
    ]);
  // 2. Each conjunct of a WHERE/ON removed (the first by its successor, the others with their AND). A clause ends
  // before the next clause, the end of the statement, or the parenthesis that closes its subquery.
  for (const m of code.matchAll(/\b(WHERE|ON)\s+([\s\S]*?)(?=\bWHERE\b|\bORDER\b|\bGROUP\b|\bLEFT\b|\bINNER\b|\bJOIN\b|\)\s*AS\b|;|$)/gi)) {
    const body = enclosed(m[2]);
    const from = m.index! + m[0].indexOf(m[2]);
    const parts = body.split(/\bAND\b/i);
    if (parts.length < 2) {
      if (/^ON$/i.test(m[1])) continue; // a join without its ON does not compile: the grammar's business
      out.push([`${m[1]} ${body.trim()} removed`, at(m.index!, from - m.index! + body.length, ' ')]);
      continue;
    }
    let off = from;
    parts.forEach((p, k) => {
      const len = p.length + (k < parts.length - 1 ? 3 : 0);
      const start = k === parts.length - 1 ? off - 3 : off;
      out.push([`${m[1]} conjunct '${p.trim()}' removed`, at(start, k === parts.length - 1 ? p.length + 3 : len, ' ')]);
      off += p.length + 3;
    });
  }
  // 3. Each join key swapped for another column of the same type in the same view.
  for (const m of code.matchAll(/\bJOIN\s+(sys\.\w+)\s+AS\s+(\w+)\s+ON\s+[\s\S]*?\b\2\.(\w+)/gi)) {
    const v = findView(m[1]);
    if (!v) continue;
    const cols = v.columns({ model: new SimModel({ password: 'pw', clock: new ManualClock() }), session: {} as SessionContext });
    const key = cols.find((c) => c.name === m[3]);
    const other = cols.find((c) => c.name !== m[3] && JSON.stringify(c.sqlType) === JSON.stringify(key?.sqlType));
    if (!other) continue;
    const i = m.index! + m[0].length - m[3].length;
    out.push([`join key ${m[2]}.${m[3]} -> ${m[2]}.${other.name}`, at(i, m[3].length, other.name)]);
  }
  // 4. Each ORDER BY reversed.
  for (const m of code.matchAll(/\bORDER BY\s+[\w.]+(?!\s+DESC)/gi)) out.push([`${m[0]} DESC`, at(m.index!, m[0].length, `${m[0]} DESC`)]);
  return out;
}

/** Each bigint column of the snapshot #tables (sql/dmv/snapshot-setup.sql) narrowed to int: [what, setup text]. */
function narrowed(setup: string): [string, string][] {
  const out: [string, string][] = [];
  const code = codeOnly(setup);
  for (const m of code.matchAll(/(\w+) bigint\b/g)) {
    const table = [...code.slice(0, m.index).matchAll(/CREATE TABLE (#\w+)/g)].pop()?.[1];
    if (!table) continue;
    const i = m.index! + m[1].length + 1;
    out.push([`${table}.${m[1]} bigint -> int`, setup.slice(0, i) + 'int' + setup.slice(i + 'bigint'.length)]);
  }
  return out;
}

/**
 * Mutants that cannot change the answer on SQL Server either:
 * - the DAC's scheduler is scheduler_id 1048576 and the hidden ones are above it, so each of these conjuncts is implied
 *   by another in the same WHERE;
 * - sys.dm_db_index_operational_stats has no rows for memory-optimized tables (its docs; XTP object stats cover
 *   them), so the join with sys.tables already leaves them out and 't.is_memory_optimized = 0' is implied;
 * - 'SQL Compilations/sec' and 'SQL Re-Compilations/sec' are counters of the SQL Statistics object only, so the
 *   object's LIKE is implied by the counter names; in dmv/sample-delta each CASE of the two MAXes picks its counter by
 *   name (ELSE 0, and cumulative counts are never negative), so its counter_name IN is implied by them too.
 */
const EQUIVALENT = [
  "watch/tick: WHERE conjunct 's.status NOT LIKE' removed",
  "now/sample: WHERE conjunct 's.status NOT LIKE' removed",
  // tick-delta.sql's two snapshot generations are the same statements (names swapped): each mutant comes twice.
  "watch/tick-delta: WHERE conjunct 's.status NOT LIKE' removed",
  "watch/tick-delta: WHERE conjunct 's.status NOT LIKE' removed",
  "watch/tick-delta: WHERE conjunct 'RTRIM(pc.object_name) LIKE' removed",
  "dmv/sample-delta: WHERE conjunct 't.is_memory_optimized = 0' removed",
  "dmv/sample-delta: WHERE conjunct 'RTRIM(ctr.object_name) LIKE' removed",
  "dmv/sample-delta: WHERE conjunct 'ctr.counter_name IN (                       ,                           )' removed",
  "dmv/sample: WHERE conjunct 't.is_memory_optimized = 0' removed",
  "knobs/read: WHERE conjunct 's.scheduler_id < 1048576' removed",
  "knobs/read: WHERE conjunct 's.status LIKE' removed",
  "knobs/read: WHERE conjunct 's.status NOT LIKE' removed",
  "server/topology: WHERE conjunct 's.status NOT LIKE' removed",
  // lab/lock-holder reads Spinlock Lab's resource names ('spinlab_...'): no other lock type's resource_description
  // holds one (a DATABASE lock's is empty; keys, pages and objects are ids and hashes), so the CHARINDEX conjunct already
  // keeps only APPLICATION rows.
  "lab/lock-holder: WHERE conjunct 'l.resource_type =' removed",
  // workload/session-share with @ids = ',51,': the caller's own session, which runs no workload, so whether the others'
  // requests or the caller's are filtered out of the counts changes nothing here (ownShare.test.ts runs real workloads).
  'workload/session-share: WHERE CHARINDEX(     + CAST(s.session_id AS nvarchar(10)) +     , @ids) > 0 removed',
  "workload/session-share: WHERE conjunct 'r.session_id <> @@SPID' removed",
  "workload/session-share: WHERE conjunct 'CHARINDEX(     + CAST(r.session_id AS nvarchar(10)) +     , @ids) = 0' removed",
];

/**
 * Mutants SQL Server could tell apart but the model cannot (what it does not model), each said why:
 * - every database's log file has been written in a model up 400 days, so 'vfs.num_of_writes > 0' filters nothing
 *   (a database whose log was never written since startup, e.g. a read-only one, would come back without it);
 * - the monitor's own session never has a waiting task in the model (it is running its tick), so
 *   'wt.session_id <> @@SPID' filters nothing (on SQL Server a parallel tick could wait on its own workers);
 * - every waiting task of the model has a session (the log writers' are system sessions), so tick-delta's
 *   'wt.session_id IS NOT NULL' filters nothing (on SQL Server a task of no session has a NULL one, which its
 *   anti-join with #spinlab_skip would otherwise keep);
 * - the model's sys.dm_db_index_operational_stats serves a heap or clustered index row per user table and no
 *   nonclustered index, so 'ios.index_id IN (0, 1)' filters nothing here (on a server with nonclustered indexes on
 *   the lab tables, removing it would count their rows again);
 * - the second 't.is_ms_shipped = 0' of dmv/sample and sample-delta reads memory-optimized tables only, and the model's
 *   one Microsoft-shipped table (dbo.sysdiagrams, which SSMS adds) is disk-based, as it is on SQL Server; the first,
 *   over the disk-based tables, is caught.
 */
const MODEL_GAPS = [
  "watch/tick: WHERE conjunct 'vfs.num_of_writes > 0' removed",
  "watch/tick: WHERE conjunct 'wt.session_id <> @@SPID' removed",
  "watch/tick-delta: WHERE conjunct 'vfs.num_of_writes > 0' removed",
  "watch/tick-delta: WHERE conjunct 'vfs.num_of_writes > 0' removed",
  "watch/tick-delta: WHERE conjunct 'wt.session_id IS NOT NULL' removed",
  "dmv/sample-delta: WHERE conjunct 'ios.index_id IN (0, 1)' removed",
  "dmv/sample: WHERE conjunct 'ios.index_id IN (0, 1)' removed",
  'dmv/sample: WHERE t.is_ms_shipped = 0 removed',
  'dmv/sample-delta: WHERE t.is_ms_shipped = 0 removed',
];

/**
 * Narrowed columns that change nothing here, each with its reason:
 * - sleep_time: the model's spinlock sleep time stays under 2^31 ms even 400 days up (about 1.2e8 for the busiest);
 * - max_wait_time_ms: one wait's longest, seconds at most in the model (a real server's can pass 2^31 ms only after
 *   a wait of 25 days).
 */
const NARROW_SURVIVORS = [
  'dmv/snapshot-setup: #spinlab_spin.sleep_time bigint -> int',
  'dmv/snapshot-setup: #spinlab_wait.max_wait_time_ms bigint -> int',
  'dmv/snapshot-setup: #spinlab_latch.max_wait_time_ms bigint -> int',
  // The same columns of the watch's other generation (sql/watch/tick-delta.sql writes the pairs in turn).
  'dmv/snapshot-setup: #spinlab_spin_now.sleep_time bigint -> int',
  'dmv/snapshot-setup: #spinlab_wait_now.max_wait_time_ms bigint -> int',
  'dmv/snapshot-setup: #spinlab_latch_now.max_wait_time_ms bigint -> int',
];

/**
 * The DDL files answer nothing when run: they change the model's state. The scenarios' procedures act when called,
 * read from the body's shape (loops, transactions, targets, slot sources; simDdl.test.ts), not from the predicates of
 * their UPDATEs, which the model does not evaluate (it keeps no rows of the lab's tables); the knobs and the lab
 * database's files are checked by what they change (simModel.test.ts, simDdl.test.ts, the integration tiers), the seeds
 * by the rows they leave (simSeedMutation.test.ts).
 */
const DDL_ONLY = (file: string) => file.startsWith('scenarios/') || /^knobs\/(affinity|delayed)|^lab\/(create|drop|add-xtp)/.test(file);

/**
 * lab/tables' ELSE branch (the empty answer of the right shape, WHERE 1 = 0) runs only when the database is missing or
 * offline; the database read here exists, so its mutants cannot show (simDdl.test.ts reads a missing one).
 */
const UNREACHED = ['lab/tables: = -> <> at 1010', 'lab/tables: WHERE 1 = 0 removed'];

describe('logic mutants of the executed sql/ files', () => {
  it('change what the simulator answers', async function () {
    this.timeout(300_000);
    let total = 0;
    const perFile = new Map<string, number>();
    const missed: string[] = [];
    for (const file of listSqlFiles()
      .filter((f) => !DDL_ONLY(f))
      .sort()) {
      for (const batch of loadSqlFile(file).batches) {
        const base = await answer(file, batch);
        assert.doesNotMatch(base, /"kind":"error"/, `${file} as written fails: ${base.slice(0, 400)}`);
        for (const [what, text] of mutants(batch)) {
          total++;
          perFile.set(file, (perFile.get(file) ?? 0) + 1);
          if ((await answer(file, text)) === base) missed.push(`${file}: ${what}`);
        }
      }
    }
    // The snapshot's bigint columns narrowed: on a server up 400 days the counters they keep pass 2^31 (Msg 8115).
    const ticks = [...SNAPSHOT_TICKS];
    const bases = await Promise.all(ticks.map((f) => answer(f, loadSqlFile(f).batches[0])));
    for (const [what, setup] of ticks.length ? narrowed(SETUP) : []) {
      total++;
      const got = await Promise.all(ticks.map((f) => answer(f, loadSqlFile(f).batches[0], setup)));
      if (got.every((g, i) => g === bases[i])) missed.push(`dmv/snapshot-setup: ${what}`);
    }
    console.log(`# logic mutants of executed files: ${total - missed.length} of ${total} caught`);
    console.log(`# per file: ${[...perFile].map(([f, n]) => `${f} ${n}`).join(', ')}`);
    for (const m of missed) console.log(`#   not caught: ${m}`);
    assert.ok(total >= 15, `too few mutants (${total}): the generator is broken`);
    assert.deepEqual(missed.sort(), [...EQUIVALENT, ...MODEL_GAPS, ...NARROW_SURVIVORS, ...UNREACHED].sort());
  });
});
