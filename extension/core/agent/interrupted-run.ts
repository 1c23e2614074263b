// A request interrupted by its window going away (a crash, a reload mid-run) leaves the session as far as
// the journal got: the user's message, the answer streamed so far (events), the model history up to the
// last finished step — possibly an assistant message whose tool calls never got results, or no model
// history at all when the first step was still streaming. Sent as it is, that history is refused by every
// provider (a tool call must be answered). This makes it a valid conversation again, from what was saved:
// the user's message when it was not yet recorded, a result for every unanswered call saying what is known
// ("not run" / "result unknown"), and the answer's text streamed after the last recorded step. Derived
// from the state alone, so applying it twice adds nothing the second time.
import type { ChatMessage, ToolCallView } from '../../protocol';
import type { ModelMessage } from '../providers/types';
import type { LiveSession } from './live-session';

/** What the user's Continue sends: a user message of its own, so every provider takes the history. */
export const CONTINUE_TEXT =
  'Continue the request that was interrupted (the window closed while it ran). Pick up where it stopped; ' +
  'a tool call marked "interrupted" may or may not have taken effect — check before repeating it.';

/** The seq of the event that closes the interrupted request: past any seq the request itself used. */
export const CLOSING_SEQ = 2 ** 31 - 1;

export interface InterruptedRepair {
  /** Messages to append to the model history, in order (empty when it is valid already). */
  history: ModelMessage[];
  /** The interrupted answer, still "streaming" in the chat: to be closed as stopped. */
  openAnswerId?: string;
}

/** Longest excerpt of a finished call's shown output put in its synthetic result. */
const MAX_SHOWN_OUTPUT = 2_000;

export function repairInterruptedTurn(session: LiveSession, requestId: string): InterruptedRepair {
  const checkpoint = session.checkpoints.find((c) => c.requestId === requestId);
  // The checkpoint is journaled before the request's first event: without it nothing of the request was saved.
  if (!checkpoint) return { history: [] };
  const messages = session.chat.messages;
  const userAt = messages.findIndex((m) => m.id === checkpoint.userMessageId);
  const user = messages[userAt];
  const answer = messages[userAt + 1]?.role === 'assistant' ? messages[userAt + 1] : undefined;
  const turn = session.modelMessages.slice(checkpoint.modelIndex);
  const history: ModelMessage[] = [];
  // The user's message is recorded with the first step's answer: a first step cut short never got there.
  if (turn.length === 0 && user) history.push({ role: 'user', content: textOf(user) });
  const answered = new Set(turn.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
  for (const m of turn) {
    if (m.role !== 'assistant') continue;
    for (const call of m.toolCalls ?? []) {
      if (answered.has(call.id)) continue;
      history.push({
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: [{ type: 'text', text: interruptedResult(answer && toolCard(answer, call.id)) }],
        isError: true,
      });
    }
  }
  // The answer's text after the last recorded step: what the model was writing when the window went.
  const recorded = turn.map((m) => (m.role === 'assistant' ? m.text : '')).join('');
  const shown = answer ? textOf(answer) : '';
  const partial = shown.startsWith(recorded) ? shown.slice(recorded.length) : '';
  if (partial.trim() && !history.some((m) => m.role === 'tool')) history.push({ role: 'assistant', text: partial });
  return { history, ...(answer?.status === 'streaming' ? { openAnswerId: answer.id } : {}) };
}

/** What the model is told about a call whose result was never saved, from its card as the chat last showed it. */
function interruptedResult(card: ToolCallView | undefined): string {
  switch (card?.status) {
    case 'running':
      return (
        'Interrupted — result unknown: the window closed while this call ran. It may have taken effect; ' +
        'check before running it again.'
      );
    case 'ok':
    case 'error': {
      const shown = card.detail ?? card.preview ?? '';
      const excerpt = shown.length > MAX_SHOWN_OUTPUT ? `${shown.slice(0, MAX_SHOWN_OUTPUT)}…` : shown;
      return (
        `Interrupted — this call finished (${card.status}) before the window closed, but its result was not ` +
        `saved.${excerpt ? ` Its output as the chat showed it:\n${excerpt}` : ''}`
      );
    }
    case 'denied':
      return 'Interrupted — not run: the call was denied before the window closed.';
    default:
      return 'Interrupted — not run: the window closed (a reload or a crash) before this call ran.';
  }
}

function toolCard(message: ChatMessage, callId: string): ToolCallView | undefined {
  for (const p of message.parts) if (p.type === 'tool' && p.call.callId === callId) return p.call;
  return undefined;
}

function textOf(message: ChatMessage): string {
  return message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
}
