// Hooks in Claude Code's own settings shape, so a user's existing `.claude/settings.json` hooks work
// unchanged: `{"hooks": {"PreToolUse": [{"matcher": "Bash|Write", "hooks": [{"type": "command",
// "command": "…", "timeout": 60}]}]}}`. Read from the user's `sextant.hooks` setting (the value of
// "hooks") and from the workspace's `.sextant/settings.json`, `.claude/settings.json` and
// `.claude/settings.local.json`. A file that is not valid JSON contributes no hooks (reported with its
// name and line:column); within a readable file, what is not understood is ignored entry by entry.
import * as z from 'zod';
import { lineColumn, offsetNear, parseJsonc, pathText } from '../../config/jsonc';
import { sha256, stableJson } from '../../mcp/server-spec';

export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'UserPromptSubmit',
  'SessionStart',
  'Stop',
  'PreCompact',
  'Notification',
  'SubagentStop',
  'SessionEnd',
  'PermissionRequest',
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** The workspace files hooks are read from, in the order they are listed on the approval card. */
export const WORKSPACE_HOOK_FILES = ['.sextant/settings.json', '.claude/settings.json', '.claude/settings.local.json'];

/** Claude Code's default: a hook may run for 60 seconds. */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

const CommandHookSchema = z
  .object({
    type: z.literal('command'),
    command: z.string().min(1),
    /** Seconds. */
    timeout: z.number().positive().max(3600).optional(),
    /** Claude Code's permission rule that scopes the hook (`Bash(git status*)`): hook-condition.ts. */
    if: z.string().optional(),
  })
  // Fields Claude Code has and Sextant does not use (`async`, `statusMessage`, …) do not refuse the hook.
  .loose();

const MatcherGroupShape = z.object({ matcher: z.string().optional(), hooks: z.array(z.unknown()) }).loose();

/** Events Claude Code has that Sextant does not fire (yet): their hooks are reported and ignored. */
const OTHER_EVENTS = new Set(['PostToolUseFailure', 'SubagentStart', 'PostCompact', 'PermissionDenied']);

export interface HookCommand {
  event: HookEvent;
  /** The group's matcher as written ("" and "*" match every tool). */
  matcher: string;
  command: string;
  timeoutS: number;
  /** Claude Code's `if` as written: the hook runs only for tool calls the rule matches. */
  if?: string;
  /** Where it was configured: "user settings (sextant.hooks)" or a workspace file's path. */
  source: string;
  scope: 'user' | 'workspace';
  /** A plugin's hook: the plugin's name, and the digest of its installed files (the approval binds it). */
  plugin?: string;
  pluginDigest?: string;
}

export interface HookSource {
  hooks: HookCommand[];
  /** One line per problem, each naming the file: what was ignored, entry by entry, and why. */
  problems: string[];
  /** The "hooks" value as written (for the approval's hash); absent when the file has none. */
  raw?: unknown;
}

