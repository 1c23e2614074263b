// `.vscode/mcp.json` (VS Code's format) read beside `.mcp.json`: servers, `${workspaceFolder}`,
// `${env:…}`, envFile, and `inputs` whose secret is asked once, kept in SecretStorage (a fake port here)
// and never written to disk — the storage folder (decisions, logs, the session database) is searched
// byte for byte for the secret. A malformed file is reported with its position; one bad server or input
// does not drop the others.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseVscodeMcpJson } from '../../../extension/core/mcp/vscode-mcp-json';
import { parseMcpJson } from '../../../extension/core/mcp/config';
import { createInputValues } from '../../../extension/core/mcp/inputs';
import { serverSpec } from '../../../extension/core/mcp/server-spec';
import { McpTrustStore, type KeyValueStore } from '../../../extension/core/mcp/trust-store';
import { parseEnvFile } from '../../../extension/core/mcp/env-file';
import { spawnServer } from '../../../extension/core/mcp/spawn';
import type { SecretsPort } from '../../../extension/core/ports';
import { createManager, none, shown, stdioServerFile, tempDir } from './harness';
import { created, exchange, open } from '../store/helpers';

const SECRET = 'sk-vscode-input-7d1f0c9a3b';

/** SecretStorage in memory, as the port the host gives (extension/vscode/secrets.ts). */
function fakeSecrets(): SecretsPort & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: async (k) => data.get(k),
    set: async (k, v) => void data.set(k, v),
    delete: async (k) => void data.delete(k),
  };
}

