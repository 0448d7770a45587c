// Extended Events in the simulator, as far as Spinlock Lab uses them: the spinlock_types map (sys.dm_xe_map_values),
// server event sessions (CREATE/ALTER/DROP EVENT SESSION, parsed by grammar/xe.ts), sys.server_event_sessions,
// sys.dm_xe_sessions, sys.dm_xe_session_targets, and a histogram target keyed on package0.callstack whose buckets
// grow with the simulated backoffs of the filtered spinlock type. Following Ignacio Alonso (Microsoft, 2012), the
// event is raised only on the backoffs that sleep, every eighth, so the simulator fires one event per 8 backoffs.
// Every frame is synthetic and says so (SIMULATED!...); the names after it are those Chris Adkin's posts and
// Microsoft's SQLCAT article name for these code paths.
import type { XeEventDef, XeStatement, XeTargetDef } from '../grammar/xe';
import { err, SqlError } from './errors';
import { SPINLOCK_NAMES } from './names';
import { addr, cols, SystemView, T } from './types';
import type { SimModel } from './instance';

export const BACKOFFS_PER_EVENT = 8;
const PKG0 = '60aa9fbf-673b-4553-b7ed-71dca7f5e972';
const SQLOS = 'bd97cc63-3f38-4922-aa93-607bd12e78b2';

/** The map key of a spinlock type at a version: shifted per version, so a key hard-coded for one version is wrong on another. */
export function spinlockMapKey(name: string, version: number): number | undefined {
  const i = SPINLOCK_NAMES.indexOf(name.toUpperCase());
  return i < 0 ? undefined : i * 2 + 3 + (version - 13) * 7;
}

const EVENTS: Record<string, string[]> = { 'sqlos.spinlock_backoff': ['type'], 'sqlos.spinlock_backoff_warning': ['type'] };
const ACTIONS = new Set(['package0.callstack']);
const TARGETS: Record<string, string[]> = { 'package0.histogram': ['filtering_event_name', 'source_type', 'source', 'slots'], 'package0.ring_buffer': ['max_events_limit', 'max_memory', 'occurrence_number'] };

const TOP = ['SIMULATED!sqldk!XeSosPkg::spinlock_backoff::Publish', 'SIMULATED!sqldk!SpinlockBase::Sleep', 'SIMULATED!sqldk!SpinlockBase::Backoff'];
const acquire = (n: string) => `SIMULATED!sqlmin!Spinlock<${n}>::SpinToAcquireWithExponentialBackoff`;
/** Synthetic stacks per spinlock, innermost first, with their share of the events. */
function stacksFor(spinlock: string): { weight: number; frames: string[] }[] {
  const head = [...TOP, acquire(spinlock)];
  if (spinlock === 'LOGCACHE_ACCESS') {
    return [
      { weight: 0.6, frames: [...head, 'SIMULATED!sqlmin!SQLServerLogMgr::AppendLogRequest', 'SIMULATED!sqlmin!XdesRMReadWrite::GenerateLogRec', 'SIMULATED!<the scenario\'s INSERT>'] },
      { weight: 0.3, frames: [...head, 'SIMULATED!sqlmin!SQLServerLogMgr::AppendLogRequest', 'SIMULATED!<COMMIT: the commit log record>'] },
      { weight: 0.1, frames: [...head, 'SIMULATED!sqlmin!SQLServerLogMgr::AppendLogRequest', 'SIMULATED!<BEGIN TRANSACTION log record>'] },
    ];
  }
  if (spinlock === 'XDESMGR') {
    return [
      { weight: 0.55, frames: [...head, 'SIMULATED!sqlmin!XDesMgr::GetXdesId', 'SIMULATED!<BEGIN TRANSACTION>'] },
      { weight: 0.45, frames: [...head, 'SIMULATED!sqlmin!XdesMgr::IsMoreThanOneWriterActive', 'SIMULATED!<COMMIT>'] },
    ];
  }
  return [{ weight: 1, frames: [...head, 'SIMULATED!<caller not modelled by the simulator>'] }];
}

