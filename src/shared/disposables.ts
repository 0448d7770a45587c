// Ownership of cleanup: whoever starts something (a subscription, a timer, a connection, a running job) registers
// how to end it with the store of the object that owns it, and the owner's dispose ends them all, last registered
// first (what was built on top goes before what it stands on). Plain TypeScript: the host and the webview use it.

/** Something that can be ended; dispose may be async, and is safe to call more than once. */
export interface Disposable {
  dispose(): void | Promise<void>;
}

/** A disposable from a function (the function runs once at most). */
export function toDisposable(fn: () => void | Promise<void>): Disposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      return fn();
    },
  };
}

/**
 * Disposables disposed in reverse order of registration, each awaited before the next; one that throws is reported and
 * the others still run. Idempotent: a second dispose returns the first one's promise. Once disposed, anything added is
 * disposed at once (a late callback cannot leave something running behind a closed owner).
 */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private closed = false;
  private disposing: Promise<void> | null = null;

  /** @param onError told of a disposer that failed (default: ignored, so cleanup always finishes). */
  constructor(private readonly onError: (err: unknown) => void = () => undefined) {}

  /** True from the moment dispose is called (before the first disposer runs). */
  get isDisposed(): boolean {
    return this.closed;
  }

  /** Registers `d` (a Disposable or a function); after dispose it is disposed now instead. Returns `d`. */
  add<T extends Disposable>(d: T): T;
  add(fn: () => void | Promise<void>): Disposable;
  add(d: Disposable | (() => void | Promise<void>)): Disposable {
    const item = typeof d === 'function' ? toDisposable(d) : d;
    if (this.closed) void this.disposeOne(item);
    else this.items.push(item);
    return item;
  }

  dispose(): Promise<void> {
    this.closed = true;
    this.disposing ??= (async () => {
      while (this.items.length) await this.disposeOne(this.items.pop()!);
    })();
    return this.disposing;
  }

  private async disposeOne(d: Disposable): Promise<void> {
    try {
      await d.dispose();
    } catch (err) {
      this.onError(err);
    }
  }
}

/** A typed event: listeners added with `on` (each a Disposable that removes it), told in order by `fire`. */
export class Emitter<T> implements Disposable {
  private listeners: ((e: T) => void | Promise<void>)[] = [];
  private disposed = false;

  on(listener: (e: T) => void | Promise<void>): Disposable {
    if (this.disposed) return toDisposable(() => undefined);
    this.listeners.push(listener);
    return toDisposable(() => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    });
  }

  /** Tells every listener and waits for each in turn (a listener may end what it owns before the event goes on). */
  async fire(e: T): Promise<void> {
    for (const l of [...this.listeners]) await l(e);
  }

  get listenerCount(): number {
    return this.listeners.length;
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}
