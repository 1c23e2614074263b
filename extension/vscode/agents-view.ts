// The Agents view: every chat of this window — running, waiting for you, finished, failed, interrupted by
// a reload — with what it costs, and one click to open it, stop it or answer what waits. The wording and
// order come from core/sessions/agents-list.ts; this file makes tree items and commands of them.
import * as vscode from 'vscode';
import type { ChatController } from '../core/agent/controller';
import {
  AGENT_FILTERS,
  type AgentEntry,
  type AgentFilter,
  agentEntries,
  agentsSummary,
  type ListedSession,
  listedSessions,
} from '../core/sessions/agents-list';
import type { SessionHub } from '../core/sessions/session-hub';
import type { FleetBudget } from '../core/usage/fleet-budget';
import type { AgentsTree } from './agents-tree';

const FILTER_KEY = 'sextant.agents.filter';

/** A session row, or one thing waiting in it (a child row with inline Approve / Deny). */
export class AgentItem extends vscode.TreeItem {
  constructor(
    readonly entry: AgentEntry,
    readonly wait?: AgentEntry['waiting'][number],
  ) {
    super(
      wait ? wait.label : entry.label,
      !wait && entry.waiting.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    if (wait) {
      this.id = `wait:${wait.callId}`;
      this.contextValue = wait.kind === 'approval' ? 'sextant.agentApproval' : 'sextant.agentQuestion';
      this.tooltip = wait.detail;
      this.iconPath = new vscode.ThemeIcon(wait.kind === 'approval' ? 'shield' : 'question');
      this.accessibilityInformation = { label: `${wait.label}, waiting for you in ${entry.label}` };
      this.command = { command: 'sextant.agents.open', title: 'Open', arguments: [this] };
      return;
    }
    // A row that starts waiting is a new element to the tree, so it opens on what waits (the tree keeps a
    // known element's collapsed state, and a row without children was collapsed).
    this.id = `session:${entry.slotId ?? entry.sessionId}${entry.waiting.length ? ':waiting' : ''}`;
    this.description = entry.description;
    this.tooltip = entry.detail.join('\n');
    // `.worktree`: the row offers Merge Back… (package.json's menus match on it); every ended row offers
    // Create Branch and Pull Request.
    this.contextValue = `sextant.agent.${entry.state.replace(/ /g, '-')}${entry.worktree ? '.worktree' : ''}`;
    this.iconPath = new vscode.ThemeIcon(ICONS[entry.state] ?? 'comment-discussion');
    this.accessibilityInformation = { label: `${entry.label}, ${entry.description}` };
    this.command = { command: 'sextant.agents.open', title: 'Open', arguments: [this] };
  }
}

const ICONS: Record<string, string> = {
  running: 'sync~spin',
  queued: 'watch',
  'waiting for you': 'bell-dot',
  done: 'pass',
  failed: 'error',
  stopped: 'debug-stop',
  interrupted: 'debug-disconnect',
  idle: 'comment-discussion',
};

export interface AgentsViewHost {
  hub: SessionHub<ChatController>;
  tree: AgentsTree | undefined;
  memento: vscode.Memento;
  /** Sessions a reload or crash cut off (from the store), listed with Continue. */
  interrupted(): ListedSession[];
  showSlot(slotId: string): Promise<void>;
  /** Opens a listed session (ended or interrupted) in an editor tab. */
  openSession(sessionId: string): Promise<void>;
  /** Continue on an interrupted session. */
  continueSession?(sessionId: string): Promise<void>;
  /** The window's fleet: queued sessions, and the total spent against the total caps. */
  fleet?: FleetBudget;
  /** The worktree a session works in (worktree-chats.ts), if any. */
  worktreeOf?(sessionId: string): { branch: string; path: string } | undefined;
  /** Merge Back… of a worktree session (merge-back-review.ts). */
  mergeBack?(sessionId: string): Promise<void>;
}

export class AgentsView implements vscode.Disposable {
  private filter: AgentFilter;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private readonly unsubscribe: () => void;

  constructor(private readonly host: AgentsViewHost) {
    const saved = host.memento.get<string>(FILTER_KEY);
    this.filter = (AGENT_FILTERS as readonly string[]).includes(saved ?? '') ? (saved as AgentFilter) : 'all';
    const offHub = host.hub.onDidChange(() => this.update());
    // A slot taken or freed, spending reported: the queued rows and the total change.
    const offFleet = host.fleet?.onChange(() => this.update());
    this.unsubscribe = () => {
      offHub();
      offFleet?.();
    };
    this.update();
  }

