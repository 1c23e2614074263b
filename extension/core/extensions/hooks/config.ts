// Hooks in Claude Code's own settings shape, so a user's existing `.claude/settings.json` hooks work
// unchanged: `{"hooks": {"PreToolUse": [{"matcher": "Bash|Write", "hooks": [{"type": "command",
// "command": "…", "timeout": 60}]}]}}`. Read from the user's `sextant.hooks` setting (the value of
// "hooks") and from the workspace's `.sextant/settings.json`, `.claude/settings.json` and
// `.claude/settings.local.json`. A file that is not valid JSON, or whose "hooks" is not of this shape,
// is reported with the file's name (and line:column) and contributes no hooks at all.
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

const CommandHookSchema = z.object({
  type: z.literal('command'),
  command: z.string().min(1),
  /** Seconds. */
  timeout: z.number().positive().max(3600).optional(),
});

const MatcherGroupSchema = z.object({
  matcher: z.string().optional(),
  hooks: z.array(CommandHookSchema),
});

/** Events Claude Code has that Sextant does not fire (yet): accepted so a shared file is not refused. */
const OTHER_EVENTS = ['PostToolUseFailure'] as const;

export const HooksSchema = z
  .object(Object.fromEntries([...HOOK_EVENTS, ...OTHER_EVENTS].map((e) => [e, z.array(MatcherGroupSchema).optional()])))
  .strict();

export interface HookCommand {
  event: HookEvent;
  /** The group's matcher as written ("" and "*" match every tool). */
  matcher: string;
  command: string;
  timeoutS: number;
  /** Where it was configured: "user settings (sextant.hooks)" or a workspace file's path. */
  source: string;
  scope: 'user' | 'workspace';
}

export interface HookSource {
  hooks: HookCommand[];
  /** One line per problem, each naming the file. */
  problems: string[];
  /** The "hooks" value as written (for the approval's hash); absent when the file has none. */
  raw?: unknown;
}

function where(file: string, text: string, offset: number | undefined): string {
  if (offset === undefined) return file;
  const { line, column } = lineColumn(text, offset);
  return `${file}:${line}:${column}`;
}

/** The hooks of a parsed "hooks" value; `describe` names where a problem is. */
export function hooksFromValue(
  value: unknown,
  source: string,
  scope: HookCommand['scope'],
  describe: (path: ReadonlyArray<PropertyKey>) => string = () => source,
): HookSource {
  if (value === undefined || value === null) return { hooks: [], problems: [] };
  const checked = HooksSchema.safeParse(value);
  if (!checked.success) {
    const details = checked.error.issues.map((issue) => {
      const name = issue.path.length ? `"${pathText(issue.path)}" ` : '';
      return `${describe(issue.path)}: ${name}${issue.message}`;
    });
    return {
      hooks: [],
      problems: [
        `${details.join('; ')}. Expected Claude Code's shape {"PreToolUse": [{"matcher": "Bash", "hooks": ` +
          `[{"type": "command", "command": "…", "timeout": 60}]}]}; no hook of ${source} was used.`,
      ],
    };
  }
  const hooks: HookCommand[] = [];
  for (const event of HOOK_EVENTS) {
    for (const group of (checked.data[event] ?? []) as Array<z.infer<typeof MatcherGroupSchema>>) {
      for (const h of group.hooks) {
        hooks.push({
          event,
          matcher: group.matcher ?? '',
          command: h.command,
          timeoutS: h.timeout ?? DEFAULT_HOOK_TIMEOUT_S,
          source,
          scope,
        });
      }
    }
  }
  return { hooks, problems: [], raw: value };
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
export function workspaceHooksHash(hooks: readonly HookCommand[]): string {
  return sha256(stableJson(hooks.map((h) => ({ s: h.source, e: h.event, m: h.matcher, c: h.command, t: h.timeoutS }))));
}
