// The session the controller holds in memory: what the chat shows, what the model is sent next,
// and the tools' per-session state.
import { emptyChatState, type ChatState, type Mode } from '../../protocol';
import type { ModelMessage } from '../providers/types';
import type { ToolSessionState } from '../tools/types';
import type { RewindRedo, StoredSession, TurnCheckpoint } from '../ports';

export interface LiveSession {
  id: string;
  title: string;
  mode: Mode;
  model: string;
  createdAt: number;
  /** False until the first message: empty chats are not written to history. */
  persisted: boolean;
  chat: ChatState;
  modelMessages: ModelMessage[];
  tools: ToolSessionState;
  /** One per request, in order: where its turn starts in the model history and the files it changed. */
  checkpoints: TurnCheckpoint[];
  /** The last rewind, while it can be undone. */
  redo?: RewindRedo;
  /**
   * The prompt size the provider reported for the last model call, and the history it was sent (its
   * length and the compaction in force): the compaction check counts from it instead of estimating.
   */
  lastPrompt?: { tokens: number; historyLength: number; replaces: number };
}

export function newLiveSession(id: string, model: string, now: number, tools: ToolSessionState): LiveSession {
  return {
    id,
    title: 'New chat',
    mode: 'chat',
    model,
    createdAt: now,
    persisted: false,
    chat: emptyChatState(),
    modelMessages: [],
    tools,
    checkpoints: [],
  };
}

export function liveSessionFromStored(stored: StoredSession, mode: Mode, tools: ToolSessionState): LiveSession {
  const chat = emptyChatState();
  chat.messages = stored.messages;
  chat.todos = stored.todos;
  tools.todos = stored.todos;
  return {
    id: stored.id,
    title: stored.title,
    mode,
    model: stored.model,
    createdAt: stored.createdAt,
    persisted: true,
    chat,
    modelMessages: stored.modelMessages,
    tools,
    checkpoints: stored.checkpoints ?? [],
    ...(stored.redo ? { redo: stored.redo } : {}),
  };
}
