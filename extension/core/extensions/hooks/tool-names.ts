// Claude Code's tool names and ours. A hook written for Claude Code matches "Bash" or "Edit|Write" and
// reads `tool_name == "Bash"`; Sextant's tools are `bash`, `edit_file`, `write_file`. So a hook sees the
// Claude Code name where one exists (MCP tools are `mcp__<server>__<tool>` in both), and a matcher is
// tried against both names: "Bash", "bash" and "Edit|write_file" all work.

const CLAUDE_NAMES: Record<string, string> = {
  bash: 'Bash',
  bash_output: 'BashOutput',
  kill_shell: 'KillShell',
  read_file: 'Read',
  write_file: 'Write',
  edit_file: 'Edit',
  multi_edit: 'MultiEdit',
  notebook_edit: 'NotebookEdit',
  glob: 'Glob',
  grep: 'Grep',
  ls: 'LS',
  web_fetch: 'WebFetch',
  web_search: 'WebSearch',
  task: 'Task',
  todo_write: 'TodoWrite',
};

/** The name a Claude Code hook knows a tool by (ours where Claude Code has none). */
export function claudeToolName(tool: string): string {
  return CLAUDE_NAMES[tool] ?? tool;
}

/**
 * Claude Code's matcher rules: empty or "*" matches every tool; otherwise the matcher is a regular
 * expression that must match the whole name ("Write" is exactly Write, "Notebook.*" any Notebook tool,
 * "mcp__github__.*" one server's tools). A matcher that is not a valid expression matches as plain text.
 */
export function matcherMatches(matcher: string, tool: string): boolean {
  const m = matcher.trim();
  if (m === '' || m === '*') return true;
  const names = [tool, claudeToolName(tool)];
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${m})$`);
  } catch {
    return names.includes(m);
  }
  return names.some((n) => re.test(n));
}
