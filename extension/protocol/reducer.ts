// One pure reducer turns request events into chat messages. The webview renders with it, the
// host keeps its snapshot with it, and the store replays its journal with it — so the three can
// never disagree about what a conversation looks like.
import type { Envelope, RequestEvent } from './events';
import type { PlanArtifact } from './plan';
import type { Report } from './research';
import type {
  ChatMessage,
  Compaction,
  MessagePart,
  PendingApproval,
  PendingQuestion,
  Snapshot,
  Todo,
  ToolCallView,
} from './model';

export interface ChatState {
  messages: ChatMessage[];
  todos: Todo[];
  approvals: PendingApproval[];
  questions: PendingQuestion[];
  /** requestId → the assistant message it streams into. */
  requests: Record<string, { assistantMessageId: string; lastSeq: number; done: boolean }>;
  inFlightRequestId?: string;
}

/** Live output kept on a card; older output is dropped from the view (the tool keeps the full text). */
export const LIVE_OUTPUT_CAP = 16_000;

export function emptyChatState(): ChatState {
  return { messages: [], todos: [], approvals: [], questions: [], requests: {} };
}

function findMessage(state: ChatState, id: string): ChatMessage | undefined {
  // The streaming message is nearly always the last one: search from the end.
  for (let i = state.messages.length - 1; i >= 0; i--) if (state.messages[i].id === id) return state.messages[i];
  return undefined;
}

function appendText(parts: MessagePart[], type: 'text' | 'thinking', text: string): void {
  const last = parts[parts.length - 1];
  if (last && last.type === type) last.text += text;
  else parts.push({ type, text });
}

function findTool(message: ChatMessage, callId: string): Extract<MessagePart, { type: 'tool' }> | undefined {
  for (let i = message.parts.length - 1; i >= 0; i--) {
    const p = message.parts[i];
    if (p.type === 'tool' && p.call.callId === callId) return p;
  }
  return undefined;
}

function upsertTool(message: ChatMessage, call: ToolCallView): void {
  const existing = findTool(message, call.callId);
  if (existing) existing.call = { ...existing.call, ...call, liveOutput: call.liveOutput ?? existing.call.liveOutput };
  else message.parts.push({ type: 'tool', call: { ...call } });
}

/**
 * Applies one envelope in place. Returns the id of the message that changed (if any), so a
 * renderer can redraw that message alone. Events out of order, for unknown requests, or after
 * a terminal event are ignored: the reducer is the invariant's last line of defence.
 */
