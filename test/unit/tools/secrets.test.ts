// Keys stay out of what the agent runs and out of what tools return: commands get an environment
// without the user's keys, and every tool result, progress chunk and terminal mirror line is
// redacted (key shapes and the exact stored key values) by the registry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import {
  approvalDetail,
  builtinTools,
  createToolRegistry,
  disposeToolSession,
  displaySubject,
  type ToolCallInput,
  type ToolRegistry,
} from '../../../extension/core/tools/registry';
import { bashTool } from '../../../extension/core/tools/bash';
import { defineTool, type ToolContext } from '../../../extension/core/tools/types';
import { createToolSecurity } from '../../../extension/core/security/tool-security';
import { REDACTED } from '../../../extension/core/security/redact';
import type { ToolPorts } from '../../../extension/core/ports';
import { createNodePorts, makeContext, makeTempWorkspace, textOf } from '../../fixtures/node-ports';

const posix = process.platform !== 'win32';

const OPENAI = 'sk-proj-unit0test0openai0key0value0123';
const GITHUB = 'ghp_unittestgithubtokenvalue0123456789abcd';
/** A key in no known shape: only the exact-value layer catches it. */
const STORED = 'plainStoredKeyValue-7Qz9x2Lw';
const WORK_LLM = 'work-llm-key-in-no-known-shape-55';

/** The host environment the tests run commands from (process.env plus the keys). */
function hostEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  return {
    ...process.env,
    OPENAI_API_KEY: OPENAI,
    GITHUB_TOKEN: GITHUB,
    WORK_LLM,
    NPM_TOKEN: 'npm_passedThroughOnPurpose1',
    HOME: '/home/unit-test-home',
    ...extra,
  };
}

async function setup(opts: { passEnv?: string[]; secrets?: Set<string>; files?: Record<string, string> } = {}) {
  const root = await makeTempWorkspace({ 'hello.txt': 'hi\n', ...opts.files });
  const secrets = opts.secrets ?? new Set([STORED]);
  const ports = {
    ...createNodePorts({ root }),
    ...createToolSecurity({
      env: hostEnv(),
      apiKeyEnvNames: () => ['WORK_LLM', undefined],
      passThrough: () => opts.passEnv ?? [],
      secrets: () => secrets,
    }),
  };
  const mirrored: string[] = [];
  ports.terminal.show = (command) => {
    mirrored.push(`$ ${command}\n`);
    return { write: (s: string) => mirrored.push(s), end: (s: string) => mirrored.push(s) };
  };
  const ctx = makeContext(ports);
  return { root, ports, ctx, secrets, mirrored, reg: createToolRegistry(builtinTools()) };
}

function run(reg: ToolRegistry, ctx: ToolContext, name: string, args: unknown) {
  const call: ToolCallInput = { id: 'c1', name, argumentsJson: JSON.stringify(args) };
  return reg.execute(reg.prepare(call), ctx);
}

/** Everything a run showed anywhere: the result for the model and the card, and the live output. */
function everything(r: { forModel: unknown; forUi: string }, ctx: { progressed: string[] }, mirrored: string[] = []) {
  return [JSON.stringify(r.forModel), r.forUi, ctx.progressed.join(''), mirrored.join('')].join('\n');
}

test('a command does not see the keys in the host environment, but sees HOME', { skip: !posix }, async () => {
  const { ctx, reg } = await setup();
  const r = await run(reg, ctx, 'bash', { command: 'echo "$OPENAI_API_KEY|$GITHUB_TOKEN|$WORK_LLM|$HOME"' });
  assert.equal(r.isError, false, textOf(r));
  assert.match(textOf(r), /^\|\|\|\/home\/unit-test-home\n/);
  for (const key of [OPENAI, GITHUB, WORK_LLM]) assert.ok(!everything(r, ctx).includes(key), key);
  disposeToolSession(ctx.session);
});

/** Runs `fn` with extra variables in this process's environment (what an old spawn would inherit). */
async function withProcessEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

const PROCESS_KEYS = { OPENAI_API_KEY: 'unit-openai-key-value-no-shape', GITHUB_TOKEN: 'unit-github-token-no-shape' };

