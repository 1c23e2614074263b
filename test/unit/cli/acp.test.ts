// `sextant acp` as an editor runs it: the built dist/cli.js spawned with its own SEXTANT_HOME, driven by
// the Agent Client Protocol SDK's own client side over stdio, against the fake LLM server (issue 38
// item 3's "Must show": streamed text and a tool call, a permission request answered by the client, a
// cancelled prompt, a loaded session replayed).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm';
import { cliEnv, FAKE_KEY, filesContaining, makeCliHome, sentMessages, spawnCli, type CliHome } from './cli-harness';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm();
});
after(async () => {
  await fake.close();
});

/** What the client saw: every session update, and every permission request (answered as `answer` says). */
interface Seen {
  updates: acp.SessionUpdate[];
  permissions: acp.RequestPermissionRequest[];
  stderr: string;
}

/** The test client's editor: its open buffers (by absolute path) and the writes it received. */
interface Editor {
  buffers: Map<string, string>;
  writes: Array<{ path: string; content: string }>;
}

/** Waits until `cond` holds on what the client has seen (checked on each update; no timers). */
type Waiter = (cond: (seen: Seen) => boolean) => Promise<void>;

async function withAgent<T>(
  h: CliHome,
  answer: (req: acp.RequestPermissionRequest) => acp.RequestPermissionResponse,
  op: (ctx: acp.ClientContext, seen: Seen, until: Waiter) => Promise<T>,
  editor?: Editor,
  args: string[] = [],
): Promise<{ result: T; seen: Seen; code: number | null }> {
  const child = spawnCli({ args: ['acp', ...args], cwd: h.workspace, env: cliEnv(h) });
  const seen: Seen = { updates: [], permissions: [], stderr: '' };
  child.stderr?.on('data', (d: Buffer) => (seen.stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const waiters: Array<{ cond: (s: Seen) => boolean; resolve: () => void }> = [];
  const check = () => {
    for (const w of [...waiters])
      if (w.cond(seen)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  };
  const until: Waiter = (cond) =>
    new Promise((resolve) => {
      waiters.push({ cond, resolve });
      check();
    });
  const client = acp
    .client({ name: 'sextant-test-client' })
    .onNotification('session/update', ({ params }) => {
      seen.updates.push(params.update);
      check();
    })
    .onRequest('session/request_permission', ({ params }) => {
      seen.permissions.push(params);
      check();
      return answer(params);
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      const text = editor?.buffers.get(params.path);
      if (text === undefined) throw acp.RequestError.resourceNotFound(params.path);
      return { content: text };
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      editor?.writes.push({ path: params.path, content: params.content });
      editor?.buffers.set(params.path, params.content);
      return {};
    });
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout as Readable) as ReadableStream<Uint8Array>,
  );
  let result: T;
  try {
    result = await client.connectWith(stream, (ctx) => op(ctx, seen, until));
  } finally {
    child.stdin?.end();
  }
  const code = await exited;
  return { result, seen, code };
}

const allowOnce = (req: acp.RequestPermissionRequest): acp.RequestPermissionResponse => {
  const option = req.options.find((o) => o.kind === 'allow_once');
  return { outcome: { outcome: 'selected', optionId: option?.optionId ?? '' } };
};

const text = (updates: acp.SessionUpdate[], kind: 'agent_message_chunk' | 'user_message_chunk') =>
  updates.map((u) => (u.sessionUpdate === kind && u.content.type === 'text' ? u.content.text : '')).join('');

async function initialize(ctx: acp.ClientContext, fs = false): Promise<acp.InitializeResponse> {
  return ctx.request('initialize', {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: fs, writeTextFile: fs } },
  });
}

