// A run that overruns its plan says so, and why, in its warnings (the terminal, the record, the panel and the
// notebook show them): the measured window on the server's clock against the time asked (the sampler answered late,
// THREADPOOL waits when the sessions outnumber the server's workers, or calls that ran on past the end: a slow ramp),
// and the whole run against its warm-up and measured time, part by part. Many sessions make every part longer: a
// thousand sessions for three seconds measured 17.3 s and took 76 s against about 4 s planned, in silence.

/** Where a run's time went, on the client's clock unless said. */
export interface RunTiming {
  threads: number;
  /** The measured time asked; null when the run ends on a row or call count (no time was planned). */
  durationMs: number | null;
  warmupMs: number;
  /** The sampling interval asked. */
  intervalMs: number;
  /** Opening the sessions (each logs in on its own connection). */
  openMs: number;
  warmupTookMs: number;
  /** The measured phase: from its start until the sessions' last call returned. */
  measureTookMs: number;
  /** After the measured phase: the final sample, the sessions' own waits, closing the sessions. */
  closeMs: number;
  totalMs: number;
  /** The measured window on the server's clock (the run's elapsed time, its rates' denominator). */
  windowMs: number;
  /** The longest interval between two samples, on the server's clock. */
  maxTickMs: number;
  /** THREADPOOL wait time in the window: requests that waited for a worker thread. */
  threadpoolWaitMs: number;
}

const s = (ms: number) => `${Number((ms / 1000).toPrecision(3))}`;
/** More than half again as long, and by more than `slackMs`. */
const over = (took: number, planned: number, slackMs: number) => took > planned * 1.5 && took - planned > slackMs;

function windowWhy(t: RunTiming, durationMs: number): string {
  const why: string[] = [];
  if (over(t.maxTickMs, t.intervalMs, 1000)) {
    why.push(
      `the server answered the sampler up to ${s(t.maxTickMs)} s late (one sample every ${s(t.intervalMs)} s was asked)` +
        (t.threadpoolWaitMs > 0
          ? `; requests waited ${s(t.threadpoolWaitMs)} s in all for a worker thread (THREADPOOL): ${t.threads} sessions need more workers than the server has`
          : ` while ${t.threads} sessions were at work`),
    );
  }
  if (t.measureTookMs - durationMs > 2000)
    why.push(
      `the sessions' calls ran on ${s(t.measureTookMs - durationMs)} s past the measured time (${t.threads} sessions do not all start at once: a slow ramp)`,
    );
  return why.length ? why.join('; and ') : 'the samples around it came late';
}

/** The run's overrun notes (none when it kept to its plan). */
export function overrunNotes(t: RunTiming): string[] {
  const notes: string[] = [];
  if (t.durationMs === null) {
    if (t.openMs > 5000)
      notes.push(
        `opening the ${t.threads} sessions took ${s(t.openMs)} s (each logs in on its own connection), before the run's work began`,
      );
    return notes;
  }
  if (over(t.windowMs, t.durationMs, 2000))
    notes.push(
      `the measured window was ${s(t.windowMs)} s on the server's clock, not the ${s(t.durationMs)} s asked: ${windowWhy(t, t.durationMs)}. ` +
        `Its rates are over the ${s(t.windowMs)} s, with the sessions' start and end in them: fewer sessions, or a longer --duration, keep the window to plan.`,
    );
  const planned = t.warmupMs + t.durationMs;
  if (over(t.totalMs, planned, 5000)) {
    const parts = [
      t.openMs > 1000 ? `opening the ${t.threads} sessions ${s(t.openMs)} s (each logs in on its own connection)` : null,
      t.warmupTookMs - t.warmupMs > 1000 ? `the warm-up ${s(t.warmupTookMs)} s` : null,
      t.measureTookMs - t.durationMs > 1000
        ? `the measured phase ${s(t.measureTookMs)} s (its calls ran ${s(t.measureTookMs - t.durationMs)} s past the measured time)`
        : null,
      t.closeMs > 1000 ? `closing ${s(t.closeMs)} s (the last sample, the sessions' own waits, ending the sessions)` : null,
    ].filter(Boolean);
    notes.push(
      `this run took ${s(t.totalMs)} s against the ${s(planned)} s planned (${t.warmupMs ? `${s(t.warmupMs)} s warm-up + ` : ''}${s(t.durationMs)} s measured)` +
        (parts.length ? `: ${parts.join(', ')}` : ''),
    );
  }
  return notes;
}
