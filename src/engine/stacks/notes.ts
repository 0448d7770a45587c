// What the user is told about a capture: when sqlos.spinlock_backoff fires and when it does not, with the source of
// each statement, and what the counts of this capture show. Nothing here is measured: the counts are passed in.
import type { StackSessionOptions } from '../../shared/stacks';
import { plural } from '../../shared/plural';

export const SOURCES = {
  sqlcat: 'Microsoft Learn, "Diagnose and resolve spinlock contention on SQL Server" (SQLCAT)',
  alonso:
    'Ignacio Alonso (Microsoft), "How do you explain that sys.dm_os_spinlock_stats.backoffs keeps increasing and no sqlos.spinlock_backoff event is produced?" (MSDN blog, 2012)',
  dorr: 'Bob Dorr (Microsoft), "How It Works: sp_server_diagnostics - spinlock backoffs" (SQL Server Support blog, 2014)',
} as const;

/** The documented behaviour, the same for every capture. */
export const FIRING_NOTES: string[] = [
  `A backoff in sys.dm_os_spinlock_stats counts a worker that exhausted its spins and backed off; the event traces those backoffs with the stack that was trying to acquire the spinlock (${SOURCES.sqlcat}; ${SOURCES.dorr}: "The XEvent spinlock_backoff maps to the dm_os_spinlock_stats, backoff column").`,
  `Not every backoff fires the event: the DMV counts each backoff, but whether sqlos.spinlock_backoff is raised is evaluated only when the worker sleeps as a consequence of the backoff, which happens on every eighth backoff; the other seven only yield the CPU (SwitchToThread). So expect about one event per eight DMV backoffs at most, and none under light contention (${SOURCES.alonso}). That ratio counts the events the session kept: events it dropped because its buffers were full (sys.dm_xe_sessions.dropped_event_count and dropped_buffer_count, shown with every capture) fired but are not in the histogram.`,
  `sqlos.spinlock_backoff_warning is a different event: it fires when a spinlock is declared "sick" (ownership not acquired for about 5 seconds), which sp_server_diagnostics reports (${SOURCES.dorr}). Spinlock Lab does not capture it.`,
  `Overhead: the package0.callstack action walks the stack on every event that passes the type filter; the histogram target keeps one bucket per distinct stack in memory (slots, default 256) and nothing on disk. The stack depth is limited (16 frames in SQL Server 2008, 32 from 2012, per ${SOURCES.sqlcat}).`,
  `Frames are module+offset addresses unless the server resolves them (trace flag 3656 with the matching symbols on the server, per ${SOURCES.sqlcat}); otherwise resolve them with SQLCallStackResolver (spinlab stacks --export FILE writes its histogram XML input).`,
];

/** What the event session lost, and how it was sized (absent: not known, as in captures saved before it was read). */
export interface CaptureLoss {
  droppedEvents: number | null;
  droppedBuffers: number | null;
  options?: StackSessionOptions;
}

/** The buffers in words: "MEMORY_PARTITION_MODE = PER_NODE (8 NUMA nodes), MAX_MEMORY = 48 MB". */
function buffersText(o: StackSessionOptions | undefined): string {
  if (!o) return 'its buffers';
  const per =
    o.partition === 'PER_NODE' && o.numaNodes !== null
      ? ` (${o.numaNodes} NUMA nodes)`
      : o.partition === 'PER_CPU' && o.cpus !== null
        ? ` (${plural(o.cpus, 'CPU')})`
        : '';
  return `its buffers (MEMORY_PARTITION_MODE = ${o.partition}${per}, MAX_MEMORY = ${o.maxMemoryKb / 1024} MB)`;
}