  children(element?: vscode.TreeItem): vscode.TreeItem[] {
    if (element instanceof AgentItem)
      return element.wait ? [] : element.entry.waiting.map((w) => new AgentItem(element.entry, w));
    return agentEntries(this.listed(), this.filter, Date.now()).map((e) => new AgentItem(e));
  }

  /** Repaints the list, its badge and its summary; ticks the elapsed times while something runs. */
  update(): void {
    const listed = this.listed();
    const tree = this.host.tree;
    if (tree) {
      const waits = listed.reduce((n, s) => n + s.status.approvals.length + s.status.questions.length, 0);
      tree.view.badge = waits ? { value: waits, tooltip: `${waits} waiting for you` } : undefined;
      const fleet = this.host.fleet;
      const total = fleet ? { spent: fleet.spent(), caps: fleet.caps() } : undefined;
      tree.view.description = [this.filter === 'all' ? undefined : this.filter, agentsSummary(listed, total)]
        .filter(Boolean)
        .join(' · ');
      tree.refresh();
    }
    const running = listed.some((s) => s.status.state === 'running' || s.status.state === 'waiting');
    if (running && !this.ticker) this.ticker = setInterval(() => this.host.tree?.refresh(), 5_000);
    if (!running && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  async open(item: unknown): Promise<void> {
    const entry = entryOf(item);
    if (!entry) return;
    if (entry.slotId && this.host.hub.get(entry.slotId)) await this.host.showSlot(entry.slotId);
    else await this.host.openSession(entry.sessionId);
  }

  async stop(item: unknown): Promise<void> {
    const slot = this.slotOf(item);
    if (slot) await slot.controller.stop();
  }

  /** Approve or Deny on a waiting row: the row names the tool and what it touches; the tooltip the detail. */
  decide(item: unknown, decision: 'approve' | 'deny'): void {
    const slot = this.slotOf(item);
    const wait = item instanceof AgentItem ? item.wait : undefined;
    if (!slot || !wait || wait.kind !== 'approval') return;
    slot.controller.approve(wait.callId, decision === 'approve' ? { decision: 'approve' } : { decision: 'deny' });
  }

  async mergeBack(item: unknown): Promise<void> {
    const entry = entryOf(item);
    if (this.host.mergeBack) await this.host.mergeBack(entry?.sessionId ?? '');
  }

  /**
   * Create Branch and Pull Request on a row: for that row's session (a worktree session's own branch),
   * never the sidebar chat's — the palette's command acts on that one (git-host.ts).
   */
  async createPullRequest(item: unknown): Promise<void> {
    const entry = entryOf(item);
    if (entry) await vscode.commands.executeCommand('sextant.git.createPullRequest', { sessionId: entry.sessionId });
  }

  async continue(item: unknown): Promise<void> {
    const entry = entryOf(item);
    if (entry && this.host.continueSession) await this.host.continueSession(entry.sessionId);
  }

  async pickFilter(): Promise<void> {
    const pick = await vscode.window.showQuickPick(
      AGENT_FILTERS.map((f) => ({ label: f, picked: f === this.filter })),
      { title: 'Sextant: Show Agents that are…' },
    );
    if (!pick) return;
    this.filter = pick.label;
    await this.host.memento.update(FILTER_KEY, this.filter);
    this.update();
  }

  /** Forgets the ended sessions listed (history keeps them). */
  clearEnded(): void {
    this.host.hub.forgetEnded();
  }

  dispose(): void {
    this.unsubscribe();
    if (this.ticker) clearInterval(this.ticker);
  }

  private listed(): ListedSession[] {
    const queued = this.host.fleet?.queuedSessions();
    const live = this.host.hub.slots().map((s) => ({
      slotId: s.id,
      status: s.status,
      ...(s.folder ? { folder: s.folder } : {}),
      ...(queued?.has(s.controller.sessionId) ? { queued: true } : {}),
    }));
    const ended = this.host.hub.endedSessions().map((s) => ({ status: s, ...(s.folder ? { folder: s.folder } : {}) }));
    return listedSessions(live, ended, this.host.interrupted()).map((s) => {
      const wt = this.host.worktreeOf?.(s.status.sessionId);
      return wt ? { ...s, worktree: { branch: wt.branch, path: wt.path } } : s;
    });
  }

  private slotOf(item: unknown) {
    const entry = entryOf(item);
    return entry?.slotId ? this.host.hub.get(entry.slotId) : undefined;
  }
}

function entryOf(item: unknown): AgentEntry | undefined {
  return item instanceof AgentItem ? item.entry : undefined;
}
