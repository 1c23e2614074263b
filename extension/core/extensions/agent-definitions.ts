// Sub-agent definitions: Markdown files with Claude Code's frontmatter — `name`, `description`, `tools`
// (a comma-separated list such as `Read, Grep, Glob, Bash`; omitted: every tool the parent's mode has),
// `disallowedTools` (tools taken away from those, `Write, Edit, Bash` for a read-only reviewer),
// `model` (`inherit`, or a Sextant `provider/model`), and Sextant's optional `mode` (`plan`: read-only) —
// whose body is the sub-agent's system prompt. Read from the workspace's `.sextant/agents/` and
// `.claude/agents/`, then the user's `~/.sextant/agents/` and `~/.claude/agents/`, then the enabled
// plugins' `agents/` (a name found first wins), then the built-ins. A file with bad frontmatter is
// reported by name; the others still load.
import * as path from 'node:path';
import explorePrompt from '../../../prompts/subagent-explore.md';
import researcherPrompt from '../../../prompts/subagent-researcher.md';
import reviewerPrompt from '../../../prompts/subagent-reviewer.md';
import { type Frontmatter, fieldList, fieldText, parseFrontmatter } from './frontmatter';
import type { ProjectFiles } from './project-files';

export interface AgentDefinition {
  name: string;
  description: string;
  /** Sextant tool names it may use; undefined: all its mode's tools (still capped by the parent's mode). */
  tools?: string[];
  /**
   * Sextant tool names it may not use, whatever `tools` says (`disallowedTools`). An `mcp__server` entry
   * takes away every tool of that server.
   */
  disallowedTools?: string[];
  /** `provider/model`; undefined or `inherit`: the parent's model. */
  model?: string;
  /** `plan`: read-only tools only, whatever `tools` says. */
  mode?: 'plan' | 'agent';
  /**
   * `research`: the sub-agent is Research mode's loop (verified, cited report) rather than a model with
   * tools — the built-in `researcher` only; a file cannot ask for it.
   */
  runs?: 'research';
  /** The system prompt (the file's body). */
  prompt: string;
  /** Where it came from: `built-in`, `.claude/agents/x.md`, `~/.sextant/agents/y.md`. */
  source: string;
}

export interface AgentDefinitionProblem {
  /** The file, as the user finds it (`.sextant/agents/bad.md`). */
  file: string;
  message: string;
}

export const WORKSPACE_AGENT_DIRS = ['.sextant/agents', '.claude/agents'] as const;
export const USER_AGENT_DIRS = ['.sextant/agents', '.claude/agents'] as const;
const AGENT_MAX_BYTES = 256_000;
const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * Claude Code's tool names → Sextant's. A name not in this table is taken as a Sextant (or MCP) tool
 * name as written, so `read_file` works as well as `Read`.
 */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, readonly string[]>> = {
  Read: ['read_file'],
  Write: ['write_file'],
  Edit: ['edit_file'],
  MultiEdit: ['multi_edit'],
  NotebookEdit: ['notebook_edit'],
  Glob: ['glob'],
  Grep: ['grep'],
  LS: ['ls'],
  Bash: ['bash', 'bash_output', 'kill_shell'],
  BashOutput: ['bash_output'],
  KillShell: ['kill_shell'],
  WebFetch: ['web_fetch'],
  WebSearch: ['web_search'],
  TodoWrite: ['todo_write'],
  Task: ['task'],
  Agent: ['task'],
};

/**
 * What `disallowedTools` takes away, where it is more than toolNamesOf's: taking away one tool that
 * changes files takes away every tool that does (a reviewer told "no Write, no Edit" must not keep
 * multi_edit or rename) — a deny-list errs towards less.
 */
const FILE_CHANGERS = ['write_file', 'edit_file', 'multi_edit', 'notebook_edit', 'rename'];
const DISALLOW_ALSO: Readonly<Record<string, readonly string[]>> = {
  Write: FILE_CHANGERS,
  Edit: FILE_CHANGERS,
  MultiEdit: FILE_CHANGERS,
  write_file: FILE_CHANGERS,
  edit_file: FILE_CHANGERS,
  multi_edit: FILE_CHANGERS,
  bash: CLAUDE_TOOL_NAMES.Bash,
};

/**
 * `disallowedTools` → Sextant tool names. An entry with a pattern (`Bash(git push:*)`) takes away the
 * whole tool: a sub-agent's tool list cannot be narrower than a tool.
 */
export function disallowedToolNamesOf(list: readonly string[]): string[] {
  const out = new Set(toolNamesOf(list));
  for (const raw of list) {
    const name = raw.replace(/\(.*\)$/s, '').trim();
    for (const n of DISALLOW_ALSO[name] ?? []) out.add(n);
  }
  return [...out];
}

/** A list field by its Claude Code name (`disallowedTools`), whichever case the frontmatter keeps keys in. */
function listField(fm: Frontmatter, name: string): string[] | undefined {
  const key = name.toLowerCase() in fm.fields ? name.toLowerCase() : name;
  return fm.fields[key] === undefined ? undefined : (fieldList(fm, key) ?? []);
}

/** `Read, Grep, Bash(git diff:*)` → Sextant tool names (a rule's pattern is for permissions, not here). */
export function toolNamesOf(list: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of list) {
    const name = raw.replace(/\(.*\)$/s, '').trim();
    if (!name) continue;
    for (const n of CLAUDE_TOOL_NAMES[name] ?? [name]) out.add(n);
  }
  return [...out];
}

