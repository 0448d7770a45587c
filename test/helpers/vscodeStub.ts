// A stand-in `vscode` module for loading the extension in plain Node (bench/activationProbe.ts, the activation test's
// child process): every property is a callable, constructible stub, so activate() runs its own code in full and
// nothing of VS Code's. It records what activation registers (commands, tree views, status bar items, serializers) so
// a caller can run a command the way VS Code would. Install it before the extension is required.
import Module from 'node:module';

type AnyFn = (...args: unknown[]) => unknown;

export interface VscodeStub {
  /** Command id -> the handler the extension registered. */
  commands: Map<string, AnyFn>;
  /** What was registered, by kind: 'treeView:spinlab.home', 'statusBarItem:spinlab.run', 'webviewPanelSerializer:spinlab.panel'. */
  registered: string[];
  /** Tree view id -> the options activation created it with (its treeDataProvider), to ask it for its items. */
  trees: Map<string, { treeDataProvider?: { getChildren(n?: unknown): unknown } }>;
  /** A context for activate(): subscriptions, extensionPath and extensionUri of `root`, the rest stubs. */
  context(root: string): unknown;
}

function stub(): unknown {
  const props = new Map<PropertyKey, unknown>();
  const target = function () {
    /* stub */
  } as unknown as AnyFn;
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

/** Replaces `require('vscode')` in this process with a recording stub. */
export function installVscodeStub(): VscodeStub {
  const commands = new Map<string, AnyFn>();
  const registered: string[] = [];
  const trees: VscodeStub['trees'] = new Map();
  const vscode = stub() as Record<string, Record<string, unknown>>;
  const record =
    (kind: string, fn?: (id: string, ...rest: unknown[]) => void) =>
    (id: string, ...rest: unknown[]) => {
      registered.push(`${kind}:${id}`);
      fn?.(id, ...rest);
      return stub();
    };
  vscode.commands.registerCommand = record('command', (id, handler) => commands.set(id, handler as AnyFn));
  vscode.window.createTreeView = record('treeView', (id, options) => trees.set(id, options as never));
  vscode.window.createStatusBarItem = record('statusBarItem');
  vscode.window.registerWebviewPanelSerializer = record('webviewPanelSerializer');
  vscode.workspace.registerNotebookSerializer = record('notebookSerializer');
  const m = Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown };
  const load = m._load;
  m._load = function (req: string, ...rest: unknown[]) {
    if (req === 'vscode') return vscode;
    return load.call(this, req, ...rest);
  };
  const context = (root: string): unknown => {
    const base = stub() as Record<PropertyKey, unknown>;
    const subscriptions: unknown[] = [];
    return new Proxy(
      {},
      {
        get(_t, p) {
          if (p === 'subscriptions') return subscriptions;
          if (p === 'extensionPath') return root;
          if (p === 'then') return undefined;
          return base[p];
        },
      },
    );
  };
  return { commands, registered, trees, context };
}
