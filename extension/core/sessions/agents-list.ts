// What the Agents view lists: every session of this window (live, ended, interrupted by a reload), in
// the words DESIGN §12 names, with the figures a user scans for — and the filter and the total. Pure, so
// the wording and the arithmetic are tested without a window.
import type { SessionState, SessionStatus } from './session-status';

/**
 * A state as the list says it; "interrupted" is a session a reload or crash cut off; "queued" one whose
 * request waits for a running slot (sextant.agents.maxParallelSessions).
 */
export type AgentState = Exclude<SessionState, 'waiting'> | 'waiting for you' | 'interrupted' | 'queued';

export const AGENT_FILTERS = ['all', 'running', 'queued', 'waiting for you', 'done', 'failed', 'interrupted'] as const;
export type AgentFilter = (typeof AGENT_FILTERS)[number];

export interface AgentEntry {
  /** The live slot's id; undefined for a session that is only listed (ended, interrupted). */
  slotId: string | undefined;
  sessionId: string;
  state: AgentState;
  label: string;
  description: string;
  /** Lines of the tooltip (and the screen reader's detail). */
  detail: string[];
  costUsd: number | undefined;
  /** The branch of the worktree the session works in (its Merge Back is offered), if any. */
  worktree?: string;
  waiting: { callId: string; label: string; detail: string; kind: 'approval' | 'question' }[];
}

export interface ListedSession {
  slotId?: string;
  status: SessionStatus;
  folder?: string;
  /** Its worktree: the branch and folder (a worktree session, core/worktrees). */
  worktree?: { branch: string; path: string };
  interrupted?: boolean;
  /** Its request waits for a running slot (the window's fleet says so). */
  queued?: boolean;
}

/** All sessions' spending together (the window's fleet) and the total caps in force. */
export interface FleetTotal {
  spent: { tokens: number; costUsd: number };
  caps: { costUsd?: number; tokens?: number };
}

export function agentState(s: ListedSession): AgentState {
  if (s.interrupted) return 'interrupted';
  if (s.queued && s.status.state === 'running') return 'queued';
  return s.status.state === 'waiting' ? 'waiting for you' : s.status.state;
}

export function agentEntry(s: ListedSession, now: number): AgentEntry {
  const st = s.status;
  const state = agentState(s);
  const steps = `${st.steps} tool step${st.steps === 1 ? '' : 's'}`;
  const cost = st.costUsd === undefined ? undefined : formatUsd(st.costUsd);
  const elapsed = st.startedAt === undefined ? undefined : formatElapsed((st.endedAt ?? now) - st.startedAt);
  const description = [state, elapsed, st.startedAt === undefined ? undefined : steps, cost, s.worktree?.branch]
    .filter(Boolean)
    .join(' · ');
  const detail = [
    `${st.title} — ${state}`,
    st.mode ? `Mode: ${st.mode}` : undefined,
    st.model ? `Model: ${st.model}` : undefined,
    elapsed ? `Elapsed: ${elapsed}` : undefined,
    `Steps: ${steps}`,
    `Cost: ${cost ?? (st.tokens ? `${st.tokens} tokens (price unknown)` : 'nothing yet')}`,
    s.worktree ? `Worktree: ${s.worktree.branch} (${s.worktree.path})` : `Folder: ${s.folder ?? 'the workspace'}`,
    st.error ? `Error: ${st.error}` : undefined,
  ].filter((l): l is string => l !== undefined);
  return {
    slotId: s.slotId,
    sessionId: st.sessionId,
    state,
    label: st.title || 'New chat',
    description,
    detail,
    costUsd: st.costUsd,
    ...(s.worktree ? { worktree: s.worktree.branch } : {}),
    waiting: [
      ...st.approvals.map((a) => ({
        callId: a.callId,
        kind: 'approval' as const,
        label: `${a.tool}: ${oneLine(a.subject)}`,
        detail: a.detail,
      })),
      ...st.questions.map((q) => ({
        callId: q.callId,
        kind: 'question' as const,
        label: `Question: ${oneLine(q.questions[0]?.question ?? '')}`,
        detail: q.questions.map((x) => x.question).join('\n'),
      })),
    ],
  };
}

