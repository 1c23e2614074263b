// The MCP servers people install from npm, run through the real manager the way the product runs them
// (real SDK client, real child processes, the user's scope): server-everything (tools, prompts,
// resources and resource templates, progress to the last update, the server's log, a task-only tool
// kept from the model, and — started as an SSE-only server — the Streamable HTTP → HTTP+SSE fallback),
// server-filesystem, server-memory and server-sequential-thinking. They are exact-pinned devDependencies
// and run offline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import type { StdioServerConfig } from '../../../extension/core/mcp/config';
import type { Timers } from '../../../extension/core/mcp/server-connection';
import { createNodePorts, makeContext, textOf } from '../../fixtures/node-ports';
import { createManager, source, tempDir, until } from './harness';

const modules = path.join(process.cwd(), 'node_modules', '@modelcontextprotocol');
const entry = (pkg: string) => path.join(modules, pkg, 'dist', 'index.js');
const node = (pkg: string, ...args: string[]): StdioServerConfig => ({
  command: process.execPath,
  args: [entry(pkg), ...args],
});
/** No restart timers: a server that fails stays failed, and the test ends when it does. */
const noRetry: Timers = { setTimeout: () => 0, clearTimeout: () => undefined };

test('server-everything over stdio: tools, prompts, resources, templates, the last progress, its log', async () => {
  const t = createManager({ timers: noRetry });
  t.manager.setSources({
    workspace: { servers: {}, problems: [] },
    user: source({ everything: node('server-everything', 'stdio') }),
  });
  try {
    await t.manager.prepare();
    const view = () => t.manager.views()[0];
    assert.equal(view().state, 'connected', t.logs.join('\n'));
    const tools = t.manager.tools('agent');
    const tool = (name: string) => {
      const found = tools.find((x) => x.name === `mcp__everything__${name}`);
      assert.ok(found, `no ${name} among ${tools.map((x) => x.name).join(', ')}`);
      return found;
    };
    const ctx = makeContext(createNodePorts({ root: tempDir('mcp-everything-') }));
    assert.equal(textOf(await tool('echo').execute({ message: 'hello' }, ctx)), 'Echo: hello');

    // Progress: five steps, and the fifth arrives though the result follows it in the same read.
    const progress: string[] = [];
    const withProgress = { ...ctx, progress: (text: string) => void progress.push(text.trim()) };
    const done = await tool('trigger-long-running-operation').execute({ duration: 0.5, steps: 5 }, withProgress);
    assert.match(textOf(done), /Long running operation completed/);
    assert.deepEqual(progress, ['1 / 5', '2 / 5', '3 / 5', '4 / 5', '5 / 5']);

    // Prompts, resources and resource templates are listed; a URI that fits a template reads.
    assert.ok(
      view().prompts.some((p) => p.name === 'simple-prompt'),
      JSON.stringify(view().prompts),
    );
    assert.ok(view().resources.length > 0, 'no resources listed');
    const template = view().resourceTemplates.find((x) => x.uriTemplate.includes('/dynamic/text/{'));
    assert.ok(template, `templates: ${JSON.stringify(view().resourceTemplates)}`);
    const read = await t.manager.readResource('everything', template.uriTemplate.replace(/\{[^}]+\}/, '1'));
    assert.ok(read.length > 0);
    const prompt = await t.manager.getPrompt('everything', 'simple-prompt', {});
    assert.equal(prompt[0]?.role, 'user');

    // The tool that runs only as a task is kept from the model, and the log says why.
    await until(() => t.logs.some((l) => /not offered to the model: .*simulate-research-query/.test(l)), 'task note');
    assert.ok(!t.manager.views()[0].tools.some((x) => x.name === 'simulate-research-query'));

    // The server's log messages (notifications/message) reach its log.
    await tool('toggle-simulated-logging').execute({}, ctx);
    await until(() => t.logs.some((l) => /^\[everything\] server log \[\w+\]/.test(l)), 'a server log line');
  } finally {
    await t.manager.dispose();
  }
});

