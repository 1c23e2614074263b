// What the Agents view says of one live session, folded from the very messages its chat view gets.
// Reading the outbound stream (rather than asking the controller) keeps the hub blind to how a request
// runs: whatever the view would show — started, a tool call, an approval, the end — the status shows.
import type { Envelope, Mode, Outbound, PendingApproval, PendingQuestion, Usage } from '../../protocol';

export type SessionState = 'idle' | 'running' | 'waiting' | 'done' | 'failed' | 'stopped';

export interface SessionStatus {
  sessionId: string;
  title: string;
  mode: Mode | undefined;
  model: string;
  state: SessionState;
  /** When the current (or last) request started; undefined before the first. */
  startedAt: number | undefined;
  /** When the last request ended; undefined while one runs. */
  endedAt: number | undefined;
  /** Tool calls made by the current (or last) request. */
  steps: number;
  /** Spent by the whole session (every request so far); undefined while no price is known. */
  costUsd: number | undefined;
  tokens: number;
  /** Approvals and questions waiting for the user, oldest first. */
  approvals: PendingApproval[];
  questions: PendingQuestion[];
  /** The last error's message, when the last request failed. */
  error: string | undefined;
  /** The tool running now (the latest started, when several run), for "running bash" in the status bar. */
  tool: string | undefined;
}

export function emptyStatus(): SessionStatus {
  return {
    sessionId: '',
    title: 'New chat',
    mode: undefined,
    model: '',
    state: 'idle',
    startedAt: undefined,
    endedAt: undefined,
    steps: 0,
    costUsd: undefined,
    tokens: 0,
    approvals: [],
    questions: [],
    error: undefined,
    tool: undefined,
  };
}

/** Usage of finished requests plus the running one's latest (a request's usage is cumulative). */
interface Spend {
  settled: { costUsd: number | undefined; tokens: number };
  current: Usage | undefined;
}

/** Folds outbound messages into a status; `changed` says whether the Agents view needs a repaint. */
export class SessionStatusFold {
  private status = emptyStatus();
  private readonly spend: Spend = { settled: { costUsd: undefined, tokens: 0 }, current: undefined };
  /** Tools running now, by call id, in the order they started. */
  private readonly running = new Map<string, string>();

  get current(): SessionStatus {
    const total = addUsage(this.spend.settled, this.spend.current);
    return { ...this.status, costUsd: total.costUsd, tokens: total.tokens };
  }

  /** Applies one message; true when the status changed in a way a list would show. */
  apply(message: Outbound): boolean {
    switch (message.type) {
      case 'snapshot': {
        const s = message.snapshot;
        let settled: Spend['settled'] = { costUsd: undefined, tokens: 0 };
        let current: Usage | undefined;
        for (const m of s.messages) {
          if (!m.usage) continue;
          if (m.id === s.inFlightAssistantMessageId) current = m.usage;
          else settled = addUsage(settled, m.usage);
        }
        this.spend.settled = settled;
        this.spend.current = current;
        const sameSession = this.status.sessionId === s.sessionId;
        this.status = {
          ...this.status,
          sessionId: s.sessionId,
          title: s.title,
          mode: s.mode,
          model: s.model,
          approvals: [...s.approvals],
          questions: [...s.questions],
        };
        if (s.inFlightRequestId) this.status.state = s.approvals.length || s.questions.length ? 'waiting' : 'running';
        else if (!sameSession || this.status.state === 'running' || this.status.state === 'waiting')
          // A new or resumed chat with nothing running; a running state the snapshot does not confirm is over.
          this.status = { ...this.status, state: sameSession ? 'done' : 'idle', approvals: [], questions: [] };
        if (!sameSession && !s.inFlightRequestId) this.status = { ...this.status, startedAt: undefined, steps: 0 };
        return true;
      }
      case 'mode':
        this.status = { ...this.status, mode: message.mode };
        return true;
      case 'model':
        this.status = { ...this.status, model: message.model };
        return true;
      case 'events': {
        let changed = false;
        for (const e of message.envelopes) changed = this.applyEvent(e) || changed;
        return changed;
      }
      default:
        return false;
    }
  }

  private applyEvent(e: Envelope): boolean {
    const ev = e.event;
    const s = this.status;
    switch (ev.type) {
      case 'started':
        this.spend.current = undefined;
        this.running.clear();
        this.status = {
          ...s,
          state: 'running',
          startedAt: e.ts,
          endedAt: undefined,
          steps: 0,
          mode: ev.mode,
          model: ev.model,
          error: undefined,
          // A new chat's title comes from its first message (the store names it the same way later).
          title: s.title === 'New chat' || !s.title ? titleFrom(ev.text) : s.title,
        };
        return true;
      case 'tool_started':
        this.status = { ...s, steps: s.steps + 1 };
        return true;
      case 'tool_updated': {
        if (ev.call.status === 'running') this.running.set(ev.call.callId, ev.call.name);
        else this.running.delete(ev.call.callId);
        const tool = [...this.running.values()].at(-1);
        if (tool === s.tool) return false;
        this.status = { ...s, tool };
        return true;
      }
      case 'usage':
        this.spend.current = ev.usage;
        return true;
      case 'approval_needed': {
        const approvals = s.approvals.filter((a) => a.callId !== ev.approval.callId);
        approvals.push(ev.approval);
        this.status = { ...s, approvals, state: 'waiting' };
        return true;
      }
      case 'approval_resolved':
        this.status = this.withWaiting(
          s.approvals.filter((a) => a.callId !== ev.callId),
          s.questions,
        );
        return true;
      case 'question': {
        const questions = s.questions.filter((q) => q.callId !== ev.question.callId);
        questions.push(ev.question);
        this.status = { ...s, questions, state: 'waiting' };
        return true;
      }
      case 'question_resolved':
        this.status = this.withWaiting(
          s.approvals,
          s.questions.filter((q) => q.callId !== ev.callId),
        );
        return true;
      case 'complete':
      case 'aborted':
      case 'error': {
        // Plan approvals and "Compact now" run requests without `started`: they end nothing the list shows.
        if (s.state !== 'running' && s.state !== 'waiting') return false;
        this.spend.settled = addUsage(this.spend.settled, this.spend.current);
        this.spend.current = undefined;
        this.running.clear();
        this.status = {
          ...s,
          tool: undefined,
          state: ev.type === 'complete' ? 'done' : ev.type === 'aborted' ? 'stopped' : 'failed',
          endedAt: e.ts,
          approvals: [],
          questions: [],
          error: ev.type === 'error' ? ev.error.message : undefined,
        };
        return true;
      }
      default:
        return false;
    }
  }

  private withWaiting(approvals: PendingApproval[], questions: PendingQuestion[]): SessionStatus {
    const s = this.status;
    const waiting = approvals.length > 0 || questions.length > 0;
    const state = waiting ? 'waiting' : s.state === 'waiting' ? 'running' : s.state;
    return { ...s, approvals, questions, state };
  }
}

function addUsage(a: Spend['settled'], u: Usage | undefined): Spend['settled'] {
  if (!u) return a;
  const cost = u.costUsd === undefined ? a.costUsd : (a.costUsd ?? 0) + u.costUsd;
  return { costUsd: cost, tokens: a.tokens + u.inputTokens + u.outputTokens };
}

function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line || 'New chat';
}
