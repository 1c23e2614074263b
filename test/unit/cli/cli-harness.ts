// Runs the built `sextant` command (dist/cli.js) as a user does — a separate process, its own
// SEXTANT_HOME, flags and stdin — against the fake LLM server in this process. The unit run builds
// dist/ first (`node esbuild.mjs && node test/run-unit.mjs`).
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import assert from 'node:assert/strict';
import { repoFile } from '../../fixtures/node-ports';
import type { FakeLlm } from '../../fixtures/fake-llm';

/** Long enough to look like a key, unique enough to grep for. */
export const FAKE_KEY = 'sk-test-CLIKEY-9f8e7d6c5b4a39281706';

export function cliFile(): string {
  const file = repoFile('dist/cli.js');
  assert.ok(existsSync(file), 'dist/cli.js is missing: build first (node esbuild.mjs)');
  return file;
}

export interface CliHome {
  home: string;
  workspace: string;
}

/**
 * A SEXTANT_HOME whose settings name the fake server as provider "fake" (key in FAKE_KEY's variable,
 * priced so a budget can be reached), and a workspace folder — both under a path with a space.
 */
export function makeCliHome(
  fake: FakeLlm,
  settings: Record<string, unknown> = {},
  files: Record<string, string> = {},
): CliHome {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'sextant cli ')));
  const home = path.join(base, 'home dir');
  const workspace = path.join(base, 'my project');
  mkdirSync(home, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(workspace, rel)), { recursive: true });
    writeFileSync(path.join(workspace, rel), text);
  }
  writeFileSync(
    path.join(home, 'settings.json'),
    JSON.stringify({
      'sextant.providers': [
        {
          name: 'fake',
          kind: 'openai',
          baseUrl: `${fake.baseUrl}/v1`,
          models: ['m1'],
          apiKeyEnv: 'FAKE_CLI_KEY',
          price: { input: 1, output: 2 },
        },
      ],
      'sextant.defaultModel': 'fake/m1',
      ...settings,
    }),
  );
  return { home, workspace };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment a test's `sextant` runs with: this one, its SEXTANT_HOME and the fake key (undefined removes). */
export function cliEnv(h: CliHome, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {
    ...process.env,
    SEXTANT_HOME: h.home,
    FAKE_CLI_KEY: FAKE_KEY,
    ...extra,
  };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return env as NodeJS.ProcessEnv;
}

/**
 * The one way the cli, acp and packaging tests start the command: `node <file> ...args` with piped
 * stdio (the built dist/cli.js unless another copy is named).
 */
export function spawnCli(o: {
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  file?: string;
}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [o.file ?? cliFile(), ...o.args], { cwd: o.cwd, env: o.env, stdio: 'pipe' });
}

/** Waits for the process to end, with everything it wrote; `stdin` is written and closed first. */
export function collectRun(child: ChildProcessWithoutNullStreams, stdin = ''): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

export function runCli(
  h: CliHome,
  args: string[],
  o: { stdin?: string; env?: Record<string, string | undefined>; cwd?: string } = {},
): Promise<CliRun> {
  return collectRun(spawnCli({ args, cwd: o.cwd ?? h.workspace, env: cliEnv(h, o.env) }), o.stdin);
}

/** Every file under `dir` (recursively) that contains `needle`. */
export function filesContaining(dir: string, needle: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      else if (readFileSync(full).includes(needle)) out.push(full);
    }
  };
  walk(dir);
  return out;
}

export function writeConfig(h: CliHome, config: unknown, mode = 0o600): void {
  const file = path.join(h.home, 'config.json');
  writeFileSync(file, JSON.stringify(config));
  chmodSync(file, mode);
}

/** The messages the model was sent in request `n` (0-based), as the fake server recorded them. */
export function sentMessages(fake: FakeLlm, n: number): Array<{ role: string; content: unknown }> {
  const llm = fake.requests.filter((r) => r.api === 'openai');
  return (llm[n]?.body as { messages?: Array<{ role: string; content: unknown }> })?.messages ?? [];
}
