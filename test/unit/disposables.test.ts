// The disposable store every panel feature registers its cleanup with: reverse order, each async disposer awaited
// before the next, idempotent, one failing disposer not stopping the others, and nothing left running when something
// is added after the owner closed. And the event emitter: a removed or disposed listener is never called again.
import assert from 'node:assert/strict';
import { DisposableStore, Emitter, toDisposable } from '../../src/shared/disposables';

describe('DisposableStore', () => {
  it('disposes in reverse order of registration, awaiting each async disposer before the next', async () => {
    const store = new DisposableStore();
    const order: string[] = [];
    store.add(() => {
      order.push('connection');
    });
    store.add(async () => {
      await new Promise((r) => setImmediate(r));
      order.push('experiment');
    });
    store.add(
      toDisposable(() => {
        order.push('watch');
      }),
    );
    await store.dispose();
    assert.deepEqual(order, ['watch', 'experiment', 'connection']);
  });

  it("is idempotent: a second dispose runs nothing again and shares the first one's promise", async () => {
    const store = new DisposableStore();
    let n = 0;
    store.add(() => {
      n++;
    });
    const a = store.dispose();
    const b = store.dispose();
    assert.equal(a, b);
    await b;
    await store.dispose();
    assert.equal(n, 1);
    assert.ok(store.isDisposed);
  });

  it('disposes at once what is added after dispose (a late callback leaves nothing running)', async () => {
    const store = new DisposableStore();
    await store.dispose();
    let disposed = false;
    store.add(() => {
      disposed = true;
    });
    await new Promise((r) => setImmediate(r));
    assert.ok(disposed);
  });

  it('one failing disposer is reported and the others still run', async () => {
    const errors: unknown[] = [];
    const store = new DisposableStore((e) => errors.push(e));
    const order: string[] = [];
    store.add(() => {
      order.push('first');
    });
    store.add(() => {
      throw new Error('sync failure');
    });
    store.add(async () => {
      throw new Error('async failure');
    });
    store.add(() => {
      order.push('last');
    });
    await store.dispose();
    assert.deepEqual(order, ['last', 'first']);
    assert.deepEqual(
      errors.map((e) => (e as Error).message),
      ['async failure', 'sync failure'],
    );
  });
});

describe('Emitter', () => {
  it('tells its listeners in order and waits for each; a removed or disposed listener is not called', async () => {
    const e = new Emitter<string>();
    const heard: string[] = [];
    const a = e.on(async (x) => {
      await new Promise((r) => setImmediate(r));
      heard.push(`a:${x}`);
    });
    e.on((x) => {
      heard.push(`b:${x}`);
    });
    await e.fire('1');
    await a.dispose();
    await e.fire('2');
    e.dispose();
    await e.fire('3');
    e.on((x) => {
      heard.push(`c:${x}`);
    });
    await e.fire('4');
    assert.deepEqual(heard, ['a:1', 'b:1', 'b:2']);
    assert.equal(e.listenerCount, 0);
  });
});
