// What approving a change plan grants for the run it starts: edits of exactly the files the plan names
// and runs of exactly the commands it names — nothing else. The plan names them in fixed fields of
// submit_plan (`files[].path`, `commands[]`), and only entries of a strict shape are granted:
// - a file is a plain workspace-relative path (no `..`, no absolute or home path, no folder);
// - a command is one simple command of plain words (letters, digits and `_ @ % + = : , . / -`), so it has
//   no chain, pipe, redirection, quote, variable, glob or substitution for bash to expand: what the card
//   shows is exactly what may run. Anything else stays in the plan but is not granted (it asks).
// The host judges every use again with the permission policy (core/permissions/run-grant.ts); this file
// is shared with the webview, which shows the grant on the plan card.
import type { ChangePlanInput } from './plan';

export interface PlanGrant {
  /** Workspace-relative paths the run may edit without asking. */
  files: string[];
  /** Commands the run may run without asking, each exactly as written (runs of spaces as one). */
  commands: string[];
}

export interface ParsedPlanGrant extends PlanGrant {
  /** Entries the plan names that are not granted, with why. */
  left: Array<{ entry: string; why: string }>;
}

const MAX_FILES = 50;
const MAX_COMMANDS = 20;
/** A word of a granted command: nothing bash would expand, split or treat as an operator. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A plan's path as granted (`./src/a.ts` → `src/a.ts`), or why it cannot be. */
export function grantedPath(raw: string): string | { why: string } {
  const p = raw.trim();
  if (!p) return { why: 'empty' };
  if (p.length > 300) return { why: 'too long' };
  if (/[\u0000-\u001f\u007f\\`]/.test(p)) return { why: 'holds a control character, backslash or backquote' };
  if (p.startsWith('/') || p.startsWith('~') || /^[A-Za-z]:/.test(p)) return { why: 'not a workspace-relative path' };
  if (p.endsWith('/')) return { why: 'a folder, not a file' };
  const segments = p.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) return { why: 'leaves its folder with ..' };
  if (!segments.length) return { why: 'names no file' };
  return segments.join('/');
}

/** A plan's command as granted (spaces collapsed), or why it cannot be. */
export function grantedCommand(raw: string): string | { why: string } {
  const words = raw.trim().split(/[ \t]+/);
  if (!words[0]) return { why: 'empty' };
  if (raw.length > 200) return { why: 'too long' };
  if (!words.every((w) => PLAIN_WORD.test(w)))
    return { why: 'not one simple command of plain words (no ; | & > $ quotes or globs)' };
  if (words[0].includes('=')) return { why: 'starts with a variable assignment' };
  if (words[0].startsWith('-')) return { why: 'starts with an option, not a program' };
  return words.join(' ');
}

/** The grant a change plan asks for, parsed strictly from its `files` and `commands`. */
export function planGrantOf(plan: Pick<ChangePlanInput, 'files' | 'commands'>): ParsedPlanGrant {
  return collect(
    plan.files.map((f) => f.path),
    plan.commands ?? [],
  );
}

function collect(paths: readonly string[], commands: readonly string[]): ParsedPlanGrant {
  const out: ParsedPlanGrant = { files: [], commands: [], left: [] };
  for (const raw of paths) {
    const p = grantedPath(raw);
    if (typeof p !== 'string') out.left.push({ entry: raw, why: p.why });
    else if (out.files.length >= MAX_FILES) out.left.push({ entry: raw, why: `more than ${MAX_FILES} files` });
    else if (!out.files.includes(p)) out.files.push(p);
  }
  for (const raw of commands) {
    const c = grantedCommand(raw);
    if (typeof c !== 'string') out.left.push({ entry: raw, why: c.why });
    else if (out.commands.length >= MAX_COMMANDS)
      out.left.push({ entry: raw, why: `more than ${MAX_COMMANDS} commands` });
    else if (!out.commands.includes(c)) out.commands.push(c);
  }
  return out;
}

/**
 * The grant of a plan the user edited as Markdown: the `` - `path` `` items under "## Files" and the
 * `` - `command` `` items under "## Commands" (planToMarkdown's shape; any other line grants nothing).
 */
export function planGrantFromMarkdown(markdown: string): ParsedPlanGrant {
  const paths: string[] = [];
  const commands: string[] = [];
  let section = '';
  for (const line of markdown.split(/\r?\n/)) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      section = heading[1].trim().toLowerCase();
      continue;
    }
    if (section === 'files') {
      const m = /^- `([^`]+)`(?:\s+\u2014\s.*)?$/.exec(line.trimEnd());
      if (m) paths.push(m[1]);
    } else if (section === 'commands') {
      const m = /^- `([^`]+)`$/.exec(line.trimEnd());
      if (m) commands.push(m[1]);
    }
  }
  return collect(paths, commands);
}

/** What the card showed, narrowed to what the edited text still names: an edit never widens a grant. */
export function narrowGrant(shown: PlanGrant, edited: PlanGrant): PlanGrant {
  return {
    files: shown.files.filter((f) => edited.files.includes(f)),
    commands: shown.commands.filter((c) => edited.commands.includes(c)),
  };
}

export function isEmptyGrant(grant: PlanGrant): boolean {
  return grant.files.length === 0 && grant.commands.length === 0;
}

/** The card's sentence: "Approving lets the agent: edit a.ts, b.ts; run `npm test` — for this run only." */
export function planGrantText(grant: PlanGrant): string | undefined {
  if (isEmptyGrant(grant)) return undefined;
  const parts: string[] = [];
  if (grant.files.length) parts.push(`edit ${grant.files.join(', ')}`);
  if (grant.commands.length) parts.push(`run ${grant.commands.map((c) => `\`${c}\``).join(', ')}`);
  return `Approving lets the agent: ${parts.join('; ')} — without asking, for this run only.`;
}