export interface XeSession {
  id: number;
  name: string;
  events: XeEventDef[];
  targets: XeTargetDef[];
  options: Record<string, string>;
  running: null | { address: number; startedAt: Date; backoffsAtStart: Map<string, number> };
}

function denied(): SqlError {
  // SQL Server answers a missing event-session permission with Msg 297 "The user does not have permission to perform
  // this action." (seen for event sessions in the concurrency.com post "Rights Required for Creating Extended Events Sessions").
  return new SqlError([err(297, 'The user does not have permission to perform this action.', 16, 1)]);
}

export class XeState {
  readonly sessions = new Map<string, XeSession>();
  private nextId = 65536;
  private nextAddress = 1;

  restart(): void {
    for (const s of this.sessions.values()) s.running = null;
  }

  /** Executes one parsed statement for `login` on `model`. */
  execute(model: SimModel, login: string, st: XeStatement): void {
    const may = (fine: 'CREATE ANY EVENT SESSION' | 'DROP ANY EVENT SESSION' | 'ALTER ANY EVENT SESSION ENABLE' | 'ALTER ANY EVENT SESSION DISABLE' | null) =>
      model.hasPermission(login, 'ALTER ANY EVENT SESSION') || (fine !== null && model.version >= 16 && model.hasPermission(login, fine));
    const key = st.name.toLowerCase();
    const existing = this.sessions.get(key);
    switch (st.kind) {
      case 'create': {
        if (!may('CREATE ANY EVENT SESSION')) throw denied();
        if (existing) throw new SqlError([err(25631, `The event session, "${st.name}", already exists.  Choose a unique name for the event session.`, 16, 1)]);
        for (const ev of st.events) this.checkEvent(ev);
        for (const t of st.targets) this.checkTarget(t, st.events);
        this.sessions.set(key, { id: this.nextId++, name: st.name, events: st.events, targets: st.targets, options: st.options, running: null });
        return;
      }
      case 'drop':
        if (!may('DROP ANY EVENT SESSION')) throw denied();
        if (!existing) throw new SqlError([err(15151, `Cannot drop the event session '${st.name}', because it does not exist or you do not have permission.`, 16, 1)]);
        this.sessions.delete(key);
        return;
      case 'alter-state':
        if (!may(st.state === 'START' ? 'ALTER ANY EVENT SESSION ENABLE' : 'ALTER ANY EVENT SESSION DISABLE')) throw denied();
        if (!existing) throw new SqlError([err(15151, `Cannot alter the event session '${st.name}', because it does not exist or you do not have permission.`, 16, 1)]);
        if (st.state === 'START') {
          if (existing.running) throw new SqlError([err(25705, `The event session has already been started.`, 16, 1)]);
          model.advance();
          existing.running = { address: this.nextAddress++, startedAt: new Date(model.clock.now()), backoffsAtStart: new Map([...model.counters.spinlocks].map(([n, s]) => [n, s.backoffs])) };
        } else {
          if (!existing.running) throw new SqlError([err(25704, `The event session has not been started.`, 16, 1)]);
          existing.running = null; // an in-memory target's data goes with it
        }
        return;
      case 'alter-change':
        throw new SqlError([err(50000, 'The Spinlock Lab simulator (synthetic numbers, not a SQL Server) does not support adding or dropping events and targets of an existing event session.', 16, 1)]);
    }
  }

  private checkEvent(ev: XeEventDef): void {
    const name = `${ev.event.package}.${ev.event.name}`;
    const fields = EVENTS[name];
    if (!fields) throw new SqlError([err(25623, `The event name, "${name}", is invalid, or the object could not be found`, 16, 1)]);
    for (const a of ev.actions) {
      if (!ACTIONS.has(`${a.package}.${a.name}`)) throw new SqlError([err(25623, `The action name, "${a.package}.${a.name}", is invalid, or the object could not be found`, 16, 1)]);
    }
    for (const p of ev.where) {
      if (!fields.includes(p.field)) throw new SqlError([err(25706, `The event attribute or predicate source, "${p.field}", could not be found.`, 16, 1)]);
      if (typeof p.value !== 'number') throw new SqlError([err(25716, `The predicate on "${p.field}" compares it with a value of the wrong type.`, 16, 1)]);
    }
  }

