// Sub-agents through the real controller, loop and built-in file tools on a temporary workspace: the
// `task` tool, tool restriction (a read-only sub-agent cannot write even when its model asks), the
// concurrency cap, parallel read-only sub-agents, the budget and step caps, Stop on one sub-agent and
// the parent's Stop for all, approvals that name the sub-agent, the audit log, the spend-rate warning.
// The model is a routing provider: each request is answered by who sent it (the parent, or which
// sub-agent, by its system prompt and task), so concurrent requests get their own scripted replies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Provider, ProviderEvent, ProviderRequest, ToolSpec } from '../../../extension/core/providers/types';
import { builtinTools, createToolRegistry } from '../../../extension/core/tools/registry';
import { SubagentStops } from '../../../extension/core/agent/task-tool';
import type { Mode, SubagentView } from '../../../extension/protocol';
import type { AuditEntry } from '../../../extension/core/security/audit-log';
import { ProjectContext } from '../../../extension/core/extensions/project-context';
import { projectFilesOver } from '../../../extension/core/extensions/project-files';
import { createNodePorts, makeTempWorkspace } from '../../fixtures/node-ports';
import type { SessionPersistence } from '../../../extension/core/ports';
import { open, tempDir } from '../store/helpers';
import { assertEnvelopeInvariants, createHarness } from './harness';
import { FleetBudget } from '../../../extension/core/usage/fleet-budget';

type Route = (req: ProviderRequest, signal: AbortSignal) => Promise<ProviderEvent[]> | ProviderEvent[];

