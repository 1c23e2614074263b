// "Rewind to here", Redo and Edit and resend as the chat sees them: refused while a request runs, the
// snapshot posted after the change, and any refusal answered as a `protocolError` (never thrown).
import type { Mode, RewindPreview, RewindScope } from '../../protocol';
import { errorText } from '../util/error-text';
import type { ChatServices } from './chat-services';
import type { CurrentChat } from './current-chat';
import type { RequestRunner } from './request-runner';
import { RewindError, type SessionRewinder } from './rewind-session';

export class RewindFlow {
  constructor(
    private readonly chat: CurrentChat,
    private readonly services: ChatServices,
    private readonly runner: RequestRunner,
    private readonly rewinder: SessionRewinder,
    private readonly postSnapshot: () => Promise<void>,
  ) {}

  /** What "Rewind to here" on a user message would do (reads only); posted as `rewindPreview`. */
  preview(messageId: string): Promise<RewindPreview | undefined> {
    return this.refusable(async () => {
      const preview = await this.rewinder.preview(this.chat.session, messageId);
      this.chat.post({ type: 'rewindPreview', preview });
      return preview;
    });
  }

  /** Rewinds files, conversation or both to before a user message; posts the snapshot, then `rewound`. */
  rewind(messageId: string, scope: RewindScope, overwrite: string[] = []) {
    return this.refusable(async () => {
      this.chat.flush();
      const done = await this.rewinder.rewind(this.chat.session, messageId, scope, overwrite);
      this.chat.session.lastPrompt = undefined; // counted for a history that is gone
      await this.postSnapshot();
      this.chat.post({ type: 'rewound', ...done });
      return done;
    });
  }

  /** Undoes the last rewind; posts the snapshot, then `rewound` with the summary. */
  redo(): Promise<string | undefined> {
    return this.refusable(async () => {
      const summary = await this.rewinder.redo(this.chat.session);
      this.chat.session.lastPrompt = undefined;
      await this.postSnapshot();
      this.chat.post({ type: 'rewound', summary });
      return summary;
    });
  }

  /** Edit and resend: forks the chat before `messageId` (optionally rewinding files too) and sends `text`. */
  async editResend(
    messageId: string,
    requestId: string,
    text: string,
    mode: Mode,
    opts: { rewindFiles: boolean; overwrite?: string[] },
  ): Promise<void> {
    const forked = await this.refusable(async () => {
      this.chat.flush();
      const scope = opts.rewindFiles ? 'both' : 'conversation';
      await this.rewinder.rewind(this.chat.session, messageId, scope, opts.overwrite ?? []);
      this.chat.session.lastPrompt = undefined;
      // The chat goes on from here at once: no Redo offer, and the composer keeps what it has.
      this.rewinder.clearRedo(this.chat.session);
      await this.postSnapshot();
      return true;
    });
    if (forked) await this.runner.send(requestId, text, mode);
  }

  /** Runs `work` unless a request runs (a rewind under a running turn would race its writes). */
  private async refusable<T>(work: () => Promise<T>): Promise<T | undefined> {
    try {
      if (this.runner.running) throw new RewindError('Stop the running request before rewinding or editing a message.');
      return await work();
    } catch (err) {
      const message = errorText(err);
      if (!(err instanceof RewindError)) this.services.host.log.error(`rewind failed: ${message}`);
      this.chat.post({
        type: 'protocolError',
        error: { code: err instanceof RewindError ? 'protocol' : 'internal', message, recoverable: true },
      });
      return undefined;
    }
  }
}