/** What was lost, in plain words; the first note when anything was. */
export function lossNotes(events: number, loss: CaptureLoss | undefined): string[] {
  if (!loss) return [];
  if (loss.droppedEvents === null && loss.droppedBuffers === null) {
    return [
      "The session's drop counters (sys.dm_xe_sessions.dropped_event_count, dropped_buffer_count) could not be read: events lost to full buffers cannot be ruled out.",
    ];
  }
  const ev = loss.droppedEvents ?? 0;
  const buf = loss.droppedBuffers ?? 0;
  if (ev === 0 && buf === 0)
    return [`No events were lost: sys.dm_xe_sessions counted 0 dropped events and 0 dropped buffers for ${buffersText(loss.options)}.`];
  const parts = [ev ? `${ev} event${ev === 1 ? '' : 's'}` : '', buf ? `${buf} full buffer${buf === 1 ? '' : 's'} of events` : '']
    .filter(Boolean)
    .join(' and ');
  const share = ev && events + ev > 0 ? ` (${((100 * ev) / (events + ev)).toFixed(1)}% of the ${events + ev} fired)` : '';
  return [
    `EVENTS WERE LOST: the session dropped ${parts}${share} because ${buffersText(loss.options)} were full. They fired but are not in the histogram, so the counts are low and the shares may be skewed; capture again with more MAX_MEMORY or a finer MEMORY_PARTITION_MODE.`,
  ];
}

/** What this capture's counts show, in words. */
export function countNotes(
  spinlock: string,
  events: number,
  dmvBackoffs: number | null,
  durationMs: number,
  simulated: boolean,
  loss?: CaptureLoss,
): string[] {
  const notes: string[] = simulated
    ? [
        "SIMULATED: the Spinlock Lab simulator served this capture; its frames (SIMULATED!...) and counts are synthetic, not a real server's stacks.",
      ]
    : [];
  notes.push(...lossNotes(events, loss));
  const lost = loss?.droppedEvents ?? 0;
  const lostBuffers = loss?.droppedBuffers ?? 0;
  const secs = (durationMs / 1000).toFixed(1);
  if (dmvBackoffs === null) {
    notes.push(`The DMV backoffs of ${spinlock} could not be read, so the event count (${events}) has nothing to compare with.`);
  } else if (events === 0 && dmvBackoffs === 0) {
    notes.push(
      `No backoffs on ${spinlock} in ${secs} s (DMV and event both 0): it did not contend enough to back off. Run it under load (e.g. a scenario that stresses it) and capture again.`,
    );
  } else if (events === 0 && lost === 0 && lostBuffers === 0) {
    notes.push(
      `sys.dm_os_spinlock_stats counted ${dmvBackoffs} backoffs on ${spinlock} but no sqlos.spinlock_backoff event fired in ${secs} s: consistent with the event being evaluated only on the backoffs that sleep (about 1 in 8), which light contention may never reach.`,
    );
  } else {
    const ratio = dmvBackoffs > 0 && events > 0 ? dmvBackoffs / events : null;
    const window =
      'The DMV window starts just before the session is created and ends after the histogram is read, so it contains the event window.';
    if (lost === 0 && lostBuffers === 0) {
      notes.push(
        `Compared: ${events} events against ${dmvBackoffs} DMV backoffs on ${spinlock} (${ratio === null ? 'no DMV backoffs' : `${ratio.toFixed(1)} backoffs per event`}). ${window}`,
      );
    } else {
      // Dropped events fired: the one-in-eight comparison holds for the events fired, not for the ones kept.
      const fired = events + lost;
      const firedRatio =
        dmvBackoffs > 0 && fired > 0
          ? ` and ${(dmvBackoffs / fired).toFixed(1)} per event fired (kept + ${lost} dropped${lostBuffers ? `, plus ${lostBuffers} dropped buffers not counted in events` : ''})`
          : '';
      notes.push(
        `Compared: ${events} events kept against ${dmvBackoffs} DMV backoffs on ${spinlock}: ${ratio === null ? 'no ratio' : `${ratio.toFixed(1)} backoffs per kept event`}${firedRatio}. With events dropped, the gap from one event per eight backoffs is partly the loss, not only the backoffs that never sleep. ${window}`,
      );
    }
  }
  return notes;
}
