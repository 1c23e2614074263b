// The `sextant` command as a user runs it: a spawned process with its own SEXTANT_HOME, talking to the
// fake LLM server over the real OpenAI wire format (issue 38's "Must show" for the command line).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm';
import { FAKE_KEY, filesContaining, makeCliHome, runCli, sentMessages, writeConfig } from './cli-harness';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm();
});
after(async () => {
  await fake.close();
});

test('-p in text format prints the answer on stdout and exits 0', async () => {
  fake.reset();
  fake.enqueue({ text: 'Hello from the fake model.' });
  const h = makeCliHome(fake);
  const r = await runCli(h, ['-p', 'say hello']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'Hello from the fake model.\n');
  assert.match(JSON.stringify(sentMessages(fake, 0)), /say hello/);
});

test('--output-format json prints one object with the answer, the session and the exit code', async () => {
  fake.reset();
  fake.enqueue({ text: 'Forty-two.', usage: { inputTokens: 10, outputTokens: 3 } });
  const h = makeCliHome(fake);
  const r = await runCli(h, ['-p', 'the answer?', '--output-format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 1, 'exactly one JSON object');
  const result = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
  assert.equal(result.type, 'result');
  assert.equal(result.result, 'Forty-two.');
  assert.equal(result.end, 'complete');
  assert.equal(result.exitCode, 0);
  assert.match(String(result.sessionId), /\S/);
  assert.equal((result.usage as { inputTokens: number }).inputTokens, 10);
});

test('--output-format stream-json: one JSON event per line, the webview messages, then the result', async () => {
  fake.reset();
  fake.enqueue({ text: ['Streamed ', 'answer.'] });
  const h = makeCliHome(fake);
  const r = await runCli(h, ['-p', 'stream please', '--output-format', 'stream-json']);
  assert.equal(r.code, 0, r.stderr);
  const messages = r.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; envelopes?: Array<{ event: { type: string; text?: string } }> });
  const events = messages.flatMap((m) => (m.type === 'events' ? (m.envelopes ?? []).map((e) => e.event) : []));
  assert.equal(events[0]?.type, 'started');
  assert.equal(
    events
      .filter((e) => e.type === 'text_delta')
      .map((e) => e.text)
      .join(''),
    'Streamed answer.',
  );
  assert.equal(events.at(-1)?.type, 'complete');
  const last = messages.at(-1) as unknown as { type: string; result: string; exitCode: number };
  assert.equal(last.type, 'result');
  assert.equal(last.result, 'Streamed answer.');
});

test('an Agent run under --permission-mode accept-edits writes a file in the workspace', async () => {
  fake.reset();
  fake.enqueue(
    {
      toolCalls: [{ name: 'write_file', arguments: { file_path: 'notes/todo.md', content: '# Done by the agent\n' } }],
    },
    { text: 'Wrote notes/todo.md.' },
  );
  const h = makeCliHome(fake);
  const r = await runCli(h, ['-p', 'write the todo file', '--mode', 'agent', '--permission-mode', 'accept-edits']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(path.join(h.workspace, 'notes/todo.md'), 'utf8'), '# Done by the agent\n');
  assert.match(r.stdout, /Wrote notes\/todo\.md\./);
});

test('the same edit without accept-edits would ask: refused, nothing written, exit 4', async () => {
  fake.reset();
  fake.enqueue(
    { toolCalls: [{ name: 'write_file', arguments: { file_path: 'refused.md', content: 'no\n' } }] },
    { text: 'I could not write it.' },
  );
  const h = makeCliHome(fake);
  const r = await runCli(h, ['-p', 'write it', '--mode', 'agent']);
  assert.equal(r.code, 4, r.stderr);
  assert.equal(existsSync(path.join(h.workspace, 'refused.md')), false);
  assert.match(r.stderr, /refused: write_file/);
});

test('a command that would ask is refused with exit 4 and never runs', async () => {
  fake.reset();
  fake.enqueue(
    { toolCalls: [{ name: 'bash', arguments: { command: 'touch ran.txt', description: 'make a file' } }] },
    { text: 'The command was refused.' },
  );
  const h = makeCliHome(fake);
  const r = await runCli(h, [
    '-p',
    'run it',
    '--mode',
    'agent',
    '--permission-mode',
    'accept-edits',
    '--output-format',
    'json',
  ]);
  assert.equal(r.code, 4, r.stderr);
  assert.equal(existsSync(path.join(h.workspace, 'ran.txt')), false, 'the command must not have run');
  const result = JSON.parse(r.stdout) as { refused: Array<{ tool: string }> };
  assert.deepEqual(
    result.refused.map((x) => x.tool),
    ['bash'],
  );
  // The model was told it was refused (the second request carries the tool result).
  assert.match(JSON.stringify(sentMessages(fake, 1)), /non-interactive/);
});

