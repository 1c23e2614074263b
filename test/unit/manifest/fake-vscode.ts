// A stand-in for the `vscode` module, installed before extension code is loaded, that records what
// activation registers (commands, views, context keys). Anything it does not model is a no-op
// proxy, so activation runs as it would in VS Code as far as registration goes.
import Module from 'node:module';

export interface Recorded {
  commands: string[];
  views: string[];
  executed: Array<{ command: string; args: unknown[] }>;
}

export const recorded: Recorded = { commands: [], views: [], executed: [] };

/** A callable, constructible object whose every property is another such object. */
function anything(): unknown {
  // A function expression, not an arrow: only those can be `new`ed (an EventEmitter at activation).
  const target = (() => {}) as unknown as Record<string | symbol, unknown>;
  return new Proxy(target, {
    get: (t, key) => {
      if (key === 'then') return undefined; // not a thenable
      if (key === Symbol.toPrimitive) return () => '';
      if (!(key in t)) t[key] = anything();
      return t[key];
    },
    apply: () => anything(),
    construct: () => anything() as object,
  });
}

const disposable = { dispose: () => undefined };
const memento = new Map<string, unknown>();

export const fakeVscode = new Proxy(
  {
    // Listed as own keys: the bundle's namespace import copies only those (a proxy's `get` is not asked).
    EventEmitter: class {
      event = () => disposable;
      fire(): void {}
      dispose(): void {}
    },
    // Real classes for the tree views' items (the Agents view's rows are `instanceof` checked).
    TreeItem: class {
      constructor(
        public label: unknown,
        public collapsibleState?: number,
      ) {}
    },
    ThemeIcon: class {
      constructor(public id: string) {}
    },
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    commands: {
      registerCommand: (id: string) => {
        recorded.commands.push(id);
        return disposable;
      },
      executeCommand: async (command: string, ...args: unknown[]) => {
        recorded.executed.push({ command, args });
        return undefined;
      },
    },
    window: new Proxy(
      {
        registerWebviewViewProvider: (id: string) => {
          recorded.views.push(id);
          return disposable;
        },
        createTreeView: (id: string) => {
          recorded.views.push(id);
          return anything();
        },
      } as Record<string | symbol, unknown>,
      { get: (t, k) => (k in t ? t[k] : anything()) },
    ),
  } as Record<string | symbol, unknown>,
  { get: (t, k) => (k in t ? t[k] : anything()) },
);

/** The ExtensionContext activation gets: a first install (empty global state). */
export function fakeContext(): unknown {
  return new Proxy(
    {
      subscriptions: [] as unknown[],
      globalState: {
        get: (k: string) => memento.get(k),
        update: async (k: string, v: unknown) => void memento.set(k, v),
        keys: () => [...memento.keys()],
      },
    } as Record<string | symbol, unknown>,
    { get: (t, k) => (k in t ? t[k] : anything()) },
  );
}

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const mod = Module as unknown as { _load: Loader };
const load = mod._load;
mod._load = function (request: string, parent: unknown, isMain: boolean) {
  if (request === 'vscode') return fakeVscode;
  return load.call(this, request, parent, isMain);
};
