// A pause that ends early when its signal aborts (a stop, a hidden panel), so a loop that waits between reads or
// calls is never held up by its own timer. Resolves, never rejects: the caller checks the signal after it.
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
