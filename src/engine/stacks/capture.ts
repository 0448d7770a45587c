// `spinlab stacks` and the panel's "Why is it spinning?": one Extended Events capture of sqlos.spinlock_backoff call
// stacks for one spinlock type. The session is journaled before it is created and dropped afterwards
// on success, failure and cancel; after a crash or a kill, `spinlab restore` drops it (sessions.ts).
import { DbSession } from '../../db/client';
import { describeTarget, targetAddress, type DbTarget } from '../../db/target';
import { DbError } from '../../db/dbError';
import { num, numOrNull, str, type Row } from '../../db/rows';
import type { StackCapture, StackSessionOptions } from '../../shared/stacks';
import { categoryOf, explain, grantFor, SpinlabError } from '../errors';
import { defaultStateDir, serverKey } from '../journal';
import { readIdentity } from '../server';
import type { ServerIdentity } from '../../shared/types';
import { foldTree, topBuckets } from './fold';
import { FIRING_NOTES, countNotes } from './notes';
import { parseHistogram, type HistogramSlot } from './parse';
import { dropSession, journalSession, newSessionName, releaseSession, UNCONFIRMED_DROP, type SessionJournalContext } from './sessions';
import { featureVersion } from '../../shared/serverLevel';
import { maxDurationSeconds, readBufferTopology, sessionOptions, sessionSizing, supportsMaxDuration, type SessionSizing } from './sizing';

export interface CaptureOptions {
  spinlock: string;
  durationMs: number;
  /** Stacks listed in `buckets`; the rest are summed in `otherCount` (the tree holds them all). */
  top: number;
  signal: AbortSignal;
  onProgress?: (p: CaptureProgress) => void;
  /** Where the restore journal lives (default ~/.spinlab or SPINLAB_STATE_DIR). */
  stateDir?: string;
  /** Histogram buckets (the target's slots), 16..16384; default 256 as the target's own default. */
  slots?: number;
  /** The session's buffers; default: sized from the server's CPUs and NUMA nodes (sizing.ts). */
  sizing?: SessionSizing;
  /**
   * MAX_DURATION, so the session stops itself if this process dies. Default: where the server takes it (SQL Server
   * 2025+). true also asks it of a Managed Instance, which has it only under the Always-up-to-date update policy;
   * false never sends it.
   */
  maxDuration?: boolean;
}

export type CaptureProgress = { kind: 'status'; message: string } | { kind: 'tick'; elapsedMs: number; durationMs: number };

export interface CaptureDetail {
  capture: StackCapture;
  /** Every bucket the histogram returned (the export writes them all). */
  slots: HistogramSlot[];
  buckets: number;
}

/** The GRANTs an event session needs, for the login the user connected as. */
export function eventSessionGrant(login: string, major: number | null): string {
  return grantFor('ALTER ANY EVENT SESSION', login, major);
}