/**
 * What the view lists, from the window's live slots, the sessions it ended and those the store says a gone
 * window left running. A live slot that only shows an interrupted session (a reloaded window reopens the
 * chat its sidebar showed) is that interrupted session, with the slot — opening it shows that chat —
 * until something runs in it again. An empty new chat is not an agent yet.
 */
export function listedSessions(
  live: readonly ListedSession[],
  ended: readonly ListedSession[],
  interrupted: readonly ListedSession[],
): ListedSession[] {
  const cut = new Map(interrupted.map((s) => [s.status.sessionId, s]));
  const shown = live.flatMap((s): ListedSession[] => {
    const busy = s.status.state === 'running' || s.status.state === 'waiting';
    const left = busy ? undefined : cut.get(s.status.sessionId);
    if (left) return [{ ...left, slotId: s.slotId, ...(s.folder ? { folder: s.folder } : {}) }];
    return s.status.state !== 'idle' || s.status.approvals.length ? [s] : [];
  });
  const liveIds = new Set(live.map((s) => s.status.sessionId));
  const endedHere = ended.filter((s) => !liveIds.has(s.status.sessionId));
  const endedIds = new Set(endedHere.map((s) => s.status.sessionId));
  const onlyListed = interrupted.filter((s) => !liveIds.has(s.status.sessionId) && !endedIds.has(s.status.sessionId));
  return [...shown, ...endedHere, ...onlyListed];
}

/** The entries a filter keeps, most pressing first: waiting, running, then the rest by recency. */
export function agentEntries(sessions: readonly ListedSession[], filter: AgentFilter, now: number): AgentEntry[] {
  const rank: Record<AgentState, number> = {
    'waiting for you': 0,
    running: 1,
    queued: 2,
    interrupted: 2,
    failed: 3,
    stopped: 4,
    done: 5,
    idle: 6,
  };
  return sessions
    .map((s) => ({ s, e: agentEntry(s, now) }))
    .filter(({ e }) => filter === 'all' || e.state === filter || (filter === 'done' && e.state === 'stopped'))
    .sort(
      (a, b) =>
        rank[a.e.state] - rank[b.e.state] ||
        (b.s.status.endedAt ?? b.s.status.startedAt ?? 0) - (a.s.status.endedAt ?? a.s.status.startedAt ?? 0),
    )
    .map(({ e }) => e);
}

/**
 * The line above the list: how many run, wait and are queued, and what all of them spent. With the
 * window's fleet, the total is everything its sessions spent (sub-agents included), against the total
 * cap when one is set: dollars, or tokens when nothing spent had a price.
 */
export function agentsSummary(sessions: readonly ListedSession[], fleet?: FleetTotal): string {
  const states = sessions.map(agentState);
  const count = (st: AgentState) => states.filter((x) => x === st).length;
  let total: number | undefined;
  for (const s of sessions) if (s.status.costUsd !== undefined) total = (total ?? 0) + s.status.costUsd;
  const parts = [
    `${count('running')} running`,
    count('queued') ? `${count('queued')} queued` : undefined,
    count('waiting for you') ? `${count('waiting for you')} waiting for you` : undefined,
    count('interrupted') ? `${count('interrupted')} interrupted` : undefined,
    fleet ? fleetTotalText(fleet) : total === undefined ? undefined : `${formatUsd(total)} total`,
  ];
  return parts.filter(Boolean).join(' · ');
}

/**
 * "$0.42 of $5.00 total", "12,300 tokens total", "$0.0017 and 1,540 of 1,500 tokens total": dollars once
 * anything priced was spent or a dollar cap is set, tokens when nothing had a price or a token cap is set.
 */
export function fleetTotalText({ spent, caps }: FleetTotal): string | undefined {
  const parts: string[] = [];
  if (spent.costUsd > 0 || caps.costUsd !== undefined)
    parts.push(`${formatUsd(spent.costUsd)}${caps.costUsd === undefined ? '' : ` of ${formatUsd(caps.costUsd)}`}`);
  if (caps.tokens !== undefined) parts.push(`${count(spent.tokens)} of ${count(caps.tokens)} tokens`);
  else if (!parts.length && spent.tokens > 0) parts.push(`${count(spent.tokens)} tokens`);
  return parts.length ? `${parts.join(' and ')} total` : undefined;
}

function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function formatUsd(usd: number): string {
  return usd < 0.01 && usd > 0 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
