// The permission policy's public types (see policy/decide.ts).
import type { ToolKind } from '../../protocol';
import type { ToolFacts } from './tool-facts';

export type { ToolKind };

export type PermissionDecision = 'allow' | 'ask' | 'deny';

/**
 * Why: a user or workspace `rule`; the `default` for the mode; a `protected` path (always asks);
 * `confinement` (outside the workspace, or a secret location); `parse` (the call cannot be judged
 * with confidence — an unreadable command, a program only known at run time, …); `reviewer`: auto
 * mode's reviewer model allowed what only the default would have asked (core/agent/auto-review/); `plan`:
 * this run's grant (an approved plan's files and commands, an edit approved for the rest of the turn:
 * run-grant.ts).
 */
export type DecisionSource = 'rule' | 'default' | 'protected' | 'confinement' | 'parse' | 'hook' | 'reviewer' | 'plan';

export interface Decision {
  decision: PermissionDecision;
  /** Plain words for the approval card: "bash(npm test*) in your settings allows it". */
  reason: string;
  /** The rule(s) that decided, as written; several are joined by ", ". */
  rule?: string;
  source: DecisionSource;
}

/**
 * What a call no rule matches gets: `ask` (reads inside the workspace run, the rest asks),
 * `acceptEdits` (also writes inside the workspace and extraWriteRoots), `allow` (everything but
 * protected paths, writes outside the workspace, deny rules and commands that cannot be judged).
 * `auto` is `ask` to the policy; what would ask only because no rule covers it then goes to a
 * reviewer model (core/agent/auto-review/), never what the floor holds (floor.ts).
 */
export type DefaultMode = 'ask' | 'auto' | 'acceptEdits' | 'allow';

export type RuleList = 'allow' | 'ask' | 'deny';

/** `user`: the sextant.permissions.* settings; `workspace`: the folder's .sextant/settings.json. */
export type RuleSource = 'user' | 'workspace';

/** A setting the policy could not use, with what to do about it (for a warning in the UI or log). */
export interface RuleProblem {
  source: RuleSource;
  list: RuleList | 'defaultMode' | 'extraWriteRoots';
  /** The entry as written. */
  rule: string;
  message: string;
}

/** One source's lists, as read from settings (validated here, so any JSON will do). */
export interface PermissionSettings {
  allow?: readonly unknown[];
  ask?: readonly unknown[];
  deny?: readonly unknown[];
  defaultMode?: unknown;
}

export interface PolicyConfig {
  /** sextant.permissions.* (allow, ask, deny, defaultMode). */
  user?: PermissionSettings;
  /** .sextant/settings.json: may add ask and deny rules (its allow list is ignored) and a stricter mode. */
  workspace?: PermissionSettings;
  /** Real paths (symbolic links resolved) of the workspace folders; the first is where commands run. */
  workspaceFolders: readonly string[];
  /** The user's home directory (real path), for `~`. */
  home: string;
  /** sextant.sandbox.extraWriteRoots: absolute folders (or ~/…) writers may use like the workspace. */
  extraWriteRoots?: readonly unknown[];
  /**
   * The shell commands run in: `bash` (the default; Git Bash on Windows) is judged by the parser;
   * `powershell` (Windows without Git Bash) is not, so no rule and no mode allows a command there.
   */
  commandShell?: 'bash' | 'powershell';
  /** Every tool's declared permission facts (core/tools/registry.ts declaredToolFacts, MCP tools' too). */
  tools: readonly ToolFacts[];
}

/** One tool call, its arguments parsed. */
export interface PermissionCall {
  tool: string;
  input: Readonly<Record<string, unknown>>;
  /**
   * For file tools: the real absolute paths of the targets (in the order the tool's
   * `permission.paths` names them), symbolic links resolved by the caller (for a file that does not
   * exist yet, its deepest existing ancestor resolved). Without one the policy resolves the argument
   * lexically, which a symbolic link can fool.
   */
  realPaths?: ReadonlyArray<string | undefined>;
  /** The same for a tool with one path. */
  realPath?: string;
  /** For a tool the policy does not know: its kind. */
  kind?: ToolKind;
}