  private checkTarget(t: XeTargetDef, events: XeEventDef[]): void {
    const name = `${t.target.package}.${t.target.name}`;
    const params = TARGETS[name];
    if (!params) throw new SqlError([err(25629, `For target, "${name}", the target name is invalid, or the object could not be found.`, 16, 1)]);
    for (const p of Object.keys(t.set)) {
      if (!params.includes(p)) throw new SqlError([err(25629, `For target, "${name}", the customizable attribute, "${p}", does not exist.`, 16, 1)]);
    }
    if (name === 'package0.histogram') {
      const filter = String(t.set.filtering_event_name ?? '').toLowerCase();
      if (filter && !events.some((e) => `${e.event.package}.${e.event.name}` === filter)) {
        throw new SqlError([err(25629, `For target, "${name}", the filtering_event_name "${filter}" is not an event of the session.`, 16, 1)]);
      }
      const source = String(t.set.source ?? '').toLowerCase();
      if (Number(t.set.source_type ?? 0) === 1 && !events.some((e) => e.actions.some((a) => `${a.package}.${a.name}` === source))) {
        throw new SqlError([err(25629, `For target, "${name}", the source "${source}" is not an action of the session's events.`, 16, 1)]);
      }
    }
  }

  /** The histogram's slots for a running session: events fired since START for the spinlock types its predicate selects. */
  histogram(model: SimModel, s: XeSession): { slots: { count: number; frames: string[] }[]; buckets: number } {
    const target = s.targets.find((t) => `${t.target.package}.${t.target.name}` === 'package0.histogram');
    const buckets = Number(target?.set.slots ?? 256);
    if (!s.running || !target) return { slots: [], buckets };
    const ev = s.events.find((e) => `${e.event.package}.${e.event.name}` === 'sqlos.spinlock_backoff');
    if (!ev || String(target.set.source ?? '').toLowerCase() !== 'package0.callstack') return { slots: [], buckets };
    model.advance();
    const slots: { count: number; frames: string[] }[] = [];
    for (const [name, totals] of model.counters.spinlocks) {
      const k = spinlockMapKey(name, model.version);
      if (k === undefined || !this.passes(ev, k)) continue;
      const events = Math.floor((totals.backoffs - (s.running.backoffsAtStart.get(name) ?? 0)) / BACKOFFS_PER_EVENT);
      if (events <= 0) continue;
      let left = events;
      const stacks = stacksFor(name);
      stacks.forEach((st, i) => {
        const n = i === stacks.length - 1 ? left : Math.floor(events * st.weight);
        left -= n;
        if (n > 0) slots.push({ count: n, frames: st.frames });
      });
    }
    slots.sort((a, b) => b.count - a.count);
    return { slots: slots.slice(0, buckets), buckets };
  }

  /** The predicate as the simulator evaluates it: every leaf on `type`, joined by the AND/OR written (left to right). */
  private passes(ev: XeEventDef, type: number): boolean {
    if (!ev.where.length) return true;
    const test = (p: XeEventDef['where'][number]) => {
      const v = Number(p.value);
      switch (p.op) {
        case '=': return type === v;
        case '<>': case '!=': return type !== v;
        case '>': return type > v;
        case '>=': return type >= v;
        case '<': return type < v;
        default: return type <= v;
      }
    };
    let ok = test(ev.where[0]);
    ev.whereOps.forEach((op, i) => { ok = op === 'AND' ? ok && test(ev.where[i + 1]) : ok || test(ev.where[i + 1]); });
    return ok;
  }

  targetData(model: SimModel, s: XeSession): string {
    const { slots, buckets } = this.histogram(model, s);
    const esc = (x: string) => x.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    return `<HistogramTarget truncated="0" buckets="${buckets}">${slots.map((x) => `<Slot count="${x.count}"><value>${x.frames.map(esc).join('\n')}</value></Slot>`).join('')}</HistogramTarget>`;
  }
}

const uuid = (s: string) => s;