test('the bash tool without a childEnv port still drops secret-named variables', { skip: !posix }, async () => {
  // The default path (no port): the process environment, scrubbed by name. Before, it was passed whole.
  const root = await makeTempWorkspace();
  const ctx = makeContext(createNodePorts({ root }));
  await withProcessEnv(PROCESS_KEYS, async () => {
    const r = await bashTool.execute({ command: 'echo "$OPENAI_API_KEY|$GITHUB_TOKEN|$HOME"' }, ctx);
    assert.equal(textOf(r).split('\n')[0], `||${process.env.HOME ?? ''}`);
  });
  disposeToolSession(ctx.session);
});

test('env | grep -i key shows no key variable at all', { skip: !posix }, async () => {
  await withProcessEnv(PROCESS_KEYS, async () => {
    const { ctx, reg } = await setup();
    const r = await run(reg, ctx, 'bash', { command: 'env | grep -i -e key -e token; echo done' });
    const out = textOf(r);
    assert.doesNotMatch(out, /OPENAI_API_KEY|GITHUB_TOKEN|WORK_LLM/);
    for (const key of [OPENAI, GITHUB, WORK_LLM, ...Object.values(PROCESS_KEYS)]) assert.ok(!out.includes(key), key);
    assert.match(out, /done/);
  });
});

test('a name in passEnv reaches the command', { skip: !posix }, async () => {
  const { ctx, reg } = await setup({ passEnv: ['npm_token'] });
  const r = await run(reg, ctx, 'bash', { command: 'echo "npm=$NPM_TOKEN openai=$OPENAI_API_KEY"' });
  assert.match(textOf(r), /^npm=npm_passedThroughOnPurpose1 openai=\n/);
  const without = await setup();
  const r2 = await run(without.reg, without.ctx, 'bash', { command: 'echo "npm=$NPM_TOKEN"' });
  assert.match(textOf(r2), /^npm=\n/);
});

test('background jobs get the scrubbed environment too', { skip: !posix }, async () => {
  const { ctx, reg } = await setup();
  const started = await run(reg, ctx, 'bash', {
    command: 'echo "bg:$OPENAI_API_KEY:$HOME"',
    run_in_background: true,
  });
  const id = /as (bash_\d+)/.exec(textOf(started))?.[1];
  assert.ok(id, textOf(started));
  let out = '';
  for (let i = 0; i < 100 && !out.includes('exit code'); i++) {
    await new Promise((r) => setTimeout(r, 50));
    out += textOf(await run(reg, ctx, 'bash_output', { bash_id: id }));
  }
  assert.match(out, /bg::\/home\/unit-test-home/);
  assert.ok(!out.includes(OPENAI));
});

test('a stored key value a command prints is [REDACTED] for the model, the card and the live output', {
  skip: !posix,
}, async () => {
  const { ctx, reg, mirrored } = await setup({ files: { 'secret.txt': `token=${STORED}\nopenai ${OPENAI}\n` } });
  const cat = await run(reg, ctx, 'bash', { command: 'cat secret.txt' });
  const shown = everything(cat, ctx, mirrored);
  assert.ok(!shown.includes(STORED), shown);
  assert.ok(!shown.includes(OPENAI), shown);
  assert.match(textOf(cat), /token=\[REDACTED\]\nopenai \[REDACTED\]/);
  assert.match(cat.forUi, /token=\[REDACTED\]/);
  assert.match(ctx.progressed.join(''), /token=\[REDACTED\]/);
  assert.match(mirrored.join(''), /token=\[REDACTED\]/);

  const echo = await run(reg, ctx, 'bash', { command: `echo "x${STORED}y"` });
  assert.match(textOf(echo), /x\[REDACTED\]y/);
  assert.ok(!everything(echo, ctx, mirrored).includes(STORED));

  const read = await run(reg, ctx, 'read_file', { file_path: 'secret.txt' });
  assert.ok(!everything(read, ctx).includes(STORED));
  assert.match(textOf(read), /token=\[REDACTED\]/);
});

test('a key stored after the ports were built is redacted too (the set is live)', { skip: !posix }, async () => {
  const secrets = new Set<string>();
  const { ctx, reg } = await setup({ secrets });
  const late = 'addedLaterKey-value-9981';
  assert.match(textOf(await run(reg, ctx, 'bash', { command: `echo ${late}` })), new RegExp(late));
  secrets.add(late);
  assert.match(textOf(await run(reg, ctx, 'bash', { command: `echo ${late}` })), /^\[REDACTED\]\n/);
});

