// The simulator's Extended Events: the strict parser of CREATE/ALTER/DROP EVENT SESSION, the executor running them
// (in a batch and in the dynamic SQL sql/xe/create-session.sql builds), and the model's sessions, permissions and histogram.
import assert from 'node:assert/strict';
import { parseXeDdl } from '../../tools/sim/grammar/xe';
import { findSyntaxError } from '../../tools/sim/grammar/tsql';
import { execSetup } from '../helpers/simExec';
import { loadSqlFile } from '../../src/db/sqlFiles';
import { type Permission, SimModel } from '../../tools/sim/model/instance';
import { BACKOFFS_PER_EVENT, spinlockMapKey, XeError } from '../../tools/sim/model/xe';
import { parseHistogram } from '../../src/engine/stacks/parse';

const CREATE =
  "CREATE EVENT SESSION [SpinlockLab_t] ON SERVER ADD EVENT sqlos.spinlock_backoff (ACTION (package0.callstack) WHERE ([type] = (5))) ADD TARGET package0.histogram (SET filtering_event_name = N'sqlos.spinlock_backoff', source_type = (1), source = N'package0.callstack', slots = (256)) WITH (MAX_MEMORY = 4096 KB, MAX_DISPATCH_LATENCY = 1 SECONDS);";

function statementOf(text: string) {
  const r = parseXeDdl(text);
  if ('fault' in r) throw new Error(`fault near ${r.fault.near}`);
  return r.statement;
}

describe('simulator: Extended Events DDL grammar', () => {
  it('accepts the documented CREATE, ALTER ... STATE and DROP shapes, with SSMS-style (n) values', () => {
    assert.equal(statementOf(CREATE).kind, 'create');
    assert.deepEqual(statementOf('ALTER EVENT SESSION [SpinlockLab_t] ON SERVER STATE = START;'), {
      kind: 'alter-state',
      name: 'SpinlockLab_t',
      state: 'START',
    });
    assert.deepEqual(statementOf('DROP EVENT SESSION SpinlockLab_t ON SERVER'), { kind: 'drop', name: 'SpinlockLab_t' });
  });

  it('rejects typos and shapes outside the documented syntax, naming the token as SQL Server does', () => {
    const near = (t: string) => {
      const r = parseXeDdl(t);
      return 'fault' in r ? r.fault.near : null;
    };
    assert.equal(near(CREATE.replace('MAX_DISPATCH_LATENCY', 'MAX_DISPATCH_LATENCYY')), 'MAX_DISPATCH_LATENCYY');
    assert.equal(near(CREATE.replace('1 SECONDS', '1 SECOND')), 'SECOND');
    assert.equal(near(CREATE.replace('ADD TARGET', 'ADD TARGT')), 'ADD');
    assert.equal(near(CREATE.replace(') ADD TARGET', '), ADD TARGET')), 'ADD'); // no comma between the event and target lists
    assert.equal(near(CREATE.replace('ACTION (', 'ACTIONS (')), 'ACTIONS');
    assert.equal(near(CREATE.replace('ON SERVER', 'ON SERVR')), 'SERVR');
    assert.equal(near('ALTER EVENT SESSION x ON SERVER STATE = STARTED'), 'STARTED');
    assert.equal(near('ALTER EVENT SESSION x ON SERVER ADD EVENT sqlos.spinlock_backoff, DROP EVENT sqlos.spinlock_backoff'), 'DROP');
  });

  it("is what the simulator's syntax check uses for such a batch (Msg 102/156 at the line)", () => {
    assert.equal(findSyntaxError(CREATE), null);
    const f = findSyntaxError(CREATE.replace('WITH (', 'WITH\n(MAX_MEMRY = 4 MB, '));
    assert.deepEqual([f?.near, f?.line], ['MAX_MEMRY', 2]);
  });
});