export const XE_VIEWS: SystemView[] = [
  {
    name: 'sys.dm_xe_map_values', scope: 'server',
    columns: () => cols([['name', T.nvarchar(256)], ['object_package_guid', { type: 'uniqueidentifier' }], ['map_key', T.int], ['map_value', T.nvarchar(3072)]]),
    rows: (c) => SPINLOCK_NAMES.map((n) => ['spinlock_types', uuid(SQLOS), spinlockMapKey(n, c.model.version)!, n]),
  },
  {
    // Its docs page: "Requires VIEW SERVER STATE permission on the server."
    name: 'sys.server_event_sessions', scope: 'server',
    columns: () => cols([['event_session_id', T.int], ['name', T.sysname], ['event_retention_mode', T.nchar(1)], ['event_retention_mode_desc', T.sysname],
      ['max_dispatch_latency', T.int], ['max_memory', T.int], ['max_event_size', T.int], ['memory_partition_mode', T.nchar(1)],
      ['memory_partition_mode_desc', T.sysname], ['track_causality', T.bit], ['startup_state', T.bit]]),
    rows: (c) => [...c.model.xe.sessions.values()].map((s) => {
      const retention = s.options.EVENT_RETENTION_MODE ?? 'ALLOW_SINGLE_EVENT_LOSS';
      const latency = s.options.MAX_DISPATCH_LATENCY ?? '30 SECONDS';
      const partition = s.options.MEMORY_PARTITION_MODE ?? 'NONE';
      const kb = (v: string | undefined, d: number) => (v ? Number(v.split(' ')[0]) * (v.endsWith('MB') ? 1024 : 1) : d);
      return [s.id, s.name, retention === 'NO_EVENT_LOSS' ? 'N' : retention === 'ALLOW_MULTIPLE_EVENT_LOSS' ? 'M' : 'S', retention,
        latency === 'INFINITE' ? -1 : Number(latency.split(' ')[0]) * 1000, kb(s.options.MAX_MEMORY, 4096), kb(s.options.MAX_EVENT_SIZE, 0),
        partition === 'PER_NODE' ? 'N' : partition === 'PER_CPU' ? 'C' : 'G', partition, s.options.TRACK_CAUSALITY === 'ON', s.options.STARTUP_STATE === 'ON'];
    }),
  },
  {
    name: 'sys.dm_xe_sessions', scope: 'server',
    columns: () => cols([['address', T.varbinary(8)], ['name', T.nvarchar(256)], ['pending_buffers', T.int], ['total_regular_buffers', T.int],
      ['regular_buffer_size', T.bigint], ['total_large_buffers', T.int], ['large_buffer_size', T.bigint], ['total_buffer_size', T.bigint],
      ['buffer_policy_flags', T.int], ['buffer_policy_desc', T.nvarchar(256)], ['flags', T.int], ['flag_desc', T.nvarchar(256)],
      ['dropped_event_count', T.int], ['dropped_buffer_count', T.int], ['blocked_event_fire_time', T.int], ['create_time', T.datetime],
      ['largest_event_dropped_size', T.int]]),
    rows: (c) => [...c.model.xe.sessions.values()].filter((s) => s.running).map((s) => [addr(50_000 + s.running!.address), s.name, 0, 3, 1_398_101,
      0, 0, 4_194_303, 0, 'drop_event', 0, 'dispatch_latency', 0, 0, 0, s.running!.startedAt, 0]),
  },
  {
    name: 'sys.dm_xe_session_targets', scope: 'server',
    columns: () => cols([['event_session_address', T.varbinary(8)], ['target_name', T.nvarchar(60)], ['target_package_guid', { type: 'uniqueidentifier' }],
      ['execution_count', T.bigint], ['execution_duration_ms', T.bigint], ['target_data', T.nvarchar('max')]]),
    rows: (c) => [...c.model.xe.sessions.values()].filter((s) => s.running).flatMap((s) => s.targets.map((t) => [addr(50_000 + s.running!.address),
      t.target.name, uuid(PKG0), 0, 0, t.target.name === 'histogram' ? c.model.xe.targetData(c.model, s) : null])),
  },
];