export function applyEnvelope(state: ChatState, env: Envelope, now = env.ts): string | undefined {
  const event: RequestEvent = env.event;
  const req = state.requests[env.requestId];
  if (event.type === 'started') {
    if (req) return undefined;
    state.messages.push({
      id: event.userMessageId,
      role: 'user',
      mode: event.mode,
      parts: [
        { type: 'text', text: event.text },
        ...(event.attachments?.length ? [{ type: 'attachments' as const, attachments: event.attachments }] : []),
      ],
      status: 'done',
      createdAt: now,
      ...(event.origin ? { origin: event.origin } : {}),
    });
    state.messages.push({
      id: event.assistantMessageId,
      role: 'assistant',
      mode: event.mode,
      parts: [],
      status: 'streaming',
      model: event.model,
      createdAt: now,
    });
    state.requests[env.requestId] = { assistantMessageId: event.assistantMessageId, lastSeq: env.seq, done: false };
    state.inFlightRequestId = env.requestId;
    return event.assistantMessageId;
  }
  if (event.type === 'plan_status') {
    // Not tied to a request's lifecycle: the plan's own request has usually ended.
    for (let i = state.messages.length - 1; i >= 0; i--) {
      const m = state.messages[i];
      for (const p of m.parts) {
        if (p.type === 'plan' && p.plan.id === event.planId) {
          p.plan = { ...p.plan, status: event.status };
          return m.id;
        }
      }
    }
    return undefined;
  }
  if (event.type === 'compacted' && (!req || req.done)) {
    // "Compact now" between requests: a message of its own holding the marker.
    if (findMessage(state, event.messageId)) return undefined;
    state.messages.push({
      id: event.messageId,
      role: 'assistant',
      mode: state.messages.at(-1)?.mode ?? 'chat',
      parts: [{ type: 'compaction', compaction: event.compaction }],
      status: 'done',
      createdAt: now,
    });
    return event.messageId;
  }
  if (!req || req.done || env.seq <= req.lastSeq) return undefined;
  req.lastSeq = env.seq;
  const msg = findMessage(state, req.assistantMessageId);
  if (!msg) return undefined;
  switch (event.type) {
    case 'text_delta':
      appendText(msg.parts, 'text', event.text);
      break;
    case 'thinking_delta':
      appendText(msg.parts, 'thinking', event.text);
      break;
    case 'tool_started':
    case 'tool_updated':
      upsertTool(msg, event.call);
      break;
    case 'tool_progress': {
      const tool = findTool(msg, event.callId);
      if (tool) {
        const out = (tool.call.liveOutput ?? '') + event.output;
        tool.call.liveOutput = out.length > LIVE_OUTPUT_CAP ? out.slice(out.length - LIVE_OUTPUT_CAP) : out;
      }
      break;
    }
    case 'subagent_updated': {
      const tool = findTool(msg, event.callId);
      if (tool) tool.call = { ...tool.call, subagent: event.subagent };
      break;
    }
    case 'approval_needed': {
      // An update (the proposal edited, the file changed) replaces the card where it stands.
      const at = state.approvals.findIndex((a) => a.callId === event.approval.callId);
      state.approvals =
        at < 0 ? [...state.approvals, event.approval] : state.approvals.map((a, i) => (i === at ? event.approval : a));
      break;
    }
    case 'approval_resolved':
      state.approvals = state.approvals.filter((a) => a.callId !== event.callId);
      break;
    case 'question':
      state.questions = [...state.questions.filter((q) => q.callId !== event.question.callId), event.question];
      break;
    case 'question_resolved':
      state.questions = state.questions.filter((q) => q.callId !== event.callId);
      break;
    case 'memory_proposed': {
      const tool = findTool(msg, event.callId);
      if (tool) tool.call = { ...tool.call, memory: event.memory };
      break;
    }
    case 'memory_resolved': {
      const tool = findTool(msg, event.callId);
      if (tool) {
        const { memory: _answered, ...call } = tool.call;
        tool.call = call;
      }
      break;
    }
    case 'todos':
      state.todos = event.todos;
      break;
    case 'usage':
      msg.usage = event.usage;
      break;
    case 'plan_proposed':
      msg.parts.push({ type: 'plan', plan: { ...event.plan } });
      break;
    case 'compacted':
      msg.parts.push({ type: 'compaction', compaction: event.compaction });
      break;
    case 'research_progress':
      msg.research = event.progress;
      break;
    case 'report':
      // The draft streamed as text is replaced by the verified report; tool cards and notices stay.
      msg.parts = msg.parts.filter((p) => p.type !== 'text');
      msg.parts.push({ type: 'report', report: event.report });
      break;
    case 'notice':
      msg.parts.push({ type: 'notice', notice: { kind: event.kind ?? 'info', text: event.text } });
      break;
    case 'goal_check':
      msg.parts.push({ type: 'notice', notice: { kind: 'goal', text: event.text } });
      break;
    case 'budget_stop':
      msg.parts.push({ type: 'notice', notice: { kind: 'budget', text: event.text, budgetStop: event.stop } });
      break;
    case 'failover':
      msg.parts.push({ type: 'notice', notice: { kind: 'fallback', text: event.text } });
      msg.model = event.to;
      break;
    case 'complete':
    case 'aborted':
    case 'error':
      req.done = true;
      msg.status = event.type === 'complete' ? 'done' : event.type === 'aborted' ? 'stopped' : 'error';
      if (event.type === 'error') msg.error = event.error;
      // A card still running when its request ended did not finish.
      for (const p of msg.parts) {
        if (
          p.type === 'tool' &&
          (p.call.status === 'running' || p.call.status === 'pending' || p.call.status === 'awaiting_approval')
        ) {
          p.call.status = 'aborted';
        }
      }
      state.approvals = [];
      state.questions = [];
      if (state.inFlightRequestId === env.requestId) state.inFlightRequestId = undefined;
      break;
  }
  return msg.id;
}

/** The latest compaction of a conversation (the one the model-facing history starts from), if any. */
export function latestCompaction(state: Pick<ChatState, 'messages'>): Compaction | undefined {
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const parts = state.messages[i].parts;
    for (let j = parts.length - 1; j >= 0; j--) {
      const p = parts[j];
      if (p.type === 'compaction') return p.compaction;
    }
  }
  return undefined;
}

/** Finds a report card in the chat by its id. */
export function findReport(state: Pick<ChatState, 'messages'>, reportId: string): Report | undefined {
  for (const m of state.messages)
    for (const p of m.parts) if (p.type === 'report' && p.report.id === reportId) return p.report;
  return undefined;
}

/** Finds a plan card in the chat by its id. */
export function findPlan(state: Pick<ChatState, 'messages'>, planId: string): PlanArtifact | undefined {
  for (const m of state.messages) for (const p of m.parts) if (p.type === 'plan' && p.plan.id === planId) return p.plan;
  return undefined;
}

/** Rebuilds reducer state from a host snapshot, so events of an in-flight request keep applying. */
export function chatStateFromSnapshot(snapshot: Snapshot): ChatState {
  const state: ChatState = {
    messages: structuredClone(snapshot.messages),
    todos: snapshot.todos,
    approvals: snapshot.approvals,
    questions: snapshot.questions,
    requests: {},
  };
  if (snapshot.inFlightRequestId && snapshot.inFlightAssistantMessageId) {
    state.requests[snapshot.inFlightRequestId] = {
      assistantMessageId: snapshot.inFlightAssistantMessageId,
      lastSeq: snapshot.inFlightLastSeq ?? 0,
      done: false,
    };
    state.inFlightRequestId = snapshot.inFlightRequestId;
  }
  return state;
}

/** Forgets per-request bookkeeping of finished requests (they can receive nothing more). */
export function compactRequests(state: ChatState): void {
  for (const [id, r] of Object.entries(state.requests)) if (r.done) delete state.requests[id];
}