test('server-filesystem, server-memory and server-sequential-thinking start and answer', async () => {
  const dir = tempDir('mcp-published-');
  const files = path.join(dir, 'files');
  mkdirSync(files);
  writeFileSync(path.join(files, 'hello.txt'), 'hello from a file\n');
  const t = createManager({ timers: noRetry });
  t.manager.setSources({
    workspace: { servers: {}, problems: [] },
    user: source({
      filesystem: node('server-filesystem', files),
      memory: { ...node('server-memory'), env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') } },
      thinking: node('server-sequential-thinking'),
    }),
  });
  try {
    await t.manager.prepare();
    for (const v of t.manager.views()) assert.equal(v.state, 'connected', `${v.name}: ${t.logs.join('\n')}`);
    const tools = t.manager.tools('agent');
    const tool = (name: string) => {
      const found = tools.find((x) => x.name === name);
      assert.ok(found, `no ${name} among ${tools.map((x) => x.name).join(', ')}`);
      return found;
    };
    const ctx = makeContext(createNodePorts({ root: dir }));
    const file = await tool('mcp__filesystem__read_text_file').execute({ path: path.join(files, 'hello.txt') }, ctx);
    assert.match(textOf(file), /hello from a file/);
    const created = await tool('mcp__memory__create_entities').execute(
      { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] },
      ctx,
    );
    assert.notEqual(created.isError, true, textOf(created));
    assert.match(textOf(await tool('mcp__memory__read_graph').execute({}, ctx)), /first program/);
    const thought = await tool('mcp__thinking__sequentialthinking').execute(
      { thought: 'one step', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false },
      ctx,
    );
    assert.match(textOf(thought), /"thoughtNumber": 1/);
  } finally {
    await t.manager.dispose();
  }
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  assert.ok(address && typeof address === 'object');
  return address.port;
}

/** server-everything as an SSE-only server (the 2024-11-05 transport) on a free port, once it listens. */
async function sseOnlyServer(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [entry('server-everything'), 'sse'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  await until(() => stderr.includes(`running on port ${port}`) || child.exitCode !== null, 'the SSE server');
  assert.equal(child.exitCode, null, stderr);
  return { url: `http://127.0.0.1:${port}/sse`, child };
}

test('a server configured as "http" that only speaks HTTP+SSE is reached by the fallback', async () => {
  const { url, child } = await sseOnlyServer();
  const t = createManager({ timers: noRetry });
  try {
    t.manager.setSources({ workspace: { servers: {}, problems: [] }, user: source({ old: { type: 'http', url } }) });
    await t.manager.prepare();
    assert.equal(t.manager.views()[0].state, 'connected', t.logs.join('\n'));
    assert.ok(
      t.logs.some((l) => /refused Streamable HTTP \(HTTP 404\): trying HTTP\+SSE/.test(l)),
      t.logs.join('\n'),
    );
    const echo = t.manager.tools('agent').find((x) => x.name === 'mcp__old__echo');
    assert.ok(echo, 'the tools of the SSE server are listed');
    const ctx = makeContext(createNodePorts({ root: tempDir('mcp-sse-') }));
    assert.equal(textOf(await echo.execute({ message: 'over SSE' }, ctx)), 'Echo: over SSE');
  } finally {
    await t.manager.dispose();
    child.kill();
  }
});

test('a command that does not exist is said so, not "process started (pid ?)"', async () => {
  const t = createManager({ timers: noRetry });
  t.manager.setSources({
    workspace: { servers: {}, problems: [] },
    user: source({ gone: { command: 'sextant-no-such-command-4f1c' } }),
  });
  try {
    await t.manager.prepare();
    const logs = t.logs.join('\n');
    assert.match(logs, /could not start: sextant-no-such-command-4f1c not found/);
    assert.doesNotMatch(logs, /process started/);
    assert.match(t.manager.views()[0].lastError ?? '', /not found/);
  } finally {
    await t.manager.dispose();
  }
});
