// What a host gives the engine and what it gets back: the engine's interface, apart from how it is
// composed (engine.ts). The command line (extension/cli) and the ACP server implement EngineHost.
import type { Mode, Outbound, PendingApproval, PendingQuestion, Usage } from '../protocol';
import type { ChatController } from '../core/agent/controller';
import type { LanguagePort } from '../core/language/types';
import type {
  ApprovalDecision,
  AskAnswer,
  Logger,
  SearchPort,
  SecretsPort,
  TerminalPort,
  WorkspacePort,
} from '../core/ports';
import type { KeyDestinationAnswer, KeyDestinationQuestion } from '../core/providers/key-binding';
import type { FleetBudget } from '../core/usage/fleet-budget';
import type { SettingsSource } from './settings';
import type { KeyValueState } from './state';

/** What a host gives the engine. Everything is read on use, so a host may change it between prompts. */
export interface EngineHost {
  log: Logger;
  settings: SettingsSource;
  secrets: SecretsPort;
  /** The environment keys are read from (`apiKeyEnv`) and commands inherit (scrubbed). */
  env: Record<string, string | undefined>;
  /** The workspace folders (absolute); the first is where commands run. */
  workspaceFolders: string[];
  /** Where sessions, checkpoints and the audit log are kept. */
  storageDir: string;
  /** The folder the engine's other bundles sit in (provider SDKs, workers, sql-wasm.wasm). */
  bundleDir: string;
  ports: { workspace: WorkspacePort; search: SearchPort; terminal: TerminalPort; language?: LanguagePort };
  globalState: KeyValueState;
  workspaceState: KeyValueState;
  /**
   * Whether the workspace's own MCP servers (`.mcp.json`) and hooks may run. In VS Code they also need
   * the user's approval on their card; a host without cards approves them all when this is true.
   */
  trustWorkspace: boolean;
  /** Every message the webview would get (snapshots, request events, MCP and hook states). */
  post(message: Outbound): void;
  /** An approval card: the host's answer (a non-interactive host denies). */
  approve(approval: PendingApproval): Promise<ApprovalDecision>;
  /** An ask_user form: the host's answers, or undefined to refuse it. */
  answer?(question: PendingQuestion): Promise<AskAnswer[] | undefined>;
  /** Before a key goes to a host it was not stored for (a non-interactive host refuses). */
  confirmKeyDestination(q: KeyDestinationQuestion): Promise<KeyDestinationAnswer>;
  /** Limits shared with the host's other engines (fleet-budget.ts); without it the engine has its own. */
  fleet?: FleetBudget;
}

/** How one prompt ended. */
export interface PromptOutcome {
  requestId: string;
  sessionId: string;
  end: 'complete' | 'aborted' | 'error' | 'budget';
  /** The final answer's text (the assistant's text of this request). */
  text: string;
  /** Approvals the host refused (each was reported in the events and never run). */
  refused: PendingApproval[];
  /** Tokens and cost of the request, as last reported. */
  usage?: Usage;
  error?: string;
}

export interface Engine {
  readonly controller: ChatController;
  /** Runs one request on the current session and resolves when it ended. */
  prompt(text: string, opts?: { mode?: Mode; model?: string }): Promise<PromptOutcome>;
  /** Stops the running request (its partial answer is kept). */
  cancel(): Promise<void>;
  /** Makes a stored session current; false when there is none with that id. */
  resume(sessionId: string): Promise<boolean>;
  /** The newest stored session of this workspace, if any. */
  latestSessionId(): Promise<string | undefined>;
  sessionId(): string;
  /** Why a request on this model could not start (no such provider, no key), or undefined. */
  modelProblem(ref?: string): string | undefined;
  /** The exact key values the engine holds (live): whatever the host prints is redacted of them. */
  knownSecrets(): ReadonlySet<string>;
  dispose(): Promise<void>;
}