test('progress chunks that cut a key in two still never show it', async () => {
  const tool = defineTool({
    name: 'chatty',
    description: 'Streams a key in pieces.',
    input: z.object({}),
    kind: 'read',
    permission: { subject: 'text', text: () => '' },
    modes: ['agent'],
    subject: () => '',
    async execute(_i, ctx) {
      ctx.progress(`start ${STORED.slice(0, 9)}`);
      ctx.progress(`${STORED.slice(9)} end\nnext line\n`);
      ctx.progress('-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n');
      ctx.progress('c2VjcmV0LWtleS1ib2R5LWJhc2U2NA==\n-----END PRIVATE KEY-----\nafter\n');
      ctx.progress(`tail ${STORED}`);
      return { forModel: 'ok', forUi: 'ok', isError: false };
    },
  });
  const root = await makeTempWorkspace();
  const secrets = new Set([STORED]);
  const ports: ToolPorts = {
    ...createNodePorts({ root }),
    ...createToolSecurity({ env: {}, apiKeyEnvNames: () => [], passThrough: () => [], secrets: () => secrets }),
  };
  const ctx = makeContext(ports);
  await run(createToolRegistry([tool]), ctx, 'chatty', {});
  const live = ctx.progressed.join('');
  assert.ok(!live.includes(STORED), live);
  assert.ok(!live.includes(STORED.slice(9)), live);
  assert.doesNotMatch(live, /MIIEvQ|c2VjcmV0/);
  assert.match(live, /^start \[REDACTED\] end\nnext line\n/);
  assert.match(live, /after\ntail \[REDACTED\]$/);
});

test('without a redact port, known key shapes are still removed; errors are redacted too', async () => {
  const thrower = defineTool({
    name: 'thrower',
    description: 'Fails with a key in its message.',
    input: z.object({}),
    kind: 'read',
    permission: { subject: 'text', text: () => '' },
    modes: ['agent'],
    subject: () => '',
    async execute() {
      throw new Error(`request failed with ${OPENAI}`);
    },
  });
  const echo = defineTool({
    name: 'echo',
    description: 'Returns text.',
    input: z.object({ text: z.string() }),
    kind: 'read',
    permission: { subject: 'text', text: () => '' },
    modes: ['agent'],
    subject: (i) => i.text,
    async execute(i) {
      return { forModel: [{ type: 'text', text: i.text }], forUi: i.text, isError: false };
    },
  });
  const root = await makeTempWorkspace();
  const ports = createNodePorts({ root });
  const ctx = makeContext(ports);
  const reg = createToolRegistry([thrower, echo]);
  const failed = await run(reg, ctx, 'thrower', {});
  assert.equal(failed.isError, true);
  assert.ok(!everything(failed, ctx).includes(OPENAI));
  assert.ok(!ports.logs.join('\n').includes(OPENAI), 'the error log line holds the key');
  const r = await run(reg, ctx, 'echo', { text: `github ${GITHUB}; stored ${STORED}` });
  assert.equal(r.forUi, `github ${REDACTED}; stored ${STORED}`);
  assert.deepEqual(r.forModel, [{ type: 'text', text: `github ${REDACTED}; stored ${STORED}` }]);
  // An argument error echoes nothing secret either.
  const bad = await run(reg, ctx, 'echo', { text: 1, note: OPENAI });
  assert.ok(!everything(bad, ctx).includes(OPENAI));
});

test('displaySubject and approvalDetail show a command without the keys in it', async () => {
  const { ctx, reg } = await setup();
  const prepared = reg.prepare({
    id: 'c1',
    name: 'bash',
    argumentsJson: JSON.stringify({ command: `curl -H "Authorization: Bearer ${STORED}" https://x`, timeout: 5000 }),
  });
  assert.ok(prepared.ok);
  const subject = displaySubject(prepared, ctx.ports);
  assert.equal(subject, `curl -H "Authorization: Bearer ${REDACTED}" https://x`);
  const detail = await approvalDetail(prepared, ctx, subject);
  assert.ok(!detail.includes(STORED), detail);
  assert.match(detail, /\$ curl -H "Authorization: Bearer \[REDACTED\]" https:\/\/x/);
  // The raw subject (what permission rules and "Always" match) is unchanged.
  assert.ok(prepared.tool.subject(prepared.input).includes(STORED));
  assert.equal(displaySubject({ ok: false, tool: undefined, error: 'x' }, ctx.ports), '');
});