test('acp: a prompt streams text and a tool call; the client allows the write; the tool runs; end_turn', async () => {
  fake.reset();
  fake.enqueue(
    {
      text: ['Writing ', 'the file.'],
      toolCalls: [{ name: 'write_file', arguments: { file_path: 'notes/acp.md', content: '# From ACP\n' } }],
    },
    { text: 'Done: notes/acp.md.' },
  );
  const h = makeCliHome(fake);
  const { result, seen, code } = await withAgent(h, allowOnce, async (ctx) => {
    const init = await initialize(ctx);
    assert.equal(init.agentCapabilities?.loadSession, true);
    assert.equal(init.agentCapabilities?.promptCapabilities?.embeddedContext, true);
    const session = await ctx.request('session/new', { cwd: h.workspace, mcpServers: [] });
    assert.equal(session.modes?.currentModeId, 'agent');
    assert.deepEqual(
      session.modes?.availableModes.map((m) => m.id),
      ['chat', 'plan', 'research', 'agent'],
    );
    const answer = await ctx.request('session/prompt', {
      sessionId: session.sessionId,
      prompt: [{ type: 'text', text: 'write the notes file' }],
    });
    return { answer, sessionId: session.sessionId };
  });
  assert.equal(result.answer.stopReason, 'end_turn', seen.stderr);
  assert.equal(code, 0, seen.stderr);
  assert.equal(text(seen.updates, 'agent_message_chunk'), 'Writing the file.Done: notes/acp.md.');
  const call = seen.updates.find((u) => u.sessionUpdate === 'tool_call');
  assert.ok(call && call.sessionUpdate === 'tool_call', 'a tool_call update');
  assert.equal(call.kind, 'edit');
  assert.equal(seen.permissions.length, 1, 'the write asked once');
  const asked = seen.permissions[0];
  assert.equal(asked?.toolCall.toolCallId, call.toolCallId);
  assert.ok(asked?.options.some((o) => o.kind === 'reject_once'));
  const statuses = seen.updates.flatMap((u) =>
    u.sessionUpdate === 'tool_call_update' && u.toolCallId === call.toolCallId ? [u.status] : [],
  );
  assert.equal(statuses.at(-1), 'completed');
  assert.equal(readFileSync(path.join(h.workspace, 'notes/acp.md'), 'utf8'), '# From ACP\n');
  assert.ok(!seen.stderr.includes(FAKE_KEY), 'the key is never logged');
  assert.ok(!JSON.stringify(seen).includes(FAKE_KEY), 'the key is in no message to the client');
  assert.deepEqual(filesContaining(h.home, FAKE_KEY), [], 'the key is in no stored file');
});

test('acp: the client rejects the write → the tool does not run', async () => {
  fake.reset();
  fake.enqueue(
    { toolCalls: [{ name: 'write_file', arguments: { file_path: 'no.md', content: 'x' } }] },
    { text: 'Not written.' },
  );
  const h = makeCliHome(fake);
  const { result, seen } = await withAgent(
    h,
    () => ({ outcome: { outcome: 'selected', optionId: 'reject_once' } }),
    async (ctx) => {
      await initialize(ctx);
      const session = await ctx.request('session/new', { cwd: h.workspace, mcpServers: [] });
      return ctx.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'write' }] });
    },
  );
  assert.equal(result.stopReason, 'end_turn', seen.stderr);
  assert.equal(seen.permissions.length, 1);
  assert.equal(existsSync(path.join(h.workspace, 'no.md')), false);
});

test('acp: session/cancel stops a running prompt (stopReason cancelled); session/load replays it', async () => {
  fake.reset();
  fake.enqueue({ text: 'First answer.' }, { text: ['Working on it'], hang: true });
  const h = makeCliHome(fake);
  const first = await withAgent(h, allowOnce, async (ctx, seen, until) => {
    await initialize(ctx);
    const session = await ctx.request('session/new', { cwd: h.workspace, mcpServers: [] });
    const sessionId = session.sessionId;
    const one = await ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'first question' }] });
    assert.equal(one.stopReason, 'end_turn');
    await ctx.request('session/set_mode', { sessionId, modeId: 'chat' });
    const running = ctx.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'second question' }] });
    await until((s) => text(s.updates, 'agent_message_chunk').includes('Working on it'));
    await ctx.notify('session/cancel', { sessionId });
    const two = await running;
    return {
      sessionId,
      two: two.stopReason,
      modeUpdate: seen.updates.some((u) => u.sessionUpdate === 'current_mode_update'),
    };
  });
  assert.equal(first.result.two, 'cancelled', first.seen.stderr);
  assert.equal(first.result.modeUpdate, true);

  // A new process (as an editor restarted) loads the stored session and gets its messages back.
  const second = await withAgent(h, allowOnce, async (ctx) => {
    const init = await initialize(ctx);
    assert.equal(init.agentCapabilities?.loadSession, true);
    return ctx.request('session/load', { sessionId: first.result.sessionId, cwd: h.workspace, mcpServers: [] });
  });
  assert.equal(second.code, 0, second.seen.stderr);
  assert.match(text(second.seen.updates, 'user_message_chunk'), /first question/);
  assert.match(text(second.seen.updates, 'agent_message_chunk'), /First answer\./);
});

