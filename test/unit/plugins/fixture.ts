// Plugin folders written in Claude Code's own format (as a public plugin would ship them), a marketplace
// listing them in a real git repository, and a PluginManager over in-memory state — shared by the
// plugin tests. Storage sits under a path with spaces: `${CLAUDE_PLUGIN_ROOT}` must survive it.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { systemGit } from '../../../extension/core/plugins/git';
import { PluginManager } from '../../../extension/core/plugins/plugin-manager';
import { memoryStore, stdioServerFile } from '../mcp/harness';

export function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 't@example.com',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: cwd,
    },
  });
}

export function commitAll(repo: string, message: string): void {
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', message);
}

/** The hook command of lint-kit: runs its script through `${CLAUDE_PLUGIN_ROOT}`, quoted as Claude Code's docs do. */
export const HOOK_COMMAND = '"${CLAUDE_PLUGIN_ROOT}/scripts/on-bash.sh"';

/**
 * lint-kit: one command, one agent, one skill, one PreToolUse hook (appends to $PLUGIN_HOOK_MARKER)
 * and one stdio MCP server (our test server on the real SDK, writing `started` into `markerDir`).
 */
export async function writeLintKit(dir: string, markerDir: string, version = '1.0.0'): Promise<void> {
  write(
    join(dir, '.claude-plugin/plugin.json'),
    JSON.stringify(
      { name: 'lint-kit', version, description: 'Lint helpers', author: { name: 'Team', email: 't@example.com' } },
      null,
      2,
    ),
  );
  write(
    join(dir, 'commands/check.md'),
    '---\ndescription: Check a file for lint\nargument-hint: <file>\n---\nCheck $ARGUMENTS for lint problems.\n',
  );
  write(
    join(dir, 'agents/linter.md'),
    '---\nname: linter\ndescription: Reviews code for lint problems\ntools: Read, Grep\n---\nYou are a linter.\n',
  );
  write(
    join(dir, 'skills/style-guide/SKILL.md'),
    '---\nname: style-guide\ndescription: The team style guide\n---\nUse two spaces.\n',
  );
  write(
    join(dir, 'hooks/hooks.json'),
    JSON.stringify(
      {
        description: 'Logs every Bash call',
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: HOOK_COMMAND }] }] },
      },
      null,
      2,
    ),
  );
  write(join(dir, 'scripts/on-bash.sh'), '#!/bin/bash\necho "ran" >> "$PLUGIN_HOOK_MARKER"\n');
  chmodSync(join(dir, 'scripts/on-bash.sh'), 0o755);
  mkdirSync(join(dir, 'server'), { recursive: true });
  copyFileSync(await stdioServerFile(), join(dir, 'server/notes-server.cjs'));
  write(
    join(dir, '.mcp.json'),
    JSON.stringify(
      {
        mcpServers: {
          notes: {
            command: process.execPath,
            args: ['${CLAUDE_PLUGIN_ROOT}/server/notes-server.cjs'],
            env: { MARKER_DIR: markerDir, NOTES_DIR: join(markerDir, 'notes') },
          },
        },
      },
      null,
      2,
    ),
  );
}

/** docs-kit: commands only (a plugin.json that names an extra command file besides commands/). */
export function writeDocsKit(dir: string): void {
  write(
    join(dir, '.claude-plugin/plugin.json'),
    JSON.stringify({ name: 'docs-kit', version: '0.1.0', commands: ['./extra/publish.md'] }, null, 2),
  );
  write(join(dir, 'commands/outline.md'), '---\ndescription: Outline a document\n---\nOutline $1.\n');
  write(join(dir, 'extra/publish.md'), '---\ndescription: Publish the docs\n---\nPublish them.\n');
}

export interface World {
  base: string;
  repo: string;
  markerDir: string;
  hookMarker: string;
  workspace: string;
  home: string;
  manager: PluginManager;
}

/** A marketplace `team-tools` in a git repository listing lint-kit and docs-kit; a manager to use it. */
export async function world(): Promise<World> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'plugins test-')));
  const repo = join(base, 'repo');
  const markerDir = join(base, 'markers');
  mkdirSync(join(markerDir, 'notes'), { recursive: true });
  await writeLintKit(join(repo, 'plugins/lint-kit'), markerDir);
  writeDocsKit(join(repo, 'plugins/docs-kit'));
  write(
    join(repo, '.claude-plugin/marketplace.json'),
    JSON.stringify(
      {
        name: 'team-tools',
        owner: { name: 'Team' },
        plugins: [
          { name: 'lint-kit', source: './plugins/lint-kit', description: 'Lint helpers', version: '1.0.0' },
          { name: 'docs-kit', source: './plugins/docs-kit', description: 'Docs helpers' },
        ],
      },
      null,
      2,
    ),
  );
  mkdirSync(repo, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  commitAll(repo, 'marketplace');
  const workspace = join(base, 'workspace');
  const home = join(base, 'home');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(home, { recursive: true });
  const manager = new PluginManager({
    git: systemGit,
    storage: { user: join(base, 'global storage'), workspace: join(base, 'workspace storage') },
    state: { user: memoryStore(), workspace: memoryStore() },
    cwd: () => workspace,
  });
  return { base, repo, markerDir, hookMarker: join(base, 'hook ran.txt'), workspace, home, manager };
}

/** The repository as a git URL (a clone, as from any host). */
export const gitUrl = (repo: string) => `file://${repo}`;