function where(file: string, text: string, offset: number | undefined): string {
  if (offset === undefined) return file;
  const { line, column } = lineColumn(text, offset);
  return `${file}:${line}:${column}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const SHAPE = '{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "…", "timeout": 60}]}]}';

/**
 * The hooks of a parsed "hooks" value; `describe` names where a problem is. What is not understood — an
 * event Sextant does not fire, a hook type other than "command", a malformed entry — is ignored and
 * reported entry by entry: a new neighbour never drops the guards beside it.
 */
export function hooksFromValue(
  value: unknown,
  source: string,
  scope: HookCommand['scope'],
  describe: (path: ReadonlyArray<PropertyKey>) => string = () => source,
): HookSource {
  if (value === undefined || value === null) return { hooks: [], problems: [] };
  if (!isObject(value))
    return {
      hooks: [],
      problems: [`${describe([])}: "hooks" must be an object like ${SHAPE}; no hook of ${source} was used.`],
    };
  const hooks: HookCommand[] = [];
  const problems: string[] = [];
  const events = new Set<string>(HOOK_EVENTS);
  for (const [event, groups] of Object.entries(value)) {
    const at = (...path: PropertyKey[]) => describe([event, ...path]);
    const count = Array.isArray(groups)
      ? groups.reduce((n: number, g) => n + (isObject(g) && Array.isArray(g.hooks) ? g.hooks.length : 0), 0)
      : 0;
    if (!events.has(event)) {
      const what = OTHER_EVENTS.has(event) ? 'a Claude Code event Sextant does not fire' : 'not an event Sextant knows';
      problems.push(`${at()}: "${event}" is ${what}; its ${count} hook${count === 1 ? '' : 's'} ignored.`);
      continue;
    }
    if (!Array.isArray(groups)) {
      problems.push(`${at()}: "${event}" must be a list of {"matcher", "hooks"} groups; ignored.`);
      continue;
    }
    groups.forEach((group, g) => {
      const shaped = MatcherGroupShape.safeParse(group);
      if (!shaped.success) {
        problems.push(`${at(g)}: "${event}[${g}]" must be {"matcher": "…", "hooks": [ … ]}; ignored.`);
        return;
      }
      shaped.data.hooks.forEach((entry, i) => {
        const name = `"${event}[${g}].hooks[${i}]"`;
        const type = isObject(entry) ? entry.type : undefined;
        if (typeof type === 'string' && type !== 'command') {
          problems.push(
            `${at(g, 'hooks', i)}: ${name} is a "${type}" hook; Sextant runs "command" hooks only, so it is ignored.`,
          );
          return;
        }
        const checked = CommandHookSchema.safeParse(entry);
        if (!checked.success) {
          const why = checked.error.issues.map((x) => `${x.path.length ? `"${pathText(x.path)}" ` : ''}${x.message}`);
          problems.push(
            `${at(g, 'hooks', i)}: ${name} ${why.join('; ')} (expected {"type": "command", "command": "…"}); ignored.`,
          );
          return;
        }
        const h = checked.data;
        hooks.push({
          event: event as HookEvent,
          matcher: shaped.data.matcher ?? '',
          command: h.command,
          timeoutS: h.timeout ?? DEFAULT_HOOK_TIMEOUT_S,
          ...(h.if !== undefined ? { if: h.if } : {}),
          source,
          scope,
        });
      });
    });
  }
  return { hooks, problems, raw: value };
}

/** The hooks of one workspace settings file's text (missing or empty: none). Never throws. */
export function parseHooksFile(text: string, file: string): HookSource {
  if (!text.trim()) return { hooks: [], problems: [] };
  const parsed = parseJsonc(text);
  if (!parsed.ok) {
    return {
      hooks: [],
      problems: [`${where(file, text, parsed.offset)}: not valid JSON (${parsed.message}); its hooks were not used.`],
    };
  }
  if (!parsed.value || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) {
    return { hooks: [], problems: [`${file}: expected a JSON object; its hooks were not used.`] };
  }
  const value = (parsed.value as Record<string, unknown>).hooks;
  return hooksFromValue(value, file, 'workspace', (path) =>
    where(file, text, offsetNear(parsed.offsetOf, ['hooks', ...path])),
  );
}

/**
 * What the user approves for a workspace: every workspace hook, with its file. Any change to any of
 * them — a command, a matcher, a timeout, a file added — gives another hash, and so asks again.
 */
export function workspaceHooksHash(
  hooks: readonly HookCommand[],
  /** The digest of the workspace scripts a hook's command runs (hook-scripts.ts): an edit asks again. */
  scripts: (hook: HookCommand) => string = () => '',
): string {
  return sha256(
    stableJson(
      hooks.map((h) => ({
        s: h.source,
        e: h.event,
        m: h.matcher,
        c: h.command,
        t: h.timeoutS,
        i: h.if ?? null,
        x: scripts(h),
        // Absent for the workspace's own hooks, so their hashes (and approvals) are what they were.
        p: h.pluginDigest,
      })),
    ),
  );
}