test('--allow adds a rule in the usual syntax: the allowed command runs', async () => {
  fake.reset();
  fake.enqueue(
    { toolCalls: [{ name: 'bash', arguments: { command: 'touch ran.txt', description: 'make a file' } }] },
    { text: 'Done.' },
  );
  const h = makeCliHome(fake);
  const r = await runCli(h, ['-p', 'run it', '--mode', 'agent', '--allow', 'Bash(touch ran.txt)', '--sandbox', 'off']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(existsSync(path.join(h.workspace, 'ran.txt')), true);
});

test('--max-cost-usd stops the run with exit 3', async () => {
  fake.reset();
  // $1 / $2 per million tokens: a million input tokens costs $1, past the $0.5 cap after the first step.
  fake.enqueue(
    {
      toolCalls: [{ name: 'read_file', arguments: { file_path: 'a.txt' } }],
      usage: { inputTokens: 1_000_000, outputTokens: 10 },
    },
    { text: 'never reached' },
  );
  const h = makeCliHome(fake, {}, { 'a.txt': 'hello\n' });
  const r = await runCli(h, [
    '-p',
    'read a.txt',
    '--mode',
    'agent',
    '--max-cost-usd',
    '0.5',
    '--output-format',
    'json',
  ]);
  assert.equal(r.code, 3, r.stderr);
  assert.equal((JSON.parse(r.stdout) as { end: string }).end, 'budget');
});

test('--resume continues a session: the model sees the earlier messages; --continue takes the newest', async () => {
  fake.reset();
  fake.enqueue({ text: 'Noted: the code word is PELICAN.' });
  const h = makeCliHome(fake);
  const first = await runCli(h, ['-p', 'remember the code word PELICAN', '--output-format', 'json']);
  assert.equal(first.code, 0, first.stderr);
  const { sessionId } = JSON.parse(first.stdout) as { sessionId: string };

  fake.enqueue({ text: 'It was PELICAN.' });
  const second = await runCli(h, ['-p', 'what was the code word?', '--resume', sessionId, '--output-format', 'json']);
  assert.equal(second.code, 0, second.stderr);
  assert.equal((JSON.parse(second.stdout) as { sessionId: string }).sessionId, sessionId);
  const sent = JSON.stringify(sentMessages(fake, 1));
  assert.match(sent, /remember the code word PELICAN/);
  assert.match(sent, /Noted: the code word is PELICAN\./);

  fake.enqueue({ text: 'Still PELICAN.' });
  const third = await runCli(h, ['-p', 'and now?', '--continue']);
  assert.equal(third.code, 0, third.stderr);
  assert.match(JSON.stringify(sentMessages(fake, 2)), /what was the code word\?/);

  const missing = await runCli(h, ['-p', 'x', '--resume', 'no-such-session']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no session "no-such-session"/);
});

test("a repository's .mcp.json server and hooks stay off without trust; --trust-workspace starts them", async () => {
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
    const h = makeCliHome(fake, {}, files);
    const r = await runCli(h, ['-p', 'hello', '--mode', 'agent', '--sandbox', 'off']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(path.join(h.workspace, 'mcp-started')), false, 'the MCP server must not start');
    assert.equal(existsSync(path.join(h.workspace, 'hook-ran')), false, 'the hook must not run');
    assert.match(r.stderr, /servers "repo" do not start/);
    assert.match(r.stderr, /hooks do not run/);

    const trusted = await runCli(h, ['-p', 'hello', '--mode', 'agent', '--sandbox', 'off', '--trust-workspace']);
    assert.equal(existsSync(path.join(h.workspace, 'hook-ran')), true, `the hook runs when trusted: ${trusted.stderr}`);
    assert.equal(
      existsSync(path.join(h.workspace, 'mcp-started')),
      true,
      `the server starts when trusted: ${trusted.stderr}`,
    );
  } finally {
    fake.onRequest(undefined);
  }
});