/** A KeyValueStore written to a JSON file in `dir`, like VS Code's state on disk. */
function fileStore(dir: string, name: string): KeyValueStore {
  const file = join(dir, `${name}.json`);
  const read = () => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  return {
    get: (k) => read()[k],
    update: async (k, v) => writeFileSync(file, JSON.stringify({ ...read(), [k]: v })),
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

async function vscodeFile(): Promise<string> {
  return JSON.stringify({
    inputs: [{ type: 'promptString', id: 'api-key', description: 'Notes API key', password: true }],
    servers: {
      notes: {
        type: 'stdio',
        command: process.execPath,
        args: [await stdioServerFile()],
        env: { API_KEY: '${input:api-key}', MARKER_DIR: '${workspaceFolder}/markers' },
        envFile: '${workspaceFolder}/.env',
      },
    },
  });
}

test("VS Code's format is read: servers, inputs, envFile; a bad server or input is left out alone", () => {
  const r = parseVscodeMcpJson(`{
    // VS Code writes comments too
    "inputs": [
      { "type": "promptString", "id": "gh", "description": "GitHub token", "password": true },
      { "type": "pickString", "id": "choice", "options": ["a"] }
    ],
    "servers": {
      "github": { "command": "npx", "args": ["-y", "gh-mcp"], "env": { "TOKEN": "\${input:gh}" } },
      "remote": { "type": "http", "url": "https://example.com/mcp", "headers": { "X-Key": "\${input:gh}" } },
      "broken": { "type": "stdio" }
    }
  }`);
  assert.deepEqual(Object.keys(r.servers), ['github', 'remote']);
  assert.deepEqual(Object.keys(r.inputs ?? {}), ['gh']);
  assert.match(r.problems.join('\n'), /\.vscode\/mcp\.json:10:\d+: "broken" .*left out \(the others still load\)/);
  assert.match(r.problems.join('\n'), /\.vscode\/mcp\.json:5:\d+: "inputs\[1\]\.type" .*promptString/);
  const spec = serverSpec('github', 'workspace', r.servers.github, { inputs: r.inputs ?? {} });
  assert.deepEqual(
    spec.inputs.map((i) => i.id),
    ['gh'],
  );
  // envFile is VS Code's key: in a .mcp.json it is named and ignored.
  const claude = parseMcpJson('{"mcpServers": {"a": {"command": "x", "envFile": ".env"}}}');
  assert.match(claude.problems.join('\n'), /"a\.envFile" is not a setting Sextant knows/);
  assert.equal('envFile' in claude.servers.a, false);
});

test('a malformed .vscode/mcp.json is reported with its line and column, and gives no server', () => {
  const r = parseVscodeMcpJson('{\n  "servers": {\n    "a": { "command": "x" }\n  ,,\n}');
  assert.deepEqual(r.servers, {});
  assert.match(r.problems[0], /^\.vscode\/mcp\.json:4:\d+: not valid JSON/);
  const notObject = parseVscodeMcpJson('{"servers": ["x"]}');
  assert.match(notObject.problems[0], /^\.vscode\/mcp\.json:1:\d+: "servers" .*the file was ignored/);
});

test('the approval hash holds ${input:…}, never the value, and changes when the prompt is reworded', () => {
  const text = (description: string) =>
    `{"inputs":[{"type":"promptString","id":"k","description":"${description}","password":true}],` +
    '"servers":{"s":{"command":"srv","env":{"KEY":"${input:k}"}}}}';
  const a = parseVscodeMcpJson(text('Key'));
  const spec = serverSpec('s', 'workspace', a.servers.s, { inputs: a.inputs ?? {} });
  assert.equal(JSON.stringify(spec).includes(SECRET), false);
  const b = parseVscodeMcpJson(text('Paste your bank password'));
  assert.notEqual(serverSpec('s', 'workspace', b.servers.s, { inputs: b.inputs ?? {} }).configHash, spec.configHash);
});

test('envFile: dotenv lines, quotes and comments', () => {
  assert.deepEqual(parseEnvFile('# c\nA=1\nexport B="two words"\nC=\'x\' \nD=plain # note\n\nbad line\n'), {
    A: '1',
    B: 'two words',
    C: 'x',
    D: 'plain',
  });
});

test('an input secret is asked once, reaches the server, lives only in SecretStorage, never on disk', async () => {
  const workspace = tempDir('vscode-mcp-ws-');
  const storage = tempDir('vscode-mcp-storage-');
  mkdirSync(join(workspace, 'markers'));
  writeFileSync(join(workspace, '.env'), 'FROM_ENV_FILE=yes\n');
  const secrets = fakeSecrets();
  const asked: string[] = [];
  const inputs = createInputValues({
    secrets,
    workspace,
    ask: async (input) => {
      asked.push(`${input.id}:${input.password}`);
      return SECRET;
    },
  });
  const got: Array<{ key: boolean; envFile: string | undefined }> = [];
  const logFile = join(storage, 'mcp.log');
  const open1 = () =>
    createManager({
      decisions: {
        workspace: new McpTrustStore(fileStore(storage, 'workspace-state')),
        user: new McpTrustStore(fileStore(storage, 'global-state')),
      },
      inputs,
      cwd: () => workspace,
      readEnvFile: async (file) => readFileSync(file, 'utf8'),
      log: (server, line) => appendFileSync(logFile, `[${server}] ${line}\n`),
      spawn: (r) => {
        got.push({ key: r.env.API_KEY === SECRET, envFile: r.env.FROM_ENV_FILE });
        return spawnServer(r);
      },
    }).manager;
  const vscode = parseVscodeMcpJson(await vscodeFile());
  assert.deepEqual(vscode.problems, []);
  const manager = open1();
  manager.setSources({ workspace: none, vscode, user: none });
  // Same trust as .mcp.json: nothing starts (nothing is asked) before the server is approved.
  await manager.prepare();
  assert.equal(manager.views()[0].state, 'needs_approval');
  assert.deepEqual(asked, []);
  // The card names what it will ask for and read (never a value).
  assert.deepEqual(manager.views()[0].readsEnv, ['input:api-key', 'envFile:${workspaceFolder}/.env']);
  await manager.decide('notes', 'approve', shown(manager, 'notes'));
  await manager.prepare();
  assert.equal(manager.views()[0].state, 'connected');
  await manager.restart('notes');
  await manager.prepare();
  const result = await manager.callTool('notes', 'echo', { text: 'hello' }, toolContext());
  await manager.dispose();
  // A second window: the stored value is used, nothing is asked.
  const again = open1();
  again.setSources({ workspace: none, vscode, user: none });
  await again.prepare();
  assert.equal(again.views()[0].state, 'connected');
  await again.dispose();
  assert.deepEqual(asked, ['api-key:true'], 'asked once, masked');
  assert.ok(got.length >= 2 && got.every((g) => g.key && g.envFile === 'yes'), 'the server got the value and envFile');
  assert.equal([...secrets.data.values()].filter((v) => v === SECRET).length, 1);
  // What a window writes: the decisions, the log, the session with the tool call, the views it posts.
  const store = await open(join(storage, 'db'));
  store.append(created('s1', 1_000));
  for (const r of exchange('s1', 'r1', 1_001, 'use notes', JSON.stringify({ result, views: manager.views() })))
    store.append(r);
  await store.flush();
  await store.close();
  const files = filesUnder(storage);
  assert.ok(files.some((f) => f.includes('db')) && files.some((f) => f.endsWith('workspace-state.json')));
  for (const f of files) assert.equal(readFileSync(f).includes(SECRET), false, `${f} holds the secret`);
});

test('a cancelled input: the server fails to start and says which input; the next start asks again', async () => {
  const secrets = fakeSecrets();
  let asks = 0;
  const workspace = tempDir('vscode-mcp-ws-');
  mkdirSync(join(workspace, 'markers'));
  writeFileSync(join(workspace, '.env'), '');
  const inputs = createInputValues({ secrets, workspace, ask: async () => (++asks === 1 ? undefined : SECRET) });
  const readEnvFile = async (file: string) => readFileSync(file, 'utf8');
  const { manager, logs } = createManager({ inputs, cwd: () => workspace, readEnvFile });
  manager.setSources({ workspace: none, vscode: parseVscodeMcpJson(await vscodeFile()), user: none });
  await manager.decide('notes', 'approve', shown(manager, 'notes'));
  await manager.prepare();
  assert.equal(manager.views()[0].state, 'failed');
  assert.match(logs.join('\n'), /the input "api-key" \(Notes API key\) was not given/);
  assert.equal(secrets.data.size, 0);
  assert.equal(asks, 1, "a refused start is not retried behind the user's back");
  await manager.restart('notes');
  assert.equal(asks, 2, 'the user restarting it asks again');
  assert.equal(manager.views()[0].state, 'connected');
  assert.deepEqual([...secrets.data.values()], [SECRET]);
  await manager.dispose();
});

function toolContext() {
  return {
    signal: new AbortController().signal,
    progress: () => {},
    supportsImages: false,
  } as unknown as Parameters<ReturnType<typeof createManager>['manager']['callTool']>[3];
}
