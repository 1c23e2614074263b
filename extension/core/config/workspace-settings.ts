// The workspace's own Sextant file, `.sextant/settings.json` in the first workspace folder. A
// repository may commit it, so it may only tighten what the user allows: it adds `ask` and `deny`
// permission rules and may ask for a stricter `defaultMode` (the policy keeps the stricter of the
// user's and the workspace's). An `allow` list is reported and ignored. A file that is not valid
// JSON (comments allowed) or not of this shape is reported with its line and column and ignored
// whole: half of a deny list is worse than a clear "your file was not used".
import * as z from 'zod';
import { quotedName } from '../security/plain-text';
import { lineColumn, offsetNear, parseJsonc, pathText } from './jsonc';

export const WORKSPACE_SETTINGS_PATH = '.sextant/settings.json';

export const WorkspaceModeSchema = z.enum(['ask', 'acceptEdits', 'allow']);
export type WorkspaceMode = z.infer<typeof WorkspaceModeSchema>;

const RuleList = z.array(z.string());

const PermissionsSchema = z.object({
  ask: RuleList.optional(),
  deny: RuleList.optional(),
  // Read only to report that it was ignored.
  allow: z.unknown().optional(),
  defaultMode: WorkspaceModeSchema.optional(),
});

const FileSchema = z.object({ permissions: PermissionsSchema.optional() });

// `hooks` is read by core/extensions/hooks/config.ts (and runs only once the user approved it).
const KNOWN_TOP = new Set(['permissions', '$schema', 'hooks']);
const KNOWN_PERMISSIONS = new Set(['ask', 'deny', 'allow', 'defaultMode']);

export interface WorkspacePermissions {
  ask: string[];
  deny: string[];
  defaultMode?: WorkspaceMode;
}

export interface WorkspaceSettings {
  /** Absent when the file is missing, empty of permissions, or was ignored. */
  permissions?: WorkspacePermissions;
  /** One line per problem, each naming the file (and line:column where there is one). */
  problems: string[];
}

function where(file: string, text: string, offset: number | undefined): string {
  if (offset === undefined) return file;
  const { line, column } = lineColumn(text, offset);
  return `${file}:${line}:${column}`;
}

/**
 * Parses the text of `.sextant/settings.json`. Never throws; `file` is the name used in the
 * problems (the workspace-relative path by default).
 */
export function parseWorkspaceSettings(text: string, file = WORKSPACE_SETTINGS_PATH): WorkspaceSettings {
  if (!text.trim()) return { problems: [] };
  const parsed = parseJsonc(text);
  if (!parsed.ok) {
    return {
      problems: [`${where(file, text, parsed.offset)}: not valid JSON (${parsed.message}); the file was ignored.`],
    };
  }
  const checked = FileSchema.safeParse(parsed.value);
  if (!checked.success) {
    const details = checked.error.issues.map((issue) => {
      const at = where(file, text, offsetNear(parsed.offsetOf, issue.path));
      const name = issue.path.length ? `${quotedName(pathText(issue.path))} ` : '';
      return `${at}: ${name}${issue.message}`;
    });
    return {
      problems: [
        `${details.join('; ')}. Expected {"permissions": {"ask": [rules], "deny": [rules], ` +
          `"defaultMode": "ask" | "acceptEdits" | "allow"}}; the file was ignored.`,
      ],
    };
  }
  const problems: string[] = [];
  const value = parsed.value as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    if (!KNOWN_TOP.has(key))
      problems.push(`${where(file, text, parsed.offsetOf([key]))}: unknown setting ${quotedName(key)} was ignored.`);
  }
  const p = checked.data.permissions;
  if (!p) return { problems };
  const rawPermissions = value.permissions as Record<string, unknown>;
  for (const key of Object.keys(rawPermissions)) {
    if (!KNOWN_PERMISSIONS.has(key))
      problems.push(
        `${where(file, text, parsed.offsetOf(['permissions', key]))}: ` +
          `unknown setting ${quotedName(`permissions.${key}`)} was ignored.`,
      );
  }
  if (p.allow !== undefined) {
    problems.push(
      `${where(file, text, parsed.offsetOf(['permissions', 'allow']))}: "permissions.allow" was ignored: a ` +
        'workspace may only add ask and deny rules, so a cloned repository cannot grant itself permissions. ' +
        'Put allow rules in your user settings (sextant.permissions.allow).',
    );
  }
  const permissions: WorkspacePermissions = { ask: p.ask ?? [], deny: p.deny ?? [] };
  if (p.defaultMode) permissions.defaultMode = p.defaultMode;
  return { permissions, problems };
}