describe('simulator: sql/xe/create-session.sql as sent', () => {
  const file = loadSqlFile('xe/create-session');

  it('runs the DDL the batch builds from its parameters (QUOTENAME, CAST, CASE) through sp_executesql, on the model', async () => {
    const { model, run } = execSetup();
    const params = new Map<string, string | number | null>([
      ['@session', 'SpinlockLab_a]b'],
      ['@type', 53],
      ['@slots', 256],
      ['@partition', 'PER_NODE'],
      ['@max_memory_kb', 49152],
      ['@max_duration_s', null],
    ]);
    assert.deepEqual(await run(file.batches[0], params, file.parameters), []);
    const s = model.xe.sessions.get('spinlocklab_a]b')!;
    assert.equal(s.name, 'SpinlockLab_a]b');
    assert.ok(s.running, 'started by the ALTER ... STATE = START it built');
    assert.deepEqual(s.events[0].where, [{ text: '[type] = ( 53 )', field: 'type', op: '=', value: 53 }]);
    assert.deepEqual(s.targets[0].set, {
      filtering_event_name: 'sqlos.spinlock_backoff',
      source_type: 1,
      source: 'package0.callstack',
      slots: 256,
    });
    assert.deepEqual(s.options, {
      MAX_MEMORY: '49152 KB',
      EVENT_RETENTION_MODE: 'ALLOW_SINGLE_EVENT_LOSS',
      MAX_DISPATCH_LATENCY: '1 SECONDS',
      MEMORY_PARTITION_MODE: 'PER_NODE',
      TRACK_CAUSALITY: 'OFF',
      STARTUP_STATE: 'OFF',
    });
    // Again: the CREATE fails as SQL Server's does (25631); an error in sp_executesql ends that statement only, so
    // the batch goes on to the START, which fails too (25705: already started).
    const again = await run(file.batches[0], params, file.parameters);
    assert.deepEqual(
      again.map((m) => (m.kind === 'error' ? m.number : m.kind)),
      [25631, 25705],
    );
  });

  it("refuses a name without the prefix with the file's own THROW, before any DDL", async () => {
    const { model, run } = execSetup();
    const params = new Map<string, string | number | null>([
      ['@session', 'SpinlockLabX'],
      ['@type', 53],
      ['@slots', 256],
      ['@partition', 'NONE'],
      ['@max_memory_kb', 4096],
      ['@max_duration_s', null],
    ]);
    const out = await run(file.batches[0], params, file.parameters);
    assert.deepEqual(
      out.map((m) => (m.kind === 'error' ? m.number : m.kind)),
      [50020],
    );
    assert.equal(model.xe.sessions.size, 0);
  });
});

describe('simulator: event sessions and the histogram target', () => {
  const run = (m: SimModel, login: string, text: string) => m.xe.execute(m, login, statementOf(text));

  it('keys spinlock types per version, so a key hard-coded for one version is wrong on another', () => {
    assert.notEqual(spinlockMapKey('LOGCACHE_ACCESS', 13), spinlockMapKey('LOGCACHE_ACCESS', 16));
    assert.equal(spinlockMapKey('NOT_A_SPINLOCK', 16), undefined);
  });

  it('counts one event per eight backoffs of the filtered type, in synthetic SIMULATED! stacks', () => {
    const m = new SimModel({ version: 16, password: 'x' });
    const key = spinlockMapKey('XDESMGR', 16)!;
    run(m, 'sa', CREATE.replace('(5)', `(${key})`));
    run(m, 'sa', 'ALTER EVENT SESSION [SpinlockLab_t] ON SERVER STATE = START');
    const s = m.xe.sessions.get('spinlocklab_t')!;
    const base = s.running!.backoffsAtStart.get('XDESMGR')!;
    m.counters.spinlocks.get('XDESMGR')!.backoffs = base + 800;
    m.counters.spinlocks.get('LOGCACHE_ACCESS')!.backoffs += 8000; // another type: filtered out
    const h = parseHistogram(m.xe.targetData(m, s));
    assert.equal(
      h.slots.reduce((a, x) => a + x.count, 0),
      800 / BACKOFFS_PER_EVENT,
    );
    assert.ok(h.slots.every((x) => x.frames.every((f) => f.raw.startsWith('SIMULATED!'))));
    assert.ok(h.slots.some((x) => x.frames.some((f) => f.symbol === 'XDesMgr::GetXdesId')));
    run(m, 'sa', 'DROP EVENT SESSION [SpinlockLab_t] ON SERVER');
    assert.equal(m.xe.sessions.size, 0);
  });

  it("answers a login without the permission with Msg 297, and 2022's finer permissions are enough there only", () => {
    const m16 = new SimModel({
      version: 16,
      password: 'x',
      logins: [
        { name: 'weak', password: 'p', permissions: ['VIEW SERVER STATE'] },
        {
          name: 'fine',
          password: 'p',
          permissions: ['CREATE ANY EVENT SESSION', 'ALTER ANY EVENT SESSION ENABLE', 'DROP ANY EVENT SESSION'],
        },
      ],
    });
    assert.throws(
      () => run(m16, 'weak', CREATE),
      (e: unknown) => e instanceof XeError && e.number === 297,
    );
    run(m16, 'fine', CREATE);
    run(m16, 'fine', 'ALTER EVENT SESSION [SpinlockLab_t] ON SERVER STATE = START');
    run(m16, 'fine', 'DROP EVENT SESSION [SpinlockLab_t] ON SERVER');
    const m15 = new SimModel({
      version: 15,
      password: 'x',
      logins: [{ name: 'fine', password: 'p', permissions: ['CREATE ANY EVENT SESSION'] }],
    });
    assert.throws(() => run(m15, 'fine', CREATE), XeError);
  });

  it('refuses a duplicate name, an unknown event and a histogram on an action the event lacks', () => {
    const m = new SimModel({ version: 16, password: 'x' });
    run(m, 'sa', CREATE);
    assert.throws(() => run(m, 'sa', CREATE), /already exists/);
    assert.throws(
      () => run(m, 'sa', CREATE.replace('[SpinlockLab_t]', 'x').replace('spinlock_backoff (', 'spinlock_backof (')),
      /event name/,
    );
    assert.throws(() => run(m, 'sa', CREATE.replace('[SpinlockLab_t]', 'y').replace('ACTION (package0.callstack) ', '')), /not an action/);
  });
});

