// Extended Events in the simulator, as far as Spinlock Lab uses them: the spinlock_types map (sys.dm_xe_map_values),
// server event sessions (CREATE/ALTER/DROP EVENT SESSION, parsed by grammar/xe.ts), sys.server_event_sessions,
// sys.dm_xe_sessions, sys.dm_xe_session_targets, and a histogram target keyed on package0.callstack whose buckets
// grow with the simulated backoffs of the filtered spinlock type. Following Ignacio Alonso (Microsoft, 2012), the
// event is raised only on the backoffs that sleep, every eighth, so the simulator fires one event per 8 backoffs.
// Every frame is synthetic and says so (SIMULATED!...); the names after it are those Chris Adkin's posts and
// Microsoft's SQLCAT article name for these code paths.
import type { XeEventDef, XeStatement, XeTargetDef } from '../grammar/xe';
import { SPINLOCK_NAMES } from './names';
import { bufferShape, durationMs, loss, memoryBytes, type BufferOptions, type BufferShape, type Loss } from './xeBuffers';

/** An error SQL Server would answer (the handlers turn it into the ERROR token); kept apart from errors.ts, which
 *  depends on the model this state belongs to. */
export class XeError extends Error {
  constructor(
    readonly number: number,
    message: string,
  ) {
    super(message);
  }
}

/** What the event sessions need of the instance (SimModel satisfies it). */
export interface XeHost {
  readonly version: number;
  readonly clock: { now(): number };
  readonly counters: { spinlocks: Map<string, { backoffs: number }> };
  /** The CPUs and the NUMA node of each (MEMORY_PARTITION_MODE's sets). */
  readonly machine: { cpus: readonly { node: number }[] };
  hasPermission(
    login: string,
    perm:
      | 'ALTER ANY EVENT SESSION'
      | 'CREATE ANY EVENT SESSION'
      | 'DROP ANY EVENT SESSION'
      | 'ALTER ANY EVENT SESSION ENABLE'
      | 'ALTER ANY EVENT SESSION DISABLE',
  ): boolean;
  advance(): void;
}

export const BACKOFFS_PER_EVENT = 8;
export const PKG0 = '60aa9fbf-673b-4553-b7ed-71dca7f5e972';
export const SQLOS = 'bd97cc63-3f38-4922-aa93-607bd12e78b2';

/** The map key of a spinlock type at a version: shifted per version, so a key hard-coded for one version is wrong on another. */
export function spinlockMapKey(name: string, version: number): number | undefined {
  const i = SPINLOCK_NAMES.indexOf(name.toUpperCase());
  return i < 0 ? undefined : i * 2 + 3 + (version - 13) * 7;
}

const EVENTS: Record<string, string[]> = { 'sqlos.spinlock_backoff': ['type'], 'sqlos.spinlock_backoff_warning': ['type'] };
const ACTIONS = new Set(['package0.callstack']);
const TARGETS: Record<string, string[]> = {
  'package0.histogram': ['filtering_event_name', 'source_type', 'source', 'slots'],
  'package0.ring_buffer': ['max_events_limit', 'max_memory', 'occurrence_number'],
};