test('acp: loading a session that does not exist is an error, not a crash', async () => {
  fake.reset();
  const h = makeCliHome(fake);
  const { result } = await withAgent(h, allowOnce, async (ctx) => {
    await initialize(ctx);
    return ctx.request('session/load', { sessionId: 'no-such-session', cwd: h.workspace, mcpServers: [] }).then(
      () => 'loaded',
      (err: unknown) => String((err as Error).message),
    );
  });
  assert.notEqual(result, 'loaded');
});

test('acp: with the client fs, reads take the editor buffer (unsaved) and changes go through it', async () => {
  fake.reset();
  fake.enqueue(
    { toolCalls: [{ name: 'read_file', arguments: { file_path: 'a.txt' } }] },
    { toolCalls: [{ name: 'write_file', arguments: { file_path: 'a.txt', content: 'rewritten\n' } }] },
    { text: 'Rewrote a.txt.' },
  );
  const h = makeCliHome(fake, {}, { 'a.txt': 'on disk\n' });
  const abs = path.join(h.workspace, 'a.txt');
  const editor: Editor = { buffers: new Map([[abs, 'unsaved in the editor\n']]), writes: [] };
  const { result, seen } = await withAgent(
    h,
    allowOnce,
    async (ctx) => {
      await initialize(ctx, true);
      const session = await ctx.request('session/new', { cwd: h.workspace, mcpServers: [] });
      return ctx.request('session/prompt', {
        sessionId: session.sessionId,
        prompt: [{ type: 'text', text: 'rewrite a' }],
      });
    },
    editor,
  );
  assert.equal(result.stopReason, 'end_turn', seen.stderr);
  assert.match(JSON.stringify(sentMessages(fake, 1)), /unsaved in the editor/, 'the model read the editor buffer');
  assert.deepEqual(editor.writes, [{ path: abs, content: 'rewritten\n' }]);
  assert.equal(readFileSync(abs, 'utf8'), 'rewritten\n');
});

test('acp: embedded context in a prompt reaches the model below the text', async () => {
  fake.reset();
  fake.enqueue({ text: 'Seen.' });
  const h = makeCliHome(fake);
  const { result, seen } = await withAgent(h, allowOnce, async (ctx) => {
    await initialize(ctx);
    const session = await ctx.request('session/new', { cwd: h.workspace, mcpServers: [] });
    return ctx.request('session/prompt', {
      sessionId: session.sessionId,
      prompt: [
        { type: 'text', text: 'explain this' },
        { type: 'resource', resource: { uri: 'file:///x/y.ts', text: 'const answer = 42;' } },
      ],
    });
  });
  assert.equal(result.stopReason, 'end_turn', seen.stderr);
  const sent = JSON.stringify(sentMessages(fake, 0));
  assert.match(sent, /explain this/);
  assert.match(sent, /const answer = 42;/);
  assert.match(sent, /file:\/\/\/x\/y\.ts/);
});

test('acp: a budget stop ends the prompt with max_tokens and says so in the answer', async () => {
  fake.reset();
  // $1 per million input tokens: the first step costs $1, past the $0.5 cap.
  fake.enqueue(
    {
      toolCalls: [{ name: 'read_file', arguments: { file_path: 'a.txt' } }],
      usage: { inputTokens: 1_000_000, outputTokens: 10 },
    },
    { text: 'never reached' },
  );
  const h = makeCliHome(fake, { 'sextant.budget.maxCostUsd': 0.5 }, { 'a.txt': 'hello\n' });
  const { result, seen } = await withAgent(h, allowOnce, async (ctx) => {
    await initialize(ctx);
    const session = await ctx.request('session/new', { cwd: h.workspace, mcpServers: [] });
    return ctx.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'read a' }] });
  });
  assert.equal(result.stopReason, 'max_tokens', seen.stderr);
  assert.match(text(seen.updates, 'agent_message_chunk'), /\$|budget|cap/i);
  assert.doesNotMatch(text(seen.updates, 'agent_message_chunk'), /never reached/);
});

