// What the user is told about a capture: when sqlos.spinlock_backoff fires and when it does not, with the source of
// each statement, and what the counts of this capture show. Nothing here is measured: the counts are passed in.

export const SOURCES = {
  sqlcat: 'Microsoft Learn, "Diagnose and resolve spinlock contention on SQL Server" (SQLCAT)',
  alonso: 'Ignacio Alonso (Microsoft), "How do you explain that sys.dm_os_spinlock_stats.backoffs keeps increasing and no sqlos.spinlock_backoff event is produced?" (MSDN blog, 2012)',
  dorr: 'Bob Dorr (Microsoft), "How It Works: sp_server_diagnostics - spinlock backoffs" (SQL Server Support blog, 2014)',
} as const;

/** The documented behaviour, the same for every capture. */
export const FIRING_NOTES: string[] = [
  `A backoff in sys.dm_os_spinlock_stats counts a worker that exhausted its spins and backed off; the event traces those backoffs with the stack that was trying to acquire the spinlock (${SOURCES.sqlcat}; ${SOURCES.dorr}: "The XEvent spinlock_backoff maps to the dm_os_spinlock_stats, backoff column").`,
  `Not every backoff fires the event: the DMV counts each backoff, but whether sqlos.spinlock_backoff is raised is evaluated only when the worker sleeps as a consequence of the backoff, which happens on every eighth backoff; the other seven only yield the CPU (SwitchToThread). So expect about one event per eight DMV backoffs at most, and none under light contention (${SOURCES.alonso}).`,
  `sqlos.spinlock_backoff_warning is a different event: it fires when a spinlock is declared "sick" (ownership not acquired for about 5 seconds), which sp_server_diagnostics reports (${SOURCES.dorr}). Spinlock Lab does not capture it.`,
  `Overhead: the package0.callstack action walks the stack on every event that passes the type filter; the histogram target keeps one bucket per distinct stack in memory (slots, default 256) and nothing on disk. The stack depth is limited (16 frames in SQL Server 2008, 32 from 2012, per ${SOURCES.sqlcat}).`,
  `Frames are module+offset addresses unless the server resolves them (trace flag 3656 with the matching symbols on the server, per ${SOURCES.sqlcat}); otherwise resolve them with SQLCallStackResolver (spinlab stacks --export FILE writes its histogram XML input).`,
];

/** What this capture's counts show, in words. */
export function countNotes(spinlock: string, events: number, dmvBackoffs: number | null, durationMs: number, simulated: boolean): string[] {
  const notes: string[] = simulated
    ? ['SIMULATED: the Spinlock Lab simulator served this capture; its frames (SIMULATED!...) and counts are synthetic, not a real server\'s stacks.']
    : [];
  const secs = (durationMs / 1000).toFixed(1);
  if (dmvBackoffs === null) {
    notes.push(`The DMV backoffs of ${spinlock} could not be read, so the event count (${events}) has nothing to compare with.`);
  } else if (events === 0 && dmvBackoffs === 0) {
    notes.push(`No backoffs on ${spinlock} in ${secs} s (DMV and event both 0): it did not contend enough to back off. Run it under load (e.g. a scenario that stresses it) and capture again.`);
  } else if (events === 0) {
    notes.push(`sys.dm_os_spinlock_stats counted ${dmvBackoffs} backoffs on ${spinlock} but no sqlos.spinlock_backoff event fired in ${secs} s: consistent with the event being evaluated only on the backoffs that sleep (about 1 in 8), which light contention may never reach.`);
  } else {
    const ratio = dmvBackoffs > 0 ? dmvBackoffs / events : null;
    notes.push(`Compared: ${events} events against ${dmvBackoffs} DMV backoffs on ${spinlock} (${ratio === null ? 'no DMV backoffs' : `${ratio.toFixed(1)} backoffs per event`}). The DMV window starts just before the session is created and ends after the histogram is read, so it contains the event window.`);
  }
  return notes;
}
