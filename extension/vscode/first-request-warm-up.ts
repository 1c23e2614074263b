// While the user reads the view and types, do what the first request needs, so the first Send goes
// straight to the wire: its model's SDK bundle loaded, its key and the key's bound host read (each a
// round trip to the workbench), its client made (ProviderRegistry.warm), the connection to its server
// open (warm-connection.ts: only to the configured base URL, only when a key for it is at hand), the
// SDK's request path run once against a local throwaway server (warm-request-path.ts, once per provider
// kind), Node's HTTP client loaded when there is no key (warm-http-client.ts, a local throwaway server),
// and the message schema's `send` branch compiled. Best effort: the request meets (and reports)
// any problem itself.
//
// Node's HTTP client closes a connection after ~4 s idle, so the one opened at start-up is usually gone
// by the time a person has typed a message: while they type (the view's `composing` message,
// protocol/composing.ts) the same warm-up runs again, throttled, for the chat's current model — the same
// rules (no key, nothing; the connection's GET carries no key, no body, nothing from the chat), never a
// model request to the model's server.
import { warmConnection } from '../platform/net/warm-connection';
import { warmHttpClient } from '../platform/net/warm-http-client';
import { rehearseModelRequest } from '../platform/net/warm-request-path';
import type { WarmedModel } from '../core/providers/registry';
import { COMPOSING_INTERVAL_MS, parseInbound, Throttle } from '../protocol';

export interface RequestWarmUpDeps {
  /** Makes the model's client; answers the URL its requests go to when a key for it is at hand. */
  warmModel(model: string): Promise<WarmedModel | undefined>;
  /** Runs the SDK's request path once, locally; warm-request-path.ts unless a test says otherwise. */
  rehearse?(rehearsal: NonNullable<WarmedModel['rehearsal']>, model: string): Promise<void>;
  /** Opens (or keeps) the connection to that URL; warm-connection.ts unless a test says otherwise. */
  connect?(baseUrl: string): Promise<void>;
  /**
   * Runs, read-only, the parts of a request that read (the project's rules and skills, the history's
   * journals), results dropped: the files are in the OS's cache and the code compiled when the user sends.
   */
  prepare?(): Promise<unknown>;
  now?(): number;
}

export class RequestWarmUp {
  private readonly throttle: Throttle;
  /** A re-warm under way: another one would only open a second connection beside it. */
  private busy = false;

  constructor(private readonly deps: RequestWarmUpDeps) {
    this.throttle = new Throttle(COMPOSING_INTERVAL_MS, deps.now);
  }

  /** At start-up, for the model the window opens with. */
  start(model: () => string): void {
    setTimeout(() => void this.run(model(), true), 0);
    // The message schema compiles each kind of message on its first parse (tens of ms on a busy machine):
    // the first Send's is done now, not between the user's Enter and the request.
    setTimeout(() => parseInbound({ type: 'send', requestId: 'warm-up', text: 'warm-up', mode: 'chat' }), 0);
  }

  /**
   * The user is typing in a chat whose model is `model`: its connection opened again if it went idle.
   * Resolves when done (tests wait for it); never rejects.
   */
  async composing(model: string): Promise<void> {
    if (this.busy || !this.throttle.take()) return;
    await this.run(model, false);
  }

  /** `atStart`: without a key, Node's HTTP client is loaded anyway (locally); while typing, nothing. */
  private async run(model: string, atStart: boolean): Promise<void> {
    this.busy = true;
    try {
      const project = this.deps.prepare?.().catch(() => undefined);
      const to = await this.model(model);
      if (to) await this.ready(to);
      else if (atStart) await warmHttpClient();
      await project;
    } catch {
      // Best effort: the request meets (and reports) any problem itself.
    } finally {
      this.busy = false;
    }
  }

  /**
   * The request path rehearsed, then the connection to the model's server opened. Rehearsed at each warm-up,
   * not once: V8 drops the compiled code of functions that have not run for a while (bytecode flushing),
   * so a path rehearsed at start-up was cold again by the time a person sent their first message.
   */
  private async ready(to: WarmedModel): Promise<void> {
    if (to.rehearsal) await (this.deps.rehearse ?? rehearseModelRequest)(to.rehearsal, to.model).catch(() => undefined);
    await this.connect(to.baseUrl);
  }

  private model(model: string): Promise<WarmedModel | undefined> {
    return this.deps.warmModel(model).catch(() => undefined);
  }

  private connect(baseUrl: string): Promise<void> {
    return (this.deps.connect ?? warmConnection)(baseUrl);
  }
}
