// Custom slash commands: Markdown prompts in `.sextant/commands/`, `.claude/commands/` (workspace) and
// the same folders in the user's home, in Claude Code's format — frontmatter `description`,
// `argument-hint`, `model`, `allowed-tools`; `$ARGUMENTS` and `$1…$9` in the body; a subfolder is a
// namespace (`frontend/review.md` → `/frontend:review`). Sources are pluggable (MCP prompts add theirs).
import * as path from 'node:path';
import { fieldList, fieldText, parseFrontmatter } from './frontmatter';
import type { ProjectFiles } from './project-files';
import { commandFileHash } from './allowed-tools';

export { parseInvocation } from '../../protocol';

/** Workspace folders first, then the user's: the first command of a name wins. */
export const COMMAND_DIRS = ['.sextant/commands', '.claude/commands'] as const;
const COMMAND_MAX_BYTES = 256_000;
const MAX_DEPTH = 4;

export interface SlashCommand {
  /** Without the slash: `explain`, `frontend:review`, `mcp__server__prompt`. */
  name: string;
  description: string;
  argumentHint?: string;
  /** Where it comes from, shown in the menu: `.claude/commands`, `~/.sextant/commands`, `mcp: server`. */
  source: string;
  /** Runs this one request on that model (`provider/model` or a provider's name). */
  model?: string;
  /** Claude Code's `allowed-tools`: the tools this command may use (the request gets only these). */
  allowedTools?: string[];
  /** The prompt the command stands for, given what followed its name. */
  expand(args: string): Promise<string>;
  /**
   * A Markdown command: the prompt and its `allowed-tools` from one read of the file, with the file's
   * hash (a workspace file's pre-approval is bound to it) and whose file it is.
   */
  load?(args: string): Promise<LoadedCommand>;
}

export interface LoadedCommand {
  text: string;
  /** The file's frontmatter is broken (`line 3: …`): the command does not run, this says why. */
  problem?: string;
  allowedTools?: string[];
  file: string;
  scope: 'workspace' | 'user';
  hash: string;
}

/** A source of commands: the Markdown folders here, MCP prompts later. Listed on every use (cheap). */
export interface SlashCommandSource {
  list(): Promise<SlashCommand[]>;
}

export class SlashCommandRegistry {
  private readonly sources: SlashCommandSource[] = [];

  add(source: SlashCommandSource): void {
    this.sources.push(source);
  }

