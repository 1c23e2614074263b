// Loads the runtime bundle on first use and routes webview posts to whichever view is alive.
// Kept tiny because it is part of the activation bundle.
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { BundleCodeCaches } from '../platform/code-cache';
import type { Outbound } from '../protocol/messages';
import type * as RuntimeModule from './runtime';
import type { AgentsTree } from './agents-tree';

type Runtime = RuntimeModule.Runtime;

export class RuntimeHost {
  private runtime: Promise<Runtime> | undefined;
  private poster: ((message: Outbound) => void) | undefined;
  private visible: (() => boolean) | undefined;
  /** The Agents view's tree, made at activation (agents-tree.ts). */
  agentsTree: AgentsTree | undefined;
  /** Sees every post, live view or not (the Get Started walkthrough's progress). */
  observer: ((message: Outbound) => void) | undefined;

  constructor(
    readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {}

  get(): Promise<Runtime> {
    if (!this.runtime) {
      const started = performance.now();
      // A path the bundler cannot follow: runtime.js is its own bundle, loaded only now — with the code
      // V8 compiled for it in an earlier window (code-cache.ts), made again after this window's first request.
      // The same caches load the SDK bundles later, and are all written once the first request has ended.
      const file = path.join(__dirname, 'runtime.js');
      const caches = new BundleCodeCaches(path.join(this.context.globalStorageUri.fsPath, 'code-cache'));
      const mod = caches.require(file) as typeof RuntimeModule;
      this.runtime = mod
        .createRuntime(
          this.context,
          this.log,
          {
            post: (m) => this.post(m),
            // A collapsed or disposed sidebar does not see its chat's approvals: they are notified instead.
            visible: () => this.visible?.() ?? false,
          },
          this.agentsTree,
          caches,
        )
        .then((rt) => {
          this.log.info(
            `runtime ready in ${(performance.now() - started).toFixed(1)} ms (code cache: ${caches.cacheOf(file)})`,
          );
          return rt;
        });
      this.runtime.catch((err) => {
        this.log.error(`Sextant could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        this.runtime = undefined;
      });
    }
    return this.runtime;
  }

  /** Posts to the live view, if any (a re-created view gets everything from its snapshot). */
  post(message: Outbound): void {
    this.observer?.(message);
    this.poster?.(message);
  }

  /** The live view registers how to reach it (and whether it is in front); undefined when it is disposed. */
  setPoster(poster: ((message: Outbound) => void) | undefined, visible?: () => boolean): void {
    this.poster = poster;
    this.visible = poster ? visible : undefined;
  }

  async dispose(): Promise<void> {
    const rt = this.runtime;
    this.runtime = undefined;
    if (rt) await (await rt).dispose();
  }
}
