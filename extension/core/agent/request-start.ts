// A request's start as the chat and the journal record it — the session's first record (a new chat),
// the `started` event with the user's message, the turn's checkpoint — written once the request's first
// model call is on its way, not before it: that bookkeeping (a journal append folded into the store's
// database, the reducer, a post to the view) is the largest part of the time from Send to the wire.
//
// Nothing is lost and nothing is out of order:
// - the records are the same, in the same order, and all of them come before any record of the
//   request's own (its events, its model history): the runner calls `begin` before it handles the
//   request's first event, and before it ends in any way (complete, Stop, an error, a blocking hook);
// - they are written (synchronously, durable as every journal append) once the host says the model call
//   is written to its connection (ChatHost.afterModelCallSent, a short time at most; without it, the
//   macrotask right after the one that dispatched the call), and in any case before the request's first
//   event is handled — before any of the answer is shown or kept. Only a process kill within that short
//   time could leave a request sent with no record of it; the answer would be lost with it, as it is for
//   any kill during a request.
import type { Mode, Todo } from '../../protocol';
import type { TurnCheckpoint } from '../ports';
import type { Provider } from '../providers/types';
import { type Attachment, attachmentMeta } from '../extensions/references/attach';
import { type CheckedImageSet, storeChatImages } from '../extensions/images/chat-images';
import type { ChatServices } from './chat-services';
import type { CurrentChat } from './current-chat';
import { markFirstRequest } from '../util/first-request-trace';

export interface RequestStart {
  requestId: string;
  userMessageId: string;
  text: string;
  mode: Mode;
  /** The model the answer names (the planner model for a plan). */
  model: string;
  attachments?: Attachment[];
  images?: CheckedImageSet;
  /** Notices held for the next request, shown right after its message. */
  notices: string[];
  checkpoint: TurnCheckpoint;
  todos?: Todo[];
  /** The message is the goal loop's (goal-loop.ts), labelled so in the chat. */
  origin?: 'goal';
}

/** Records the request's start; the first call does it, later calls do nothing. */
export function startRecorder(chat: CurrentChat, services: ChatServices, r: RequestStart): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    recordStart(chat, services, r);
  };
}

function recordStart(chat: CurrentChat, services: ChatServices, r: RequestStart): void {
  const { host } = services;
  const s = chat.session;
  const { requestId } = r;
  // The session's title and start were set when the request came (its prompt carries the date).
  if (!s.persisted) {
    const { id: sessionId, title, model } = s;
    chat.journal({ kind: 'session_created', sessionId, title, mode: s.mode, model, at: host.now() });
    s.persisted = true;
    host.onCurrentSessionChanged?.(s.id);
  }
  // Running, durably: a window that dies from here on leaves the session listed as interrupted.
  chat.journal({ kind: 'run_state', sessionId: s.id, requestId, at: host.now() });
  // Their files first: the chat's thumbnails, History and exports read them there.
  if (r.images) storeChatImages(services.history.persistence.images, r.images.blocks, host.log);
  chat.emit(requestId, {
    type: 'started',
    userMessageId: r.userMessageId,
    assistantMessageId: host.newId(),
    text: r.text,
    mode: r.mode,
    model: r.model,
    ...(r.attachments?.length || r.images?.metas.length
      ? { attachments: [...(r.attachments ?? []).map(attachmentMeta), ...(r.images?.metas ?? [])] }
      : {}),
    ...(r.origin ? { origin: r.origin } : {}),
  });
  for (const text of r.notices) chat.emit(requestId, { type: 'notice', text });
  // Where this turn starts, so "Rewind to here" can cut the model history at this message.
  s.checkpoints.push(r.checkpoint);
  chat.journal({ kind: 'turn_checkpoint', sessionId: s.id, checkpoint: r.checkpoint, at: host.now() });
  if (r.todos) {
    s.tools.todos = r.todos;
    chat.journal({ kind: 'todos', sessionId: s.id, todos: r.todos, at: host.now() });
    chat.emit(requestId, { type: 'todos', todos: r.todos });
  }
}

/**
 * `provider`, calling `sent` once its first model call has been dispatched: when `afterSent` says it is
 * written to its connection, by default in the macrotask after the one that starts the call, when the
 * microtasks that hand it to the HTTP client have all run.
 */
export function announcingProvider(
  provider: Provider,
  sent: () => void,
  afterSent: (written: () => void) => void = (written) => setImmediate(written),
): Provider {
  let announced = false;
  return {
    name: provider.name,
    kind: provider.kind,
    stream(request, signal) {
      const inner = provider.stream(request, signal);
      return {
        [Symbol.asyncIterator]() {
          if (!announced) {
            announced = true;
            markFirstRequest('model call made');
            afterSent(sent);
          }
          return inner[Symbol.asyncIterator]();
        },
      };
    },
  };
}