test("acp: a repository's .mcp.json server and hooks stay off untrusted; --trust-workspace starts them", async () => {
  const marker = (name: string) => `node -e "require('fs').writeFileSync('${name}', 'x')"`;
  const files = {
    '.mcp.json': JSON.stringify({
      mcpServers: { repo: { command: 'node', args: ['-e', "require('fs').writeFileSync('mcp-started', 'x')"] } },
    }),
    '.claude/settings.json': JSON.stringify({
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: marker('hook-ran') }] }] },
    }),
  };
  fake.reset();
  fake.onRequest(() => ({ text: 'ok' }));
  try {
    const h = makeCliHome(fake, { 'sextant.sandbox.mode': 'off' }, files);
    const session = async (ctx: acp.ClientContext) => {
      await initialize(ctx);
      const s = await ctx.request('session/new', { cwd: h.workspace, mcpServers: [] });
      return ctx.request('session/prompt', { sessionId: s.sessionId, prompt: [{ type: 'text', text: 'hello' }] });
    };
    const untrusted = await withAgent(h, allowOnce, session);
    assert.equal(untrusted.result.stopReason, 'end_turn', untrusted.seen.stderr);
    assert.equal(existsSync(path.join(h.workspace, 'mcp-started')), false, 'the MCP server must not start');
    assert.equal(existsSync(path.join(h.workspace, 'hook-ran')), false, 'the hook must not run');

    const trusted = await withAgent(h, allowOnce, session, undefined, ['--trust-workspace']);
    assert.equal(trusted.result.stopReason, 'end_turn', trusted.seen.stderr);
    assert.equal(
      existsSync(path.join(h.workspace, 'hook-ran')),
      true,
      `the hook runs when trusted: ${trusted.seen.stderr}`,
    );
    assert.equal(existsSync(path.join(h.workspace, 'mcp-started')), true, 'the server starts when trusted');
  } finally {
    fake.onRequest(undefined);
  }
});

test("acp: the server's sessions share one total cap — the second session stops at what both spent", async () => {
  fake.reset();
  fake.enqueue(
    { text: 'First session.', usage: { inputTokens: 900, outputTokens: 200 } },
    {
      toolCalls: [{ name: 'read_file', arguments: { file_path: 'a.txt' } }],
      usage: { inputTokens: 900, outputTokens: 200 },
    },
    { text: 'never reached' },
  );
  const h = makeCliHome(fake, { 'sextant.budget.totalMaxTokens': 2_000 }, { 'a.txt': 'hello\n' });
  const { result, seen } = await withAgent(h, allowOnce, async (ctx) => {
    await initialize(ctx);
    const one = await ctx.request('session/new', { cwd: h.workspace, mcpServers: [] });
    const first = await ctx.request('session/prompt', {
      sessionId: one.sessionId,
      prompt: [{ type: 'text', text: 'hi' }],
    });
    const two = await ctx.request('session/new', { cwd: h.workspace, mcpServers: [] });
    const second = await ctx.request('session/prompt', {
      sessionId: two.sessionId,
      prompt: [{ type: 'text', text: 'read a' }],
    });
    return { first, second };
  });
  // Alone, neither session reached 2,000 tokens (1,100 each); together they did.
  assert.equal(result.first.stopReason, 'end_turn', seen.stderr);
  assert.equal(result.second.stopReason, 'max_tokens', seen.stderr);
  assert.match(text(seen.updates, 'agent_message_chunk'), /sextant\.budget\.totalMaxTokens/);
  assert.doesNotMatch(text(seen.updates, 'agent_message_chunk'), /never reached/);
});
