// What the runtime bundle offers the activation bundle (commands, views, the URI handler).
import type * as vscode from 'vscode';
import type { ChatController } from '../core/agent/controller';
import type { SessionHub } from '../core/sessions/session-hub';
import type { AgentsView } from './agents-view';
import type { PluginPicks } from './plugins-picks';
import type { GitHost } from './git-host';

export interface Runtime {
  /** The sidebar's chat (palette commands act on it). */
  readonly controller: ChatController;
  /** Every live chat of this window (core/sessions). */
  hub: SessionHub<ChatController>;
  /** Commit messages in Source Control, branch and pull request, /review's comments (issue 41). */
  git: GitHost;
  /** A message from the sidebar's view. */
  handle(raw: unknown): Promise<void>;
  /** Sextant: New Chat in Editor (no id), or "Open in Editor" on a History entry. */
  openInEditor(sessionId?: string): Promise<void>;
  /** Sextant: New Chat in Worktree — a chat in its own git worktree on a new branch. */
  newChatInWorktree(): Promise<void>;
  /** Sextant: Merge Back Worktree… — a worktree session's reviewed merge back (picked from a list). */
  mergeBackWorktree(): Promise<void>;
  /** An editor-tab chat VS Code restored after a reload (its view state names the session). */
  restorePanel(panel: vscode.WebviewPanel, state: unknown): Promise<void>;
  /** Brings a slot's chat to the front: its tab, the sidebar, or a new tab. */
  showSlot(slotId: string): Promise<void>;
  /** The Agents view's items and actions. */
  agents: AgentsView;
  pickMode(): Promise<void>;
  pickModel(): Promise<void>;
  setApiKey(): Promise<void>;
  clearApiKey(): Promise<void>;
  setSearchApiKey(): Promise<void>;
  clearSearchApiKey(): Promise<void>;
  /** Sextant: Set Telemetry Headers… (the OTLP export's headers, to SecretStorage). */
  setTelemetryHeaders(): Promise<void>;
  exportSession(format?: 'markdown' | 'html' | 'json'): Promise<void>;
  /** Sextant: Show Storage — where history's disk space goes, and reclaiming it. */
  showStorage(): Promise<void>;
  /** Sextant: Show Usage — cost and tokens by day, model, mode, workspace, session and source. */
  showUsage(): Promise<void>;
  /** Runs Research (or Plan Research) on a question in the chat, switching its mode. */
  research(question: string, opts: { plan: boolean }): Promise<void>;
  /** A report of the current chat (the one named, else a pick among them) to a workspace file. */
  exportReport(reportId?: string, format?: 'markdown' | 'html' | 'json'): Promise<void>;
  /** A report's citation: the page's stored text in a read-only editor, the quote selected. */
  openSourceQuote(m: { reportId: string; n: number; start: number; end: number }): Promise<void>;
  showAuditLog(): Promise<void>;
  /** Sextant: MCP Servers — each server's state, tools, prompts and resources, and what to do with it. */
  showMcpServers(): Promise<void>;
  /** Sextant: Add MCP Server — to user settings or the workspace's .mcp.json. */
  addMcpServer(): Promise<void>;
  /** Sextant: Plugins, Add Plugin Marketplace…, Install Plugin… (Claude Code plugins). */
  plugins: Pick<PluginPicks, 'show' | 'addMarketplace' | 'install'>;
  /** The browser came back from an MCP server's OAuth sign-in (the URI handler). */
  mcpOAuthRedirect(params: URLSearchParams): void;
  /** "Sextant: Approve Change" / "Deny Change": the proposal shown in `target` (a diff's URI) or the active tab. */
  decideChange(decision: 'approve' | 'deny', target?: unknown): Promise<void>;
  dispose(): Promise<void>;
}
