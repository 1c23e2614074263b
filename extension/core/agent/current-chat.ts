// The chat on screen: the live session, and the one way its events travel — journal first, then the
// host's copy (the shared reducer), then the webview — batched by the outbox. Every part of the chat
// (requests, plans, rewinds, history) writes through here.
import { applyEnvelope, type Envelope, type Mode, type Outbound, type RequestEvent } from '../../protocol';
import type { JournalRecord } from '../ports';
import type { ChatServices } from './chat-services';
import { errorText } from '../util/error-text';
import type { LiveSession } from './live-session';
import { effectiveMode, type ModeContext } from './modes';
import { Outbox, realScheduler } from './outbox';

export class CurrentChat {
  private readonly outbox: Outbox;

  constructor(
    private readonly services: ChatServices,
    /** The current session; replaced by a new chat or a resume. */
    public session: LiveSession,
  ) {
    const { host } = services;
    this.outbox = new Outbox((envs) => this.deliver(envs), host.now, host.scheduler ?? realScheduler);
  }

  emit(requestId: string, event: RequestEvent): void {
    this.outbox.emit(requestId, event);
  }

  /** Sends what the outbox holds now, so the chat (and the host's copy of it) is up to date. */
  flush(): void {
    this.outbox.flush();
  }

  /** After Stop: only the request's terminal event gets through from here on. */
  stop(requestId: string): void {
    this.outbox.stop(requestId);
  }

  post(message: Outbound): void {
    this.services.host.post(message);
  }

  journal(record: JournalRecord): void {
    try {
      this.services.history.persistence.append(record);
    } catch (err) {
      // Never crash a turn over storage; say so loudly instead.
      this.services.host.log.error(`could not write session history: ${errorText(err)}`);
    }
  }

  modeContext(): ModeContext {
    return {
      trusted: this.services.host.trusted(),
      hasWorkspaceFolder: this.services.host.hasWorkspaceFolder(),
      research: Boolean(this.services.research),
    };
  }

  setMode(mode: Mode): void {
    const next = effectiveMode(mode, this.modeContext());
    this.session.mode = next;
    if (this.session.persisted)
      this.journal({ kind: 'session_meta', sessionId: this.session.id, mode: next, at: this.services.host.now() });
    this.post({ type: 'mode', mode: next });
  }

  setModel(model: string): void {
    this.session.model = model;
    if (this.session.persisted)
      this.journal({ kind: 'session_meta', sessionId: this.session.id, model, at: this.services.host.now() });
    this.post({ type: 'model', model });
  }

  dispose(): void {
    this.outbox.flush();
    this.outbox.dispose();
  }

  /** Journal first, then fold into the host's state, then tell the webview. */
  private deliver(envelopes: Envelope[]): void {
    const s = this.session;
    this.journal({ kind: 'events', sessionId: s.id, envelopes, at: this.services.host.now() });
    for (const env of envelopes) applyEnvelope(s.chat, env);
    this.post({ type: 'events', envelopes });
  }
}