test('no key in any output or stored file: stdout, stderr and the whole SEXTANT_HOME', async () => {
  fake.reset();
  // The model echoes the key back, a tool reads it from a file, and the prompt carries it too.
  fake.enqueue(
    { toolCalls: [{ name: 'read_file', arguments: { file_path: 'leak.txt' } }] },
    { text: `Your key is ${FAKE_KEY}.` },
  );
  const h = makeCliHome(fake, {}, { 'leak.txt': `key=${FAKE_KEY}\n` });
  for (const format of ['text', 'stream-json']) {
    fake.reset();
    fake.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { file_path: 'leak.txt' } }] },
      { text: `Your key is ${FAKE_KEY}.` },
    );
    const r = await runCli(h, ['-p', `check ${FAKE_KEY}`, '--mode', 'agent', '--output-format', format, '--verbose']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes(FAKE_KEY), `the key is on stdout (${format})`);
    assert.ok(!r.stderr.includes(FAKE_KEY), `the key is on stderr (${format})`);
  }
  // The key from config.json instead of the environment: still redacted everywhere.
  writeConfig(h, { keys: { fake: FAKE_KEY } });
  fake.reset();
  fake.enqueue({ text: `Again ${FAKE_KEY}` });
  const fromConfig = await runCli(h, ['-p', 'again', '--output-format', 'json'], { env: { FAKE_CLI_KEY: undefined } });
  assert.equal(fromConfig.code, 0, fromConfig.stderr);
  assert.ok(!fromConfig.stdout.includes(FAKE_KEY));
  assert.deepEqual(
    filesContaining(h.home, FAKE_KEY).map((f) => path.relative(h.home, f)),
    ['config.json'],
    'only the config file the user wrote holds the key',
  );
});

test('bad flags and a missing key: one clear line on stderr, exit 2, no model request', async () => {
  fake.reset();
  const h = makeCliHome(fake);
  const cases: Array<[string[], RegExp, Record<string, string | undefined>?]> = [
    [['--bogus'], /unknown option --bogus/],
    [['-p', 'x', '--mode', 'poetry'], /--mode must be one of chat, plan, research, agent/],
    [['-p', 'x', '--output-format', 'xml'], /--output-format must be one of text, json, stream-json/],
    [['-p', 'x', '--max-cost-usd', 'lots'], /--max-cost-usd must be a positive number/],
    [['-p', 'x', '--api-key', 'sk-abc'], /keys are never taken on the command line/],
    [['-p', 'x', '--cwd', '/no/such/folder'], /--cwd \/no\/such\/folder is not a folder/],
    [['-p', 'x'], /no API key for "fake": set FAKE_CLI_KEY/, { FAKE_CLI_KEY: undefined }],
    [['-p', 'x', '--model', 'nobody/m'], /there is no provider "nobody"/],
  ];
  for (const [args, message, env] of cases) {
    const r = await runCli(h, args, env ? { env } : {});
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `one line for ${args.join(' ')}: ${r.stderr}`);
    assert.match(lines[0] ?? '', message);
    assert.equal(r.stdout, '');
  }
  assert.equal(fake.requests.filter((r) => r.api === 'openai').length, 0);
});

test('a config.json others can read is refused (exit 2), never used', async () => {
  fake.reset();
  const h = makeCliHome(fake);
  writeConfig(h, { keys: { fake: FAKE_KEY } }, 0o644);
  const r = await runCli(h, ['-p', 'x'], { env: { FAKE_CLI_KEY: undefined } });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /can be read by other users; run: chmod 600/);
  assert.ok(!r.stderr.includes(FAKE_KEY));
});

test('stdin: piped text is the context of -p, or the prompt itself without -p', async () => {
  fake.reset();
  fake.enqueue({ text: 'Looks fine.' }, { text: 'Answered.' });
  const h = makeCliHome(fake);
  const review = await runCli(h, ['-p', 'review this'], { stdin: 'diff --git a/x b/x\n+added line\n' });
  assert.equal(review.code, 0, review.stderr);
  const sent = JSON.stringify(sentMessages(fake, 0));
  assert.match(sent, /review this/);
  assert.match(sent, /\+added line/);
  const piped = await runCli(h, [], { stdin: 'what is two plus two?\n' });
  assert.equal(piped.code, 0, piped.stderr);
  assert.match(JSON.stringify(sentMessages(fake, 1)), /what is two plus two\?/);
  assert.equal(piped.stdout, 'Answered.\n');
});

test('language services are absent on the command line: the tool says so instead of failing', async () => {
  fake.reset();
  fake.enqueue(
    { toolCalls: [{ name: 'definition', arguments: { path: 'a.ts', line: 1, symbol: 'a' } }] },
    { text: 'ok' },
  );
  const h = makeCliHome(fake, {}, { 'a.ts': 'export const a = 1;\n' });
  const r = await runCli(h, ['-p', 'where is a defined', '--mode', 'agent']);
  assert.equal(r.code, 0, r.stderr);
  const toolResult = sentMessages(fake, 1).find((m) => m.role === 'tool');
  assert.match(String(toolResult?.content), /needs the editor's language features/);
});

test('settings.json is the user scope: a broken file is one line and exit 2', async () => {
  fake.reset();
  const h = makeCliHome(fake);
  writeFileSync(path.join(h.home, 'settings.json'), '{ "sextant.providers": [');
  const r = await runCli(h, ['-p', 'x']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /settings\.json is not a JSON object of settings/);
});