/** A permission failure (Msg 297/300/262/15247, or a message saying so) rather than any other error. */
function denied(err: unknown): boolean {
  const nums = err instanceof DbError ? [err.number, ...err.all.map((e) => e.number)] : [];
  return nums.some((n) => n === 297 || n === 300 || n === 262 || n === 15247) || /permission/i.test((err as Error)?.message ?? '');
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

async function readSpinlock(
  db: DbSession,
  spinlock: string,
  identity: ServerIdentity,
): Promise<{ mapKey: number | null; backoffs: number | null }> {
  try {
    const [types = [], stats = []] = await db.runFile('xe/spinlock-type', { spinlock });
    return { mapKey: types[0] ? num(types[0].map_key) : null, backoffs: stats[0] ? numOrNull(stats[0].backoffs) : null };
  } catch (err) {
    throw explain(err, `Looking up the spinlock type ${spinlock}`, { login: identity.login, majorVersion: featureVersion(identity) });
  }
}

/** A name as sys.dm_os_spinlock_stats gives it (letters, digits, _): the only text the capture's DDL takes from a user. */
export function isSpinlockName(s: string): boolean {
  return /^[A-Za-z0-9_]{1,256}$/.test(s);
}

interface TargetLoss {
  droppedEvents: number | null;
  droppedBuffers: number | null;
}

/** A column of the read-target row; null when the row lacks it or holds NULL. */
function column(row: Row, name: string): number | null {
  return name in row ? numOrNull(row[name]) : null;
}

/** The drop counters of sys.dm_xe_sessions, as read while the session ran. */
function readLoss(row: Row): TargetLoss {
  return { droppedEvents: column(row, 'dropped_event_count'), droppedBuffers: column(row, 'dropped_buffer_count') };
}

/** The session's options in words, for the progress line. */
export function describeOptions(o: StackSessionOptions): string {
  const shape = o.cpus === null ? '' : ` for ${o.cpus} CPUs on ${o.numaNodes} NUMA node${o.numaNodes === 1 ? '' : 's'}`;
  return `MEMORY_PARTITION_MODE = ${o.partition}, MAX_MEMORY = ${o.maxMemoryKb / 1024} MB${shape}${o.maxDurationS === null ? '' : `, MAX_DURATION = ${o.maxDurationS} SECONDS`}`;
}

/** Captures backoff call stacks for one spinlock for `durationMs` and returns them with every bucket (for the export). */
export async function captureStacksDetailed(target: DbTarget, opts: CaptureOptions): Promise<CaptureDetail> {
  const progress = opts.onProgress ?? (() => undefined);
  if (!isSpinlockName(opts.spinlock)) {
    throw new SpinlabError(
      'user-input',
      `"${opts.spinlock}" is not a spinlock name.`,
      'give a name as sys.dm_os_spinlock_stats lists it, e.g. LOGCACHE_ACCESS or XDESMGR.',
    );
  }
  if (!(opts.durationMs >= 1000))
    throw new SpinlabError('user-input', `The capture must last at least 1 s (asked: ${opts.durationMs} ms).`, 'e.g. --duration 30s.');
  progress({ kind: 'status', message: `connecting to ${describeTarget(target)}` });
  const db = await DbSession.open(target, { database: 'master', appName: 'Spinlock Lab stacks' });
  try {
    const identity = await readIdentity(db);
    const spinlock = opts.spinlock.toUpperCase();
    const before = await readSpinlock(db, spinlock, identity);
    if (before.mapKey === null) {
      throw new SpinlabError(
        'user-input',
        `This server has no spinlock type named ${spinlock} in sys.dm_xe_map_values (name = 'spinlock_types').`,
        'check the name against sys.dm_os_spinlock_stats (spinlab watch lists the busiest); names differ between versions.',
      );
    }
    const address = targetAddress(target);
    const jctx: SessionJournalContext = {
      stateDir: opts.stateDir ?? defaultStateDir(),
      serverKey: serverKey(address, identity.serverName),
      serverAddress: address,
      serverName: identity.serverName,
    };
    const topology = opts.sizing ? null : await readBufferTopology(db);
    const sizing = opts.sizing ?? sessionSizing(topology);
    const maxDurationS =
      opts.maxDuration !== false && supportsMaxDuration(identity, opts.maxDuration) ? maxDurationSeconds(opts.durationMs) : null;
    const options = sessionOptions(sizing, topology, maxDurationS);
    const session = newSessionName(spinlock);
    const startedAt = new Date();
    journalSession(jctx, session);
    let dropped: boolean | null = false;
    try {
      progress({
        kind: 'status',
        message: `creating event session ${session} (sqlos.spinlock_backoff, type ${before.mapKey} = ${spinlock}; ${describeOptions(options)})`,
      });
      try {
        await db.runFile('xe/create-session', {
          session,
          type: before.mapKey,
          slots: opts.slots ?? 256,
          partition: sizing.partition,
          max_memory_kb: sizing.maxMemoryKb,
          max_duration_s: maxDurationS,
        });
      } catch (err) {
        throw new SpinlabError(
          denied(err) ? 'permission' : categoryOf(err),
          `Creating the event session failed: ${(err as Error).message}`,
          denied(err) ? eventSessionGrant(identity.login, featureVersion(identity)) : undefined,
          err,
        );
      }
      const t0 = Date.now();
      while (!opts.signal.aborted && Date.now() - t0 < opts.durationMs) {
        await sleep(Math.min(1000, opts.durationMs - (Date.now() - t0)), opts.signal);
        progress({ kind: 'tick', elapsedMs: Math.min(Date.now() - t0, opts.durationMs), durationMs: opts.durationMs });
      }
      const elapsed = Date.now() - t0;
      // The target receives events within MAX_DISPATCH_LATENCY (1 s): wait it out before reading.
      await new Promise((r) => setTimeout(r, 1100));
      let targetData: string | null = null;
      let loss: TargetLoss = { droppedEvents: null, droppedBuffers: null };
      try {
        const [rows = []] = await db.runFile('xe/read-target', { session });
        targetData = rows[0] ? (rows[0].target_data === null ? null : str(rows[0].target_data)) : null;
        if (rows[0]) {
          loss = readLoss(rows[0]);
          options.regularBuffers = column(rows[0], 'total_regular_buffers');
          options.regularBufferBytes = column(rows[0], 'regular_buffer_size');
        }
      } catch (err) {
        throw explain(err, 'Reading the histogram target', { login: identity.login, majorVersion: featureVersion(identity) });
      }
      const after = await readSpinlock(db, spinlock, identity);
      dropped = await dropSession(db, session);
      const histogram = parseHistogram(targetData);
      const { buckets, otherCount, events } = topBuckets(histogram.slots, opts.top);
      const dmvBackoffs = before.backoffs !== null && after.backoffs !== null ? Math.max(0, after.backoffs - before.backoffs) : null;
      const notes = [...countNotes(spinlock, events, dmvBackoffs, elapsed, identity.simulated, { ...loss, options }), ...FIRING_NOTES];
      if (opts.signal.aborted)
        notes.unshift(
          `Cancelled after ${(elapsed / 1000).toFixed(1)} s of the ${(opts.durationMs / 1000).toFixed(1)} s asked: these are the stacks counted until then.`,
        );
      if (!targetData) notes.unshift('The histogram target returned no data (the session may not have dispatched any event yet).');
      const capture: StackCapture = {
        spinlock,
        mapKey: before.mapKey,
        session,
        startedAt: startedAt.toISOString(),
        durationMs: elapsed,
        events,
        dmvBackoffs,
        droppedEvents: loss.droppedEvents,
        droppedBuffers: loss.droppedBuffers,
        sessionOptions: options,
        simulated: identity.simulated,
        buckets,
        otherCount,
        tree: foldTree(histogram.slots),
        notes,
      };
      return { capture, slots: histogram.slots, buckets: histogram.buckets };
    } finally {
      if (dropped === false) {
        try {
          dropped = await dropSession(db, session);
        } catch {
          // Left journaled: `spinlab restore` drops it once this process is gone.
        }
      }
      if (dropped !== false) releaseSession(jctx, session);
      if (dropped === null)
        progress({ kind: 'status', message: `event session ${session}: DROP EVENT SESSION sent, but ${UNCONFIRMED_DROP}` });
      if (dropped === false)
        progress({ kind: 'status', message: `could not drop event session ${session}: run \`spinlab restore\` to drop it` });
    }
  } finally {
    await db.close();
  }
}

/** The capture the host and the CLI show and save (captureStacksDetailed without the full bucket list). */
export async function captureStacks(target: DbTarget, opts: CaptureOptions): Promise<StackCapture> {
  return (await captureStacksDetailed(target, opts)).capture;
}
