// "Compact now": summarises the older turns at once, between requests. The marker is a message of its
// own. Refused (a `protocolError`) while a request runs or when there is nothing to compact.
import { turnPrompt } from './agent-turn';
import type { Compaction } from '../../protocol';
import type { ChatServices } from './chat-services';
import { estimatePromptTokens } from './compaction';
import type { CurrentChat } from './current-chat';
import { toErrorInfo } from './errors';
import type { RequestRunner } from './request-runner';
import { compactSession, nextPromptTokens, type SessionCompaction } from './session-compaction';

export async function compactNow(
  chat: CurrentChat,
  services: ChatServices,
  runner: RequestRunner,
): Promise<Compaction | undefined> {
  const s = chat.session;
  const refuse = (message: string) => {
    chat.post({ type: 'protocolError', error: { code: 'protocol', message, recoverable: true } });
    return undefined;
  };
  if (!runner.idle()) return refuse('Wait for the running request before compacting.');
  if (!s.persisted || !s.modelMessages.length) return refuse('There is nothing to compact yet.');
  // A request sent meanwhile waits for this, so it gets the brief.
  const done = await runner.hold(async (): Promise<SessionCompaction> => {
    try {
      const target = await services.models.resolveModel(s.model);
      const { tools, system } = await turnPrompt(services, s.mode, s.createdAt);
      const fixedTokens = estimatePromptTokens(system, tools?.specs() ?? [], []);
      chat.flush();
      const tokensBefore = nextPromptTokens(s, fixedTokens, 0);
      const signal = new AbortController().signal;
      return await compactSession(s, target, { trigger: 'manual', tokensBefore, fixedTokens, signal }, services.host);
    } catch (err) {
      return { ok: false, reason: toErrorInfo(err).message };
    }
  });
  if (!done.ok) return refuse(`Could not compact the conversation: ${done.reason}`);
  if (chat.session !== s) return undefined; // the user switched chats meanwhile
  // Its own request id: no model request is running, and the reducer adds the marker as a message.
  const { newId } = services.host;
  chat.emit(`compact-${newId()}`, { type: 'compacted', compaction: done.compaction, messageId: newId() });
  chat.flush();
  return done.compaction;
}
