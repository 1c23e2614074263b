// The reviewer of one Agent turn, built from the chat's services: the user's own messages are read
// from the chat (their text parts only — attached files and images are left out, they are contents),
// the model is sextant.autoMode.reviewerModel or the chat's, and the run's caps bound it.
import type { ChatState, Usage } from '../../../protocol';
import type { RunBudget } from '../../usage/budget';
import type { ChatServices } from '../chat-services';
import type { PermissionGate } from '../permission-gate';
import { AutoReviewer, DEFAULT_REVIEW_TIMEOUT_MS } from './auto-reviewer';

/** sextant.autoMode.*, read when a turn starts. */
export interface AutoModeSettings {
  /** `provider/model`; undefined: the chat's model. */
  reviewerModel(): string | undefined;
  /** Milliseconds; undefined: DEFAULT_REVIEW_TIMEOUT_MS. */
  timeoutMs(): number | undefined;
}

export function userMessagesOf(chat: ChatState): string[] {
  const out: string[] = [];
  for (const m of chat.messages) {
    if (m.role !== 'user') continue;
    const text = m.parts
      .flatMap((p) => (p.type === 'text' ? [p.text] : []))
      .join('\n')
      .trim();
    if (text) out.push(text);
  }
  return out;
}

export function turnReviewer(o: {
  services: Pick<ChatServices, 'models' | 'host' | 'autoMode'>;
  permissions: PermissionGate | undefined;
  chatModel: string;
  /** The chat as it stands (brought up to date first: the turn's own message may still be on its way). */
  chat: () => ChatState;
  budget?: RunBudget;
  runUsage: () => Usage;
}): AutoReviewer | undefined {
  const { services, permissions } = o;
  if (!permissions || !services.autoMode) return undefined;
  const settings = services.autoMode;
  return new AutoReviewer({
    policy: () => permissions.policy(),
    reviewerModel: () => settings.reviewerModel() ?? o.chatModel,
    resolveModel: (ref) => services.models.resolveModel(ref),
    userMessages: () => userMessagesOf(o.chat()),
    timeoutMs: settings.timeoutMs() ?? DEFAULT_REVIEW_TIMEOUT_MS,
    ...(o.budget ? { budget: o.budget } : {}),
    runUsage: o.runUsage,
    log: services.host.log,
  });
}