describe('simulator: event session statements in the executor', () => {
  const numbers = (out: { kind: string; number?: number }[]) => out.map((m) => (m.kind === 'error' ? m.number : m.kind));

  it('ends a statement without its ; where the next one starts, and reads what it did from the XE views', async () => {
    const { model, run } = execSetup();
    const out = await run(
      `${CREATE.slice(0, -1)}\nALTER EVENT SESSION [SpinlockLab_t] ON SERVER STATE = START\nSELECT name FROM sys.dm_xe_sessions WHERE name LIKE N'SpinlockLab[_]%'\nDROP EVENT SESSION [SpinlockLab_t] ON SERVER`,
    );
    assert.deepEqual(
      out.map((m) => (m.kind === 'resultSet' ? m.rows : m.kind)),
      [[['SpinlockLab_t']]],
    );
    assert.equal(model.xe.sessions.size, 0);
  });

  it('refuses the whole batch on a syntax error in one of them (a compile error: nothing runs)', async () => {
    const { model, run } = execSetup();
    const out = await run(`${CREATE}\nALTER EVENT SESSION [SpinlockLab_t] ON SERVER STATE = STARTED;`);
    assert.deepEqual(
      out.map((m) => (m.kind === 'error' ? [m.number, m.message, m.line] : m.kind)),
      [[102, "Incorrect syntax near 'STARTED'.", 2]],
    );
    assert.equal(model.xe.sessions.size, 0);
  });

  it("create-session.sql for a login with 2022's finer permissions: enough on 2022, Msg 297 on 2019", async () => {
    const file = loadSqlFile('xe/create-session');
    const params = new Map<string, string | number | null>([
      ['@session', 'SpinlockLab_f'],
      ['@type', 5],
      ['@slots', 256],
      ['@partition', 'NONE'],
      ['@max_memory_kb', 4096],
      ['@max_duration_s', null],
    ]);
    const fine = { name: 'fine', password: 'p', permissions: ['CREATE ANY EVENT SESSION', 'ALTER ANY EVENT SESSION ENABLE'] as const };
    const on = async (version: number) => {
      const { model, run } = execSetup({ version, logins: [{ ...fine, permissions: [...fine.permissions] }], login: 'fine' });
      return { out: numbers(await run(file.batches[0], params, file.parameters)), session: model.xe.sessions.get('spinlocklab_f') };
    };
    const v16 = await on(16);
    assert.deepEqual(v16.out, []);
    assert.ok(v16.session?.running);
    const v15 = await on(15);
    // The CREATE is refused; the batch goes on to the START, which finds no session it may alter.
    assert.deepEqual(v15.out, [297, 297]);
    assert.equal(v15.session, undefined);
  });

  it("drop-session.sql with 2022's DROP ANY EVENT SESSION and VIEW SERVER PERFORMANCE STATE: dropped and confirmed", async () => {
    const file = loadSqlFile('xe/drop-session');
    const perms: Permission[] = ['DROP ANY EVENT SESSION', 'VIEW SERVER PERFORMANCE STATE'];
    const { model, run } = execSetup({ logins: [{ name: 'dropper', password: 'p', permissions: perms }], login: 'dropper' });
    model.xe.execute(model, 'sa', statementOf(CREATE));
    const drop = async () => {
      const out = await run(file.batches[0], new Map([['@session', 'SpinlockLab_t']]), file.parameters);
      return out.map((m) => (m.kind === 'resultSet' ? m.rows : m.kind === 'error' ? m.number : m.kind));
    };
    assert.deepEqual(await drop(), [[[0]]]);
    assert.equal(model.xe.sessions.size, 0);
    assert.deepEqual(await drop(), [[[0]]], 'absent: nothing attempted, still 0');
  });

  it('read-target.sql without VIEW SERVER STATE: Msg 300 for sys.dm_xe_sessions, as on SQL Server', async () => {
    const file = loadSqlFile('xe/read-target');
    const { run } = execSetup({ logins: [{ name: 'weak', password: 'p', permissions: ['ALTER ANY EVENT SESSION'] }], login: 'weak' });
    const out = numbers(await run(file.batches[0], new Map([['@session', 'SpinlockLab_t']]), file.parameters));
    assert.equal(out[0], 300);
  });
});