const TOP = [
  'SIMULATED!sqldk!XeSosPkg::spinlock_backoff::Publish',
  'SIMULATED!sqldk!SpinlockBase::Sleep',
  'SIMULATED!sqldk!SpinlockBase::Backoff',
];
const acquire = (n: string) => `SIMULATED!sqlmin!Spinlock<${n}>::SpinToAcquireWithExponentialBackoff`;
/** Synthetic stacks per spinlock, innermost first, with their share of the events. */
function stacksFor(spinlock: string): { weight: number; frames: string[] }[] {
  const head = [...TOP, acquire(spinlock)];
  if (spinlock === 'LOGCACHE_ACCESS') {
    return [
      {
        weight: 0.6,
        frames: [
          ...head,
          'SIMULATED!sqlmin!SQLServerLogMgr::AppendLogRequest',
          'SIMULATED!sqlmin!XdesRMReadWrite::GenerateLogRec',
          "SIMULATED!<the scenario's INSERT>",
        ],
      },
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
  running: null | { address: number; startedAt: Date; backoffsAtStart: Map<string, number>; lost: Loss };
}

/** The session's buffer options as created (the documented defaults where the statement said nothing). */
export function bufferOptions(s: XeSession): BufferOptions {
  const partition = (s.options.MEMORY_PARTITION_MODE ?? 'NONE') as BufferOptions['partition'];
  const retention = (s.options.EVENT_RETENTION_MODE ?? 'ALLOW_SINGLE_EVENT_LOSS') as BufferOptions['retention'];
  return { partition, retention, maxMemoryBytes: memoryBytes(s.options.MAX_MEMORY) };
}

function denied(): XeError {
  // SQL Server answers a missing event-session permission with Msg 297 "The user does not have permission to perform
  // this action." (seen for event sessions in the concurrency.com post "Rights Required for Creating Extended Events Sessions").
  return new XeError(297, 'The user does not have permission to perform this action.');
}

export class XeState {
  readonly sessions = new Map<string, XeSession>();
  private nextId = 65536;
  private nextAddress = 1;

  restart(): void {
    for (const s of this.sessions.values()) s.running = null;
  }

  /** Stops the sessions whose MAX_DURATION has passed, as the server does on its own (an in-memory target's data goes). */
  expire(model: XeHost): void {
    for (const s of this.sessions.values()) {
      const limit = durationMs(s.options.MAX_DURATION);
      if (s.running && limit !== null && model.clock.now() - s.running.startedAt.getTime() >= limit) s.running = null;
    }
  }

  /** The buffer sets of a session on this machine. */
  shape(model: XeHost, s: XeSession): BufferShape {
    return bufferShape(bufferOptions(s), model.machine.cpus.length, new Set(model.machine.cpus.map((c) => c.node)).size);
  }

  /** What the running session has dropped so far (the counters only grow: the highest loss seen is kept). */
  lost(model: XeHost, s: XeSession): Loss {
    if (!s.running) return { events: 0, buffers: 0, lostEvents: 0 };
    const fired = [...this.fired(model, s).values()].reduce((a, n) => a + n, 0);
    const seconds = (model.clock.now() - s.running.startedAt.getTime()) / 1000;
    const now = loss(bufferOptions(s), this.shape(model, s), fired, seconds);
    const was = s.running.lost;
    if (now.lostEvents > was.lostEvents) s.running.lost = now;
    return s.running.lost;
  }

  /** Events fired since START per spinlock type the session's predicate passes (kept or not). */
  private fired(model: XeHost, s: XeSession): Map<string, number> {
    const out = new Map<string, number>();
    const ev = s.events.find((e) => `${e.event.package}.${e.event.name}` === 'sqlos.spinlock_backoff');
    if (!s.running || !ev) return out;
    model.advance();
    for (const [name, totals] of model.counters.spinlocks) {
      const k = spinlockMapKey(name, model.version);
      if (k === undefined || !this.passes(ev, k)) continue;
      const events = Math.floor((totals.backoffs - (s.running.backoffsAtStart.get(name) ?? 0)) / BACKOFFS_PER_EVENT);
      if (events > 0) out.set(name, events);
    }
    return out;
  }

  /** Executes one parsed statement for `login` on `model`. */
  execute(model: XeHost, login: string, st: XeStatement): void {
    this.expire(model);
    const may = (
      fine:
        'CREATE ANY EVENT SESSION' | 'DROP ANY EVENT SESSION' | 'ALTER ANY EVENT SESSION ENABLE' | 'ALTER ANY EVENT SESSION DISABLE' | null,
    ) =>
      model.hasPermission(login, 'ALTER ANY EVENT SESSION') || (fine !== null && model.version >= 16 && model.hasPermission(login, fine));
    const key = st.name.toLowerCase();
    const existing = this.sessions.get(key);
    switch (st.kind) {
      case 'create': {
        if (!may('CREATE ANY EVENT SESSION')) throw denied();
        if (existing)
          throw new XeError(25631, `The event session, "${st.name}", already exists.  Choose a unique name for the event session.`);
        for (const ev of st.events) this.checkEvent(ev);
        for (const t of st.targets) this.checkTarget(t, st.events);
        this.sessions.set(key, {
          id: this.nextId++,
          name: st.name,
          events: st.events,
          targets: st.targets,
          options: st.options,
          running: null,
        });
        return;
      }
      case 'drop':
        if (!may('DROP ANY EVENT SESSION')) throw denied();
        if (!existing)
          throw new XeError(15151, `Cannot drop the event session '${st.name}', because it does not exist or you do not have permission.`);
        this.sessions.delete(key);
        return;
      case 'alter-state':
        if (!may(st.state === 'START' ? 'ALTER ANY EVENT SESSION ENABLE' : 'ALTER ANY EVENT SESSION DISABLE')) throw denied();
        if (!existing)
          throw new XeError(15151, `Cannot alter the event session '${st.name}', because it does not exist or you do not have permission.`);
        if (st.state === 'START') {
          if (existing.running) throw new XeError(25705, `The event session has already been started.`);
          model.advance();
          existing.running = {
            address: this.nextAddress++,
            startedAt: new Date(model.clock.now()),
            backoffsAtStart: new Map([...model.counters.spinlocks].map(([n, s]) => [n, s.backoffs])),
            lost: { events: 0, buffers: 0, lostEvents: 0 },
          };
        } else {
          if (!existing.running) throw new XeError(25704, `The event session has not been started.`);
          existing.running = null; // an in-memory target's data goes with it
        }
        return;
      case 'alter-change':
        throw new XeError(
          50000,
          'The Spinlock Lab simulator (synthetic numbers, not a SQL Server) does not support adding or dropping events and targets of an existing event session.',
        );
    }
  }

  private checkEvent(ev: XeEventDef): void {
    const name = `${ev.event.package}.${ev.event.name}`;
    const fields = EVENTS[name];
    if (!fields) throw new XeError(25623, `The event name, "${name}", is invalid, or the object could not be found`);
    for (const a of ev.actions) {
      if (!ACTIONS.has(`${a.package}.${a.name}`))
        throw new XeError(25623, `The action name, "${a.package}.${a.name}", is invalid, or the object could not be found`);
    }
    for (const p of ev.where) {
      if (!fields.includes(p.field)) throw new XeError(25706, `The event attribute or predicate source, "${p.field}", could not be found.`);
      if (typeof p.value !== 'number')
        throw new XeError(25716, `The predicate on "${p.field}" compares it with a value of the wrong type.`);
    }
  }

  private checkTarget(t: XeTargetDef, events: XeEventDef[]): void {
    const name = `${t.target.package}.${t.target.name}`;
    const params = TARGETS[name];
    if (!params) throw new XeError(25629, `For target, "${name}", the target name is invalid, or the object could not be found.`);
    for (const p of Object.keys(t.set)) {
      if (!params.includes(p)) throw new XeError(25629, `For target, "${name}", the customizable attribute, "${p}", does not exist.`);
    }
    if (name === 'package0.histogram') {
      const filter = String(t.set.filtering_event_name ?? '').toLowerCase();
      if (filter && !events.some((e) => `${e.event.package}.${e.event.name}` === filter)) {
        throw new XeError(25629, `For target, "${name}", the filtering_event_name "${filter}" is not an event of the session.`);
      }
      const source = String(t.set.source ?? '').toLowerCase();
      if (Number(t.set.source_type ?? 0) === 1 && !events.some((e) => e.actions.some((a) => `${a.package}.${a.name}` === source))) {
        throw new XeError(25629, `For target, "${name}", the source "${source}" is not an action of the session's events.`);
      }
    }
  }

  /**
   * The histogram's slots for a running session: events fired since START for the spinlock types its predicate
   * selects, less those its buffers dropped (spread over the types in proportion).
   */
  histogram(model: XeHost, s: XeSession): { slots: { count: number; frames: string[] }[]; buckets: number } {
    this.expire(model);
    const target = s.targets.find((t) => `${t.target.package}.${t.target.name}` === 'package0.histogram');
    const buckets = Number(target?.set.slots ?? 256);
    if (!s.running || !target || String(target.set.source ?? '').toLowerCase() !== 'package0.callstack') return { slots: [], buckets };
    const fired = this.fired(model, s);
    const total = [...fired.values()].reduce((a, n) => a + n, 0);
    const kept = total > 0 ? (total - this.lost(model, s).lostEvents) / total : 0;
    const slots: { count: number; frames: string[] }[] = [];
    for (const [name, firedEvents] of fired) {
      const events = Math.floor(firedEvents * kept);
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
        case '=':
          return type === v;
        case '<>':
        case '!=':
          return type !== v;
        case '>':
          return type > v;
        case '>=':
          return type >= v;
        case '<':
          return type < v;
        default:
          return type <= v;
      }
    };
    let ok = test(ev.where[0]);
    ev.whereOps.forEach((op, i) => {
      ok = op === 'AND' ? ok && test(ev.where[i + 1]) : ok || test(ev.where[i + 1]);
    });
    return ok;
  }

  targetData(model: XeHost, s: XeSession): string {
    const { slots, buckets } = this.histogram(model, s);
    const esc = (x: string) => x.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    return `<HistogramTarget truncated="0" buckets="${buckets}">${slots.map((x) => `<Slot count="${x.count}"><value>${x.frames.map(esc).join('\n')}</value></Slot>`).join('')}</HistogramTarget>`;
  }
}
