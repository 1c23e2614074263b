// What a request leaves in the session beside its events (its start is request-start.ts): a research report
// as an artifact, and a better title once the first exchange is done ("hi"-style messages).
import { latestCompaction, type Report } from '../../protocol';
import type { StoredResearch } from '../ports';
import { generateTitle } from '../session-title';
import type { ChatServices } from './chat-services';
import type { CurrentChat } from './current-chat';
import type { LiveSession } from './live-session';

/**
 * A report is also an artifact of the session, with its citations (the store's artifacts table) and
 * the sources read with their texts, which a follow-up after a restart continues from.
 */
export function journalReport(
  chat: CurrentChat,
  services: ChatServices,
  report: Report,
  research?: StoredResearch,
): void {
  chat.journal({
    kind: 'artifact',
    sessionId: chat.session.id,
    artifact: {
      id: report.id,
      kind: 'report',
      title: report.title,
      content: report.markdown,
      citations: report.sources.map((src) => ({ n: src.n, url: src.url, title: src.title })),
      ...(research ? { research } : {}),
    },
    at: services.host.now(),
  });
}

/** "hi"-style first messages get their title from the answer once the first exchange is done. */
export function retitleAfterFirstExchange(chat: CurrentChat, services: ChatServices, userText: string): void {
  const s = chat.session;
  if (s.chat.messages.length !== 2) return;
  const answer = s.chat.messages[1].parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
  const title = generateTitle(userText, answer);
  if (title && title !== s.title) {
    s.title = title;
    const at = services.host.now();
    chat.journal({ kind: 'session_meta', sessionId: s.id, title, titleSource: 'auto', at });
  }
}

/**
 * Records the size of the request's last prompt on the session (the context meter reads it). Usage is a
 * running total over the turn's model calls: the difference is the last call's prompt. An `isolated` run
 * (research) runs without the chat history: its prompts say nothing of its size.
 */
export function lastPromptRecorder(s: LiveSession, isolated: boolean): (inputTotal: number) => void {
  let inputSoFar = 0;
  return (inputTotal) => {
    if (isolated) return;
    const tokens = inputTotal - inputSoFar;
    inputSoFar = inputTotal;
    const replaces = latestCompaction(s.chat)?.replaces ?? 0;
    if (tokens > 0) s.lastPrompt = { tokens, historyLength: s.modelMessages.length, replaces };
  };
}
