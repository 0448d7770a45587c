// Loads the extension bundle and calls activate() with a stub `vscode` module, then prints how long each took:
//   node out/bench/activationProbe.js dist/extension.js  ->  ACTIVATION load_ms=... activate_ms=...
// The stub answers every property with a callable, constructible stub, so activate() runs its own code in full
// (output channel, commands, the webview serializer) and nothing of VS Code's. One measurement per process.
import Module from 'node:module';
import * as path from 'node:path';

type AnyFn = (...args: unknown[]) => unknown;

function stub(): unknown {
  const props = new Map<PropertyKey, unknown>();
  const target = function () { /* stub */ } as unknown as AnyFn;
  return new Proxy(target, {
    get(_t, p) {
      if (p === 'then' || p === Symbol.iterator || p === Symbol.asyncIterator) return undefined;
      if (p === Symbol.toPrimitive) return () => '';
      if (!props.has(p)) props.set(p, stub());
      return props.get(p);
    },
    set(_t, p, v) {
      props.set(p, v);
      return true;
    },
    apply: () => stub(),
    construct: () => stub() as object,
  });
}

function context(): unknown {
  const base = stub() as Record<PropertyKey, unknown>;
  const subscriptions: unknown[] = [];
  return new Proxy({}, {
    get(_t, p) {
      if (p === 'subscriptions') return subscriptions;
      if (p === 'extensionPath') return process.cwd();
      if (p === 'then') return undefined;
      return base[p];
    },
  });
}

const vscode = stub();
const load = (Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown })._load;
(Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown })._load = function (req: string, ...rest: unknown[]) {
  if (req === 'vscode') return vscode;
  return load.call(this, req, ...rest);
};

const file = path.resolve(process.argv[2]);
const t0 = performance.now();
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ext = require(file) as { activate(ctx: unknown): unknown };
const t1 = performance.now();
Promise.resolve(ext.activate(context())).then(() => {
  const t2 = performance.now();
  console.log(`ACTIVATION load_ms=${(t1 - t0).toFixed(2)} activate_ms=${(t2 - t1).toFixed(2)}`);
  process.exit(0);
}, (err) => {
  console.error(err);
  process.exit(1);
});
