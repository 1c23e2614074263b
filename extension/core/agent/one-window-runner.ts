// The request runner with one rule on top: a session another VS Code window is running right now is not run
// here a second time (core/sessions/running-elsewhere.ts). Every way a request starts goes through `send` —
// the composer, Retry, an approved plan, Edit and resend, Continue — so the rule is kept here once. The
// refused text goes back to the composer, and nothing queued behind it goes next (`lastEnd` is unset).
import type { Mode } from '../../protocol';
import { refusedAsRunningElsewhere } from '../sessions/running-elsewhere';
import { RequestRunner, type SendOptions } from './request-runner';

export class OneWindowRunner extends RequestRunner {
  private refused = false;

  override async send(requestId: string, text: string, mode: Mode, opts: SendOptions = {}): Promise<void> {
    const message = this.refusal();
    this.refused = message !== undefined;
    if (message === undefined) return super.send(requestId, text, mode, opts);
    this.chat.post({ type: 'sendRefused', message, text, references: [] });
  }

  /** Why the current session cannot run here now (the host told, to offer a way on); undefined: it can. */
  refusal(): string | undefined {
    const { history, host } = this.services;
    return refusedAsRunningElsewhere({
      persistence: history.persistence,
      session: this.chat.session,
      ...(host.onRunningElsewhere ? { onRefused: (id, m) => host.onRunningElsewhere?.(id, m) } : {}),
    });
  }

  override get lastEnd(): 'complete' | 'aborted' | 'error' | undefined {
    return this.refused ? undefined : super.lastEnd;
  }
}