export const BUILTIN_AGENTS: readonly AgentDefinition[] = [
  {
    name: 'explore',
    description:
      'Searches the codebase read-only (glob, grep, read) and reports what it found with path:line ' +
      'references. Use it to answer "where is X / how does Y work" without filling your own context.',
    tools: toolNamesOf(['Read', 'Grep', 'Glob', 'LS']),
    mode: 'plan',
    prompt: explorePrompt.trim(),
    source: 'built-in',
  },
  {
    name: 'researcher',
    description:
      'Answers a question from the web (search and read pages) and reports with a citation for every ' +
      'fact. Use it for documentation, APIs, versions and anything outside the workspace.',
    tools: toolNamesOf(['WebSearch', 'WebFetch']),
    mode: 'plan',
    runs: 'research',
    prompt: researcherPrompt.trim(),
    source: 'built-in',
  },
  {
    name: 'reviewer',
    description:
      'Reviews a diff (given in the prompt) read-only, with a security pass, and reports findings as ' +
      '`path:line` with a severity. Use it after making changes, or for /review.',
    tools: toolNamesOf(['Read', 'Grep', 'Glob', 'LS']),
    mode: 'plan',
    prompt: reviewerPrompt.trim(),
    source: 'built-in',
  },
];

/** Parses one definition file; a problem names the file and says what to write instead. */
export function parseAgentDefinition(
  text: string,
  file: string,
): { ok: true; agent: AgentDefinition } | { ok: false; problem: AgentDefinitionProblem } {
  const fail = (message: string) => ({ ok: false as const, problem: { file, message: `${file}: ${message}` } });
  if (!/^\uFEFF?---[ \t]*\r?\n/.test(text))
    return fail('no frontmatter: start the file with a --- block holding name and description');
  const fm = parseFrontmatter(text);
  if (fm.body === text) return fail('the frontmatter is not closed: end it with a line holding ---');
  if (fm.problem) return fail(`the frontmatter is not valid YAML: ${fm.problem}`);
  const name = fieldText(fm, 'name');
  if (!name) return fail('the frontmatter has no "name"');
  if (!NAME.test(name))
    return fail(`"name: ${name}" must be lower-case letters, digits, - and _ (at most 64 characters)`);
  const description = fieldText(fm, 'description');
  if (!description) return fail('the frontmatter has no "description" (it tells the agent when to delegate)');
  const mode = fieldText(fm, 'mode');
  if (mode !== undefined && mode !== 'plan' && mode !== 'agent')
    return fail(`"mode: ${mode}" must be plan (read-only) or agent`);
  const model = fieldText(fm, 'model');
  const tools = fm.fields.tools === undefined ? undefined : toolNamesOf(fieldList(fm, 'tools') ?? []);
  const disallowed = listField(fm, 'disallowedTools');
  const disallowedTools = disallowed?.length ? disallowedToolNamesOf(disallowed) : undefined;
  const prompt = fm.body.trim();
  if (!prompt) return fail('the body (the sub-agent\u2019s instructions) is empty');
  return {
    ok: true,
    agent: {
      name,
      description: description.replace(/\s+/g, ' ').trim(),
      ...(tools ? { tools } : {}),
      ...(disallowedTools ? { disallowedTools } : {}),
      ...(model && model !== 'inherit' ? { model } : {}),
      ...(mode ? { mode } : {}),
      prompt,
      source: file,
    },
  };
}

export interface DiscoveredAgents {
  agents: AgentDefinition[];
  problems: AgentDefinitionProblem[];
}

/** Every definition the workspace, the user and Sextant bring; the first of a name wins. */
export async function discoverAgents(files: ProjectFiles): Promise<DiscoveredAgents> {
  const found = new Map<string, AgentDefinition>();
  const problems: AgentDefinitionProblem[] = [];
  const places: Array<{ base: string; label: string }> = [];
  for (const root of files.roots())
    for (const d of WORKSPACE_AGENT_DIRS) places.push({ base: path.join(root, d), label: d });
  const home = files.home();
  if (home) for (const d of USER_AGENT_DIRS) places.push({ base: path.join(home, d), label: `~/${d}` });
  // The enabled plugins' agents come after the user's (a plugin never shadows your own definition).
  const single: Array<{ base: string; label: string; only?: string }> = [];
  for (const p of files.plugins?.() ?? [])
    for (const dir of p.agents)
      single.push(
        dir.endsWith('.md')
          ? { base: path.dirname(dir), label: `plugin ${p.name}`, only: path.basename(dir) }
          : { base: dir, label: `plugin ${p.name}/${path.relative(p.root, dir)}` },
      );
  for (const place of [...places, ...single]) {
    const only = 'only' in place ? place.only : undefined;
    const entries = (await files.list(place.base)).filter(
      (e) => e.type !== 'directory' && e.name.endsWith('.md') && (!only || e.name === only),
    );
    for (const name of entries.map((e) => e.name).sort()) {
      const file = `${place.label}/${name}`;
      const read = await files.readText(path.join(place.base, name), AGENT_MAX_BYTES);
      if (!read?.text) {
        if (read?.refused) problems.push({ file, message: `${file}: ${read.refused}` });
        else if (read) problems.push({ file, message: `${file}: larger than ${AGENT_MAX_BYTES / 1000} KB, not read` });
        continue;
      }
      const parsed = parseAgentDefinition(read.text, file);
      if (!parsed.ok) problems.push(parsed.problem);
      else if (!found.has(parsed.agent.name)) found.set(parsed.agent.name, parsed.agent);
    }
  }
  for (const b of BUILTIN_AGENTS) if (!found.has(b.name)) found.set(b.name, b);
  return { agents: [...found.values()], problems };
}