class RoutingProvider implements Provider {
  readonly name = 'routed';
  readonly kind = 'openai' as const;
  readonly requests: ProviderRequest[] = [];
  active = 0;
  maxActive = 0;
  constructor(private readonly route: Route) {}
  async *stream(req: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    this.requests.push(structuredClone(req));
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    try {
      const events = await this.route(req, signal);
      for (const ev of events) {
        if (signal.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
        yield ev;
      }
    } finally {
      this.active--;
    }
  }
}

const usage = (inputTokens: number, outputTokens: number): ProviderEvent => ({
  type: 'usage',
  usage: { inputTokens, outputTokens, cachedTokens: 0 },
});
const call = (id: string, name: string, args: unknown): ProviderEvent => ({
  type: 'tool_call',
  call: { id, name, argumentsJson: JSON.stringify(args) },
});
const end: ProviderEvent = { type: 'done', stopReason: 'end' };
const answer = (text: string): ProviderEvent[] => [{ type: 'text', text }, usage(100, 10), end];

/** Who sent a request: the parent agent, or the sub-agent named in its system prompt. */
function sender(req: ProviderRequest): string {
  return /^You are `([\w-]+)`/.exec(req.system)?.[1] ?? 'parent';
}
const firstUser = (req: ProviderRequest) => {
  const m = req.messages[0];
  return m?.role === 'user' && typeof m.content === 'string' ? m.content : '';
};
const hasToolResult = (req: ProviderRequest) => req.messages.some((m) => m.role === 'tool');
const toolResults = (req: ProviderRequest) =>
  req.messages.flatMap((m) =>
    m.role === 'tool' ? m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('') : [],
  );

async function setup(opts: {
  route: Route;
  maxConcurrent?: number;
  maxSteps?: number;
  maxCostUsd?: number;
  budget?: { maxCostUsd?: number };
  audit?: (e: AuditEntry) => void;
  maxCostUsdPerMinute?: number;
  files?: Record<string, string>;
  store?: SessionPersistence;
  fleet?: FleetBudget;
}) {
  const root = await makeTempWorkspace({
    'src/alpha.ts': 'export const alpha = 1;\n',
    'src/beta.ts': 'export const beta = 2;\n',
    ...opts.files,
  });
  const ports = createNodePorts({ root });
  const provider = new RoutingProvider(opts.route);
  const stops = new SubagentStops();
  const registry = createToolRegistry(builtinTools());
  const planRegistry = createToolRegistry(builtinTools().filter((t) => t.modes.includes('plan')));
  const h = createHarness({
    provider,
    workspace: ports.workspace,
    toolsFor: (mode: Mode) => (mode === 'agent' ? registry : mode === 'plan' ? planRegistry : undefined),
    project: new ProjectContext(projectFilesOver(ports.workspace, undefined)),
    subagents: {
      limits: {
        maxConcurrent: () => opts.maxConcurrent ?? 4,
        maxSteps: () => opts.maxSteps ?? 10,
        maxCostUsd: () => opts.maxCostUsd,
      },
      stops,
    },
    ...(opts.budget ? { budget: opts.budget } : {}),
    ...(opts.store ? { store: opts.store } : {}),
    ...(opts.fleet ? { fleet: opts.fleet } : {}),
    ...(opts.audit ? { audit: opts.audit } : {}),
    ...(opts.maxCostUsdPerMinute ? { maxCostUsdPerMinute: opts.maxCostUsdPerMinute } : {}),
  });
  const views = () => {
    const out = new Map<string, SubagentView>();
    for (const e of h.envelopes()) if (e.event.type === 'subagent_updated') out.set(e.event.callId, e.event.subagent);
    return out;
  };
  return { root, provider, stops, h, views };
}

/** Resolves when `n` callers have arrived; each caller waits for all (proves they run at the same time). */
function barrier(n: number) {
  let arrived = 0;
  let open!: () => void;
  const all = new Promise<void>((r) => (open = r));
  return async () => {
    if (++arrived >= n) open();
    await all;
  };
}

test('two explore sub-agents run in parallel; the parent gets both summaries and a small context', async () => {
  const bothStarted = barrier(2);
  const { provider, h, views } = await setup({
    route: async (req) => {
      const who = sender(req);
      if (who === 'parent') {
        if (!hasToolResult(req))
          return [
            call('t1', 'task', {
              description: 'find alpha',
              prompt: 'Where is alpha defined?',
              subagent_type: 'explore',
            }),
            call('t2', 'task', {
              description: 'find beta',
              prompt: 'Where is beta defined?',
              subagent_type: 'explore',
            }),
            usage(500, 40),
            { type: 'done', stopReason: 'tool_calls' },
          ];
        return answer(`Summaries: ${toolResults(req).join(' | ')}`);
      }
      const topic = /alpha|beta/.exec(firstUser(req))?.[0] ?? '?';
      if (!hasToolResult(req)) {
        await bothStarted();
        return [
          call(`g-${topic}`, 'grep', { pattern: topic }),
          usage(200, 20),
          { type: 'done', stopReason: 'tool_calls' },
        ];
      }
      return answer(`${topic} is in src/${topic}.ts:1`);
    },
  });
  await h.controller.send('r1', 'Find alpha and beta', 'agent');
  assertEnvelopeInvariants(h.envelopes());
  assert.equal(provider.maxActive >= 2, true, 'the two sub-agents had model calls open at once');
  const last = provider.requests.filter((r) => sender(r) === 'parent').at(-1);
  assert.ok(last);
  const results = toolResults(last).join('\n');
  assert.match(results, /alpha is in src\/alpha\.ts:1/);
  assert.match(results, /beta is in src\/beta\.ts:1/);
  assert.match(results, /Files read: src\/(alpha|beta)\.ts|Files changed: none/);
  // The parent never saw the sub-agents' grep output, only their summaries.
  assert.doesNotMatch(JSON.stringify(last.messages), /export const alpha/);
  const cards = [...views().values()];
  assert.deepEqual(cards.map((v) => v.status).sort(), ['done', 'done']);
  assert.ok(cards.every((v) => v.steps.some((s) => s.kind === 'tool' && s.name === 'grep')));
  assert.ok(cards.every((v) => (v.usage?.inputTokens ?? 0) > 0));
  // The sub-agents' spending is in the run's usage (parent 500+100, sub-agents 2 × (200+100)).
  const runUsage = h
    .envelopes('r1')
    .filter((e) => e.event.type === 'usage')
    .at(-1)?.event;
  assert.ok(runUsage?.type === 'usage');
  assert.equal(runUsage.usage.inputTokens, 500 + 100 + 2 * (200 + 100));
});

test('a read-only sub-agent is not offered writers, and a forged write is refused', async () => {
  let offered: ToolSpec[] | undefined;
  const { root, h, views } = await setup({
    route: (req) => {
      if (sender(req) === 'parent')
        return hasToolResult(req)
          ? answer('ok')
          : [
              call('t1', 'task', { description: 'look', prompt: 'look around', subagent_type: 'explore' }),
              { type: 'done', stopReason: 'tool_calls' },
            ];
      offered ??= req.tools;
      if (!hasToolResult(req))
        return [
          call('w', 'write_file', { file_path: 'pwned.txt', content: 'x' }),
          call('b', 'bash', { command: 'touch pwned2.txt' }),
          call('s', 'task', { description: 'deeper', prompt: 'recurse', subagent_type: 'explore' }),
          { type: 'done', stopReason: 'tool_calls' },
        ];
      return answer(`tried: ${toolResults(req).join(' | ')}`);
    },
  });
  await h.controller.send('r1', 'go', 'agent');
  const names = (offered ?? []).map((t) => t.name).sort();
  assert.deepEqual(names, ['glob', 'grep', 'ls', 'read_file']);
  await assert.rejects(fs.stat(path.join(root, 'pwned.txt')), 'the forged write did nothing');
  await assert.rejects(fs.stat(path.join(root, 'pwned2.txt')), 'the forged command did nothing');
  const card = [...views().values()][0];
  assert.ok(card);
  const steps = card.steps.filter((s) => s.kind === 'tool');
  assert.deepEqual(
    steps.map((s) => (s.kind === 'tool' ? `${s.name}:${s.status}` : '')),
    ['write_file:error', 'bash:error', 'task:error'],
  );
  assert.equal(h.envelopes().filter((e) => e.event.type === 'approval_needed').length, 0, 'nothing even asked');
});

test("an agent file's disallowedTools is honoured: a read-only reviewer has no Write, Edit or Bash", async () => {
  let offered: ToolSpec[] | undefined;
  const { root, h, views } = await setup({
    files: {
      '.claude/agents/ro-reviewer.md':
        '---\nname: ro-reviewer\ndescription: Reviews read-only\ndisallowedTools: Write, Edit, Bash\n' +
        'model: inherit\n---\nYou are `ro-reviewer`. Review the code.\n',
    },
    route: (req) => {
      if (sender(req) === 'parent')
        return hasToolResult(req)
          ? answer('ok')
          : [
              call('t1', 'task', { description: 'review', prompt: 'review it', subagent_type: 'ro-reviewer' }),
              { type: 'done', stopReason: 'tool_calls' },
            ];
      offered ??= req.tools;
      if (!hasToolResult(req))
        return [
          call('w', 'write_file', { file_path: 'pwned.txt', content: 'x' }),
          call('e', 'edit_file', { file_path: 'src/alpha.ts', old_string: '1', new_string: '2' }),
          call('b', 'bash', { command: 'touch pwned2.txt' }),
          { type: 'done', stopReason: 'tool_calls' },
        ];
      return answer(`tried: ${toolResults(req).join(' | ')}`);
    },
  });
  await h.controller.send('r1', 'go', 'agent');
  const names = (offered ?? []).map((t) => t.name);
  assert.ok(names.includes('read_file') && names.includes('grep'), `reads are kept: ${names.join(', ')}`);
  for (const gone of ['write_file', 'edit_file', 'multi_edit', 'rename', 'bash'])
    assert.ok(!names.includes(gone), `${gone} is not offered`);
  await assert.rejects(fs.stat(path.join(root, 'pwned.txt')), 'the forged write did nothing');
  await assert.rejects(fs.stat(path.join(root, 'pwned2.txt')), 'the forged command did nothing');
  assert.equal(await fs.readFile(path.join(root, 'src/alpha.ts'), 'utf8'), 'export const alpha = 1;\n');
  const steps = ([...views().values()][0]?.steps ?? []).filter((s) => s.kind === 'tool');
  assert.deepEqual(
    steps.map((s) => (s.kind === 'tool' ? `${s.name}:${s.status}` : '')),
    ['write_file:error', 'edit_file:error', 'bash:error'],
  );
  assert.equal(h.envelopes().filter((e) => e.event.type === 'approval_needed').length, 0, 'nothing even asked');
});

test('sextant.agents.maxConcurrent caps how many sub-agents run at once', async () => {
  const { provider, h, views } = await setup({
    maxConcurrent: 1,
    route: async (req) => {
      if (sender(req) === 'parent')
        return hasToolResult(req)
          ? answer('done')
          : [
              ...[1, 2, 3].map((n) =>
                call(`t${n}`, 'task', { description: `d${n}`, prompt: `task ${n}`, subagent_type: 'explore' }),
              ),
              { type: 'done', stopReason: 'tool_calls' },
            ];
      await new Promise((r) => setImmediate(r));
      return answer(`answer to ${firstUser(req)}`);
    },
  });
  await h.controller.send('r1', 'go', 'agent');
  assert.equal(provider.maxActive, 1, 'one model call at a time: the parent waits, one sub-agent runs');
  assert.deepEqual(
    [...views().values()].map((v) => v.status),
    ['done', 'done', 'done'],
  );
  // Each waited its turn: the card said so before it ran.
  const statuses = h.envelopes().flatMap((e) => (e.event.type === 'subagent_updated' ? [e.event.subagent.status] : []));
  assert.ok(statuses.includes('waiting'));
});

test('a sub-agent stops at its step cap and at its cost cap, and reports what it has', async () => {
  const loopForever: Route = (req) => {
    if (sender(req) === 'parent')
      return hasToolResult(req)
        ? answer(`got: ${toolResults(req).join(' | ')}`)
        : [
            call('t1', 'task', { description: 'loop', prompt: 'loop', subagent_type: 'explore' }),
            { type: 'done', stopReason: 'tool_calls' },
          ];
    return [
      { type: 'text', text: 'still looking. ' },
      call(`l${req.messages.length}`, 'ls', {}),
      usage(100_000, 1_000),
      { type: 'done', stopReason: 'tool_calls' },
    ];
  };
  const steps = await setup({ maxSteps: 3, route: loopForever });
  await steps.h.controller.send('r1', 'go', 'agent');
  const stepCard = [...steps.views().values()][0];
  assert.equal(stepCard?.status, 'max_steps');
  assert.equal(stepCard?.modelCalls, 3);
  // Priced at $1 / $2 per million: each call costs $0.102; a $0.25 cap allows two (the third would pass it).
  const cost = await setup({ maxSteps: 50, maxCostUsd: 0.25, route: loopForever });
  await cost.h.controller.send('r1', 'go', 'agent');
  const costCard = [...cost.views().values()][0];
  assert.equal(costCard?.status, 'budget');
  assert.equal(costCard?.modelCalls, 2);
  const parentLast = cost.provider.requests.filter((r) => sender(r) === 'parent').at(-1);
  assert.match(toolResults(parentLast as ProviderRequest).join(''), /stopped at its spending cap/);
});

test("the run's cost cap counts its sub-agents' spending", async () => {
  // Run cap $0.30: the parent's first call costs ~$0.10, so the sub-agent may spend ~$0.20 — one call of $0.102
  // and not a second (0.1 + 0.102 + 0.102 > 0.3), although its own cap ($1) would allow many.
  const { h, views } = await setup({
    maxCostUsd: 1,
    budget: { maxCostUsd: 0.3 },
    route: (req) => {
      if (sender(req) === 'parent')
        return hasToolResult(req)
          ? answer('done')
          : [
              call('t1', 'task', { description: 'loop', prompt: 'loop', subagent_type: 'explore' }),
              usage(100_000, 0),
              { type: 'done', stopReason: 'tool_calls' },
            ];
      return [
        call(`l${req.messages.length}`, 'ls', {}),
        usage(100_000, 1_000),
        { type: 'done', stopReason: 'tool_calls' },
      ];
    },
  });
  await h.controller.send('r1', 'go', 'agent');
  const card = [...views().values()][0];
  assert.equal(card?.status, 'budget');
  assert.equal(card?.modelCalls, 1);
  // And the run then stops at its own cap with the sub-agent's cost counted.
  const stop = h.envelopes('r1').find((e) => e.event.type === 'budget_stop')?.event;
  assert.ok(stop?.type === 'budget_stop');
  assert.ok(stop.stop.spent >= 0.2, `spent ${stop.stop.spent}`);
});

test("a sub-agent's spending counts in the window's total as it spends; the total cap stops it", async () => {
  // Total cap $0.30 over all sessions: the parent's first call costs ~$0.10, each sub-agent call ~$0.102. The
  // sub-agent's own cap ($1) and steps (10) would allow many; the window's total stops it after two.
  const fleet = new FleetBudget({ limits: () => ({ totalMaxCostUsd: 0.3 }), now: () => 0 });
  const { h, views } = await setup({
    maxCostUsd: 1,
    fleet,
    route: (req) => {
      if (sender(req) === 'parent')
        return hasToolResult(req)
          ? answer('done')
          : [
              call('t1', 'task', { description: 'loop', prompt: 'loop', subagent_type: 'explore' }),
              usage(100_000, 0),
              { type: 'done', stopReason: 'tool_calls' },
            ];
      return [
        call(`l${req.messages.length}`, 'ls', {}),
        usage(100_000, 1_000),
        { type: 'done', stopReason: 'tool_calls' },
      ];
    },
  });
  let spentWhileRunning = 0;
  const off = fleet.onChange(() => {
    if ([...views().values()][0]?.status === 'running') spentWhileRunning = fleet.spent().costUsd;
  });
  await h.controller.send('r1', 'go', 'agent');
  off();
  const card = [...views().values()][0];
  assert.equal(card?.status, 'budget');
  assert.ok((card?.modelCalls ?? 0) <= 3, `${card?.modelCalls} calls`);
  assert.ok(spentWhileRunning > 0.15, `the sub-agent's spending was in the total while it ran: ${spentWhileRunning}`);
  const stop = h.envelopes('r1').find((e) => e.event.type === 'budget_stop')?.event;
  assert.ok(stop?.type === 'budget_stop');
  assert.equal(stop.stop.cap, 'total_cost');
  assert.ok(fleet.spent().costUsd >= 0.3);
});

test("Stop on one sub-agent's card ends it alone; the parent's Stop ends all of them", async () => {
  const release = new Map<string, () => void>();
  const route: Route = async (req, signal) => {
    if (sender(req) === 'parent')
      return hasToolResult(req)
        ? answer(`after: ${toolResults(req).join(' | ')}`)
        : [
            call('t1', 'task', { description: 'one', prompt: 'first job', subagent_type: 'explore' }),
            call('t2', 'task', { description: 'two', prompt: 'second job', subagent_type: 'explore' }),
            { type: 'done', stopReason: 'tool_calls' },
          ];
    // Each sub-agent's call hangs until released or aborted.
    await new Promise<void>((resolve, reject) => {
      release.set(firstUser(req), resolve);
      signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
    return answer(`finished ${firstUser(req)}`);
  };
  const one = await setup({ route });
  const sent = one.h.controller.send('r1', 'go', 'agent');
  const running = () => [...one.views().values()].filter((v) => v.status === 'running').length;
  await waitUntil(() => release.size === 2 && running() === 2);
  const first = [...one.views().entries()].find(([, v]) => v.prompt === 'first job')?.[0];
  assert.ok(first);
  assert.equal(one.h.controller.stopSubagent(first), true);
  release.get('second job')?.();
  await sent;
  const byPrompt = new Map([...one.views().values()].map((v) => [v.prompt, v.status]));
  assert.equal(byPrompt.get('first job'), 'stopped');
  assert.equal(byPrompt.get('second job'), 'done');
  assert.equal(one.h.envelopes('r1').at(-1)?.event.type, 'complete', 'the run went on and finished');
  assert.equal(one.stops.running, 0);

  release.clear();
  const all = await setup({ route });
  const sent2 = all.h.controller.send('r2', 'go', 'agent');
  await waitUntil(() => release.size === 2);
  await all.h.controller.stop('r2');
  await sent2;
  assertEnvelopeInvariants(all.h.envelopes());
  assert.equal(all.h.envelopes('r2').at(-1)?.event.type, 'aborted');
  assert.deepEqual(
    [...all.views().values()].map((v) => v.status),
    ['stopped', 'stopped'],
  );
  assert.equal(all.stops.running, 0);
});

test('an approval inside a sub-agent names it; the audit log records its start', async () => {
  const audit: AuditEntry[] = [];
  const { root, h } = await setup({
    audit: (e) => audit.push(e),
    files: {
      '.claude/agents/scribe.md':
        '---\nname: scribe\ndescription: Writes notes\ntools: Write, Read\nmodel: inherit\n---\n' +
        'You are `scribe`. Write what you are told.\n',
    },
    route: (req) => {
      if (sender(req) === 'parent')
        return hasToolResult(req)
          ? answer('ok')
          : [
              call('t1', 'task', { description: 'note', prompt: 'write a note', subagent_type: 'scribe' }),
              { type: 'done', stopReason: 'tool_calls' },
            ];
      return hasToolResult(req)
        ? answer('written')
        : [
            call('w1', 'write_file', { file_path: 'note.txt', content: 'hi' }),
            { type: 'done', stopReason: 'tool_calls' },
          ];
    },
  });
  const sent = h.controller.send('r1', 'go', 'agent');
  await waitUntil(() => h.envelopes().some((e) => e.event.type === 'approval_needed'));
  const asked = h.envelopes().find((e) => e.event.type === 'approval_needed')?.event;
  assert.ok(asked?.type === 'approval_needed');
  assert.equal(asked.approval.subagent, 'scribe');
  assert.equal(asked.approval.tool, 'write_file');
  h.controller.approve(asked.approval.callId, { decision: 'approve' });
  await sent;
  assert.equal(await fs.readFile(path.join(root, 'note.txt'), 'utf8'), 'hi');
  const start = audit.find((e) => e.tool === 'task' && e.rule?.startsWith('sub-agent start'));
  assert.ok(start, 'a start entry');
  assert.equal(start.subagent, 'scribe');
  assert.ok(
    audit.some((e) => e.tool === 'write_file' && e.subagent === 'scribe'),
    "the sub-agent's call is audited",
  );
});

test('the spend-rate warning comes once when a run spends faster than sextant.budget.maxCostUsdPerMinute', async () => {
  const { h } = await setup({
    maxCostUsdPerMinute: 0.05,
    route: (req) =>
      sender(req) === 'parent'
        ? hasToolResult(req)
          ? answer('done')
          : [
              call('t1', 'task', { description: 'a', prompt: 'a', subagent_type: 'explore' }),
              usage(10_000, 0),
              { type: 'done', stopReason: 'tool_calls' },
            ]
        : [{ type: 'text', text: 'x' }, usage(100_000, 0), end],
  });
  await h.controller.send('r1', 'go', 'agent');
  const warnings = h
    .envelopes('r1')
    .filter((e) => e.event.type === 'notice' && /maxCostUsdPerMinute/.test(e.event.text));
  assert.equal(warnings.length, 1);
});

test("a Claude Code agent file works unchanged: `model: haiku` with no haiku model runs on the chat's", async () => {
  // As Claude Code's docs write one; read as a Sextant reference, "haiku" was an unknown provider.
  const file = [
    '---',
    'name: code-finder',
    'description: Finds where things are defined. Use proactively for lookups.',
    'tools: Read, Grep, Glob',
    'model: haiku',
    '---',
    'You are `code-finder`: you find definitions and answer with path:line.',
    '',
  ].join('\n');
  const { h, views, provider } = await setup({
    files: { '.claude/agents/code-finder.md': file },
    route: (req) => {
      if (sender(req) === 'parent')
        return hasToolResult(req)
          ? answer(`done: ${toolResults(req).join('')}`)
          : [
              call('t1', 'task', { description: 'find', prompt: 'Where is alpha?', subagent_type: 'code-finder' }),
              { type: 'done', stopReason: 'tool_calls' },
            ];
      return answer('alpha is in src/alpha.ts:1');
    },
  });
  await h.controller.send('r1', 'Where is alpha?', 'agent');
  const [card] = [...views().values()];
  const told = toolResults(provider.requests.filter((r) => sender(r) === 'parent').at(-1) ?? provider.requests[0]);
  assert.equal(card?.status, 'done', `the sub-agent did not run: ${told.join(' | ')}`);
  assert.equal(card?.model, 'scripted/m');
  assert.match(card?.modelNote ?? '', /no haiku model is configured/);
});

test('sub-agent transcripts are stored with the session, come back after a reopen, and are exported', async () => {
  const { dir, cleanup } = tempDir('subagents');
  try {
    let store = await open(dir);
    const { h } = await setup({
      store,
      route: (req) => {
        if (sender(req) === 'parent')
          return hasToolResult(req)
            ? answer('alpha found')
            : [
                call('t1', 'task', { description: 'find alpha', prompt: 'Where is alpha?', subagent_type: 'explore' }),
                { type: 'done', stopReason: 'tool_calls' },
              ];
        return hasToolResult(req)
          ? answer('alpha is in src/alpha.ts:1')
          : [call('g', 'grep', { pattern: 'alpha' }), usage(50, 5), { type: 'done', stopReason: 'tool_calls' }];
      },
    });
    await h.controller.send('r1', 'find alpha', 'agent');
    const sessionId = store.listSessions()[0]?.id;
    assert.ok(sessionId);
    await store.close();
    store = await open(dir);
    const stored = store.getSession(sessionId);
    const part = stored?.messages[1]?.parts.find((p) => p.type === 'tool' && p.call.name === 'task');
    assert.ok(part?.type === 'tool');
    const v = part.call.subagent;
    assert.equal(v?.name, 'explore');
    assert.equal(v?.status, 'done');
    assert.equal(v?.prompt, 'Where is alpha?');
    assert.ok(v?.steps.some((s) => s.kind === 'tool' && s.name === 'grep'));
    assert.ok(v?.steps.some((s) => s.kind === 'text' && s.text.includes('alpha is in src/alpha.ts:1')));
    const md = store.exportSession(sessionId, 'markdown') ?? '';
    assert.match(md, /\*\*Sub-agent: explore — done · 2 model calls/);
    assert.match(md, /→ grep alpha \(ok\)/);
    const htmlOut = store.exportSession(sessionId, 'html') ?? '';
    assert.match(htmlOut, /Sub-agent: explore — done/);
    assert.match(htmlOut, /alpha is in src\/alpha\.ts:1/);
    const json = store.exportSession(sessionId, 'json') ?? '';
    assert.match(json, /"subagent": \{\s*"name": "explore"/);
    await store.close();
  } finally {
    cleanup();
  }
});

async function waitUntil(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !cond(); i++) await new Promise((r) => setTimeout(r, 2));
  assert.ok(cond(), 'condition never held');
}