  /** Every command, by name, the first source's winning a clash (workspace before user before MCP). */
  async list(): Promise<SlashCommand[]> {
    const byName = new Map<string, SlashCommand>();
    for (const source of this.sources)
      for (const c of await source.list().catch(() => [])) if (!byName.has(c.name)) byName.set(c.name, c);
    return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  async find(name: string): Promise<SlashCommand | undefined> {
    return (await this.list()).find((c) => c.name === name);
  }
}

/**
 * Claude Code's templating: `$ARGUMENTS` is everything after the name, `$1…$9` the words of it (quotes
 * group words). A body with neither placeholder gets the arguments appended, so they are never lost.
 */
export function expandTemplate(body: string, args: string): string {
  const words = splitArguments(args);
  let used = false;
  const out = body.replace(/\$(ARGUMENTS|[1-9])/g, (_, key: string) => {
    used = true;
    return key === 'ARGUMENTS' ? args : (words[Number(key) - 1] ?? '');
  });
  return !used && args ? `${out.trimEnd()}\n\nARGUMENTS: ${args}` : out;
}

export function splitArguments(args: string): string[] {
  const out: string[] = [];
  for (const m of args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/** A folder of commands; `ns`: the namespace its commands are under (a plugin's name). */
export interface CommandDir {
  dir: string;
  label: string;
  ns?: string[];
}

/** The Markdown commands of one folder tree (e.g. the workspace's `.claude/commands`). */
export function markdownCommandSource(files: ProjectFiles, dirs: () => CommandDir[]) {
  return {
    async list(): Promise<SlashCommand[]> {
      const out: SlashCommand[] = [];
      for (const { dir, label, ns } of dirs()) {
        // A plugin's manifest may name one command file rather than a folder.
        if (dir.endsWith('.md')) await collectFile(files, dir, label, ns ?? [], out);
        else await collect(files, dir, label, ns ?? [], out);
      }
      return out;
    },
  } satisfies SlashCommandSource;
}

/**
 * The workspace's folders, then the user's home folders, in the order their commands win; then the
 * enabled plugins' (Claude Code's `/plugin-name:command`).
 */
export function commandDirs(files: ProjectFiles): CommandDir[] {
  const out: CommandDir[] = [];
  for (const root of files.roots()) for (const d of COMMAND_DIRS) out.push({ dir: path.join(root, d), label: d });
  const home = files.home();
  if (home) for (const d of COMMAND_DIRS) out.push({ dir: path.join(home, d), label: `~/${d}` });
  for (const p of files.plugins?.() ?? [])
    for (const dir of p.commands) out.push({ dir, label: `plugin ${p.name}`, ns: [p.name] });
  return out;
}

async function collectFile(files: ProjectFiles, abs: string, label: string, ns: string[], out: SlashCommand[]) {
  const base = path.basename(abs);
  const name = [...ns, base.slice(0, -3)].join(':');
  if (!/^[A-Za-z0-9_][\w.:-]*$/.test(name) || out.some((c) => c.name === name)) return;
  const read = await files.readText(abs, COMMAND_MAX_BYTES);
  if (read?.text === undefined) return;
  out.push(markdownCommand(name, read.text, abs, label, files, `${label}/${base}`));
}

async function collect(files: ProjectFiles, dir: string, label: string, ns: string[], out: SlashCommand[]) {
  if (ns.length > MAX_DEPTH) return;
  const entries = (await files.list(dir)).sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const abs = path.join(dir, e.name);
    if (e.type === 'directory') await collect(files, abs, label, [...ns, e.name], out);
    else if (e.name.endsWith('.md')) {
      const name = [...ns, e.name.slice(0, -3)].join(':');
      if (!/^[A-Za-z0-9_][\w.:-]*$/.test(name) || out.some((c) => c.name === name)) continue;
      const read = await files.readText(abs, COMMAND_MAX_BYTES);
      if (read?.text === undefined) continue;
      out.push(markdownCommand(name, read.text, abs, label, files, `${label}/${[...ns, e.name].join('/')}`));
    }
  }
}

/** `shown`: the file as the user finds it (`.claude/commands/frontend/review.md`), for problems. */
function markdownCommand(
  name: string,
  text: string,
  abs: string,
  label: string,
  files: ProjectFiles,
  shown: string,
): SlashCommand {
  const fm = parseFrontmatter(text);
  const firstLine =
    fm.body
      .split(/\r?\n/)
      .find((l) => l.trim())
      ?.trim() ?? '';
  const argumentHint = fieldText(fm, 'argument-hint');
  const model = fieldText(fm, 'model');
  const allowedTools = fieldList(fm, 'allowed-tools');
  const described = fieldText(fm, 'description') ?? firstLine.replace(/^#+\s*/, '').slice(0, 120);
  return {
    name,
    // A broken header is said in the menu, where the user looks for the command.
    description: fm.problem ? `Not loaded: ${shown}: ${fm.problem}` : described,
    source: label,
    ...(argumentHint ? { argumentHint } : {}),
    ...(model ? { model } : {}),
    ...(allowedTools ? { allowedTools } : {}),
    // Read again when used, so an edit since the menu was shown counts.
    async expand(args) {
      return (await this.load?.(args))?.text ?? '';
    },
    async load(args) {
      const now = (await files.readText(abs, COMMAND_MAX_BYTES))?.text ?? text;
      const fmNow = parseFrontmatter(now);
      const tools = fieldList(fmNow, 'allowed-tools');
      return {
        text: expandTemplate(fmNow.body.trim(), args),
        ...(fmNow.problem ? { problem: `${shown}: ${fmNow.problem}` } : {}),
        ...(tools?.length ? { allowedTools: tools } : {}),
        file: abs,
        scope: label.startsWith('~/') ? 'user' : 'workspace',
        hash: commandFileHash(now),
      };
    },
  };
}
