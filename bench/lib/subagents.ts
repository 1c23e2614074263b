// Sub-agents: N = 4 parallel read-only `explore` sub-agents against the fake LLM with a fixed latency per
// model call (real OpenAI SDK), wall time ÷ the slowest of the same sub-agents run alone (goal ≤ 1.2);
// and the parent's context (its last prompt) for the same task done with and without delegation.
import { runTurn, type TurnOptions } from '../../extension/core/agent/turn';
import { SubagentStops, withDelegation } from '../../extension/core/agent/task-tool';
import * as openai from '../../extension/core/providers/openai';
import { builtinTools, createToolRegistry, createToolSessionState } from '../../extension/core/tools/registry';
import { estimateTextTokens } from '../../extension/core/util/tokens';
import { type FakeReply, type RecordedRequest, startFakeLlm } from '../../test/fixtures/fake-llm';
import { createNodePorts, makeTempWorkspace } from '../../test/fixtures/node-ports';

const N = 4;
const LATENCY_MS = 300;
const TOPICS = ['alpha', 'beta', 'gamma', 'delta'];

interface OpenAiMessage {
  role: string;
  content?: unknown;
}
const bodyOf = (req: RecordedRequest) => req.body as { messages: OpenAiMessage[] };
const textOf = (c: unknown) => (typeof c === 'string' ? c : JSON.stringify(c ?? ''));

/** Each request answered by who sent it and how far it is: concurrent requests get their own replies. */
function reply(req: RecordedRequest): FakeReply {
  const messages = bodyOf(req).messages;
  const system = textOf(messages.find((m) => m.role === 'system')?.content);
  const user = textOf(messages.find((m) => m.role === 'user')?.content);
  const done = messages.filter((m) => m.role === 'tool').length;
  const base = { delayMs: LATENCY_MS };
  if (/^You are `explore`/.test(system)) {
    const topic = TOPICS.find((t) => user.includes(t)) ?? 'alpha';
    if (done === 0) return { ...base, toolCalls: [{ name: 'grep', arguments: { pattern: `export const ${topic}` } }] };
    if (done === 1) return { ...base, toolCalls: [{ name: 'read_file', arguments: { file_path: `src/${topic}.ts` } }] };
    return { ...base, text: `${topic} is defined in src/${topic}.ts:1 (a constant with a long comment).` };
  }
  // The parent: delegate, or do the searching itself.
  const delegating = /DELEGATE/.test(user);
  if (done === 0 && delegating)
    return {
      ...base,
      toolCalls: TOPICS.slice(0, N).map((t) => ({
        name: 'task',
        arguments: { description: `find ${t}`, prompt: `Where is ${t} defined?`, subagent_type: 'explore' },
      })),
    };
  if (done === 0)
    return { ...base, toolCalls: TOPICS.map((t) => ({ name: 'grep', arguments: { pattern: `export const ${t}` } })) };
  if (done === N && !delegating)
    return { ...base, toolCalls: TOPICS.map((t) => ({ name: 'read_file', arguments: { file_path: `src/${t}.ts` } })) };
  return { ...base, text: 'All four are constants in src/.' };
}

async function main() {
  const files: Record<string, string> = {};
  for (const t of TOPICS)
    files[`src/${t}.ts`] = `// ${'A long explanatory comment. '.repeat(300)}\nexport const ${t} = 1;\n`;
  const root = await makeTempWorkspace(files);
  const fake = await startFakeLlm({ responder: reply });
  const provider = openai.createProvider({ name: 'fake', kind: 'openai', baseUrl: `${fake.baseUrl}/v1` }, 'k');
  const target = {
    provider,
    model: 'm',
    ref: 'fake/m',
    config: { name: 'fake', kind: 'openai' as const, price: { input: 1, output: 2 } },
  };
  const ports = createNodePorts({ root });
  const tools = createToolRegistry(builtinTools());
  const limits = { maxConcurrent: () => N, maxSteps: () => 10, maxCostUsd: () => undefined };

  // The parent's task tool over the bench's tools and fake model: the same for every run.
  const delegateTo = () =>
    withDelegation(undefined, {
      services: { limits, stops: new SubagentStops() },
      parentTools: tools,
      parentTarget: target,
      resolveModel: async () => target,
      rulesSection: '',
      sessionId: 's',
      ports,
      now: () => performance.now(),
      createSession: createToolSessionState,
      disposeSession: () => {},
      limits,
      parentSpent: () => ({ inputTokens: 0, outputTokens: 0, cachedTokens: 0 }),
    });
  async function parentRun(text: string, delegate: boolean) {
    const delegation = delegate ? await delegateTo() : undefined;
    const before = fake.requests.length;
    const opts: TurnOptions = {
      sessionId: 's',
      provider,
      model: 'm',
      system: 'You are the parent agent.',
      tools: delegation?.tools ?? tools,
      toolSession: createToolSessionState('s'),
      ports,
      maxSteps: 10,
      supportsImages: false,
      signal: new AbortController().signal,
      now: () => performance.now(),
    };
    const spans = new Map<string, { start: number; end?: number }>();
    for await (const ev of runTurn([{ role: 'user', content: text }], opts)) {
      if (ev.type === 'subagent_updated') {
        const s = spans.get(ev.callId) ?? { start: performance.now() };
        if (['done', 'error', 'stopped'].includes(ev.subagent.status)) s.end = performance.now();
        spans.set(ev.callId, s);
      }
    }
    const parentRequests = fake.requests
      .slice(before)
      .filter((r) => !/^You are `/.test(textOf(bodyOf(r).messages.find((m) => m.role === 'system')?.content)));
    const last = parentRequests.at(-1);
    const context = last ? JSON.stringify(bodyOf(last).messages) : '';
    return { spans: [...spans.values()], contextChars: context.length, contextTokens: estimateTextTokens(context) };
  }

  // One sub-agent alone, each topic in turn: the slowest is the floor for running them side by side.
  const singles: number[] = [];
  await parentRunSingle('alpha'); // warm-up (first connection, JIT), not counted
  for (const t of TOPICS.slice(0, N)) {
    const start = performance.now();
    await parentRunSingle(t);
    singles.push(performance.now() - start);
  }
  async function parentRunSingle(topic: string) {
    const delegation = await delegateTo();
    const prepared = delegation.tools.prepare({
      id: 'x',
      name: 'task',
      argumentsJson: JSON.stringify({
        description: topic,
        prompt: `Where is ${topic} defined?`,
        subagent_type: 'explore',
      }),
    });
    await delegation.tools.execute(prepared, {
      signal: new AbortController().signal,
      ports,
      session: createToolSessionState('s'),
      callId: `single-${topic}`,
      progress: () => {},
      supportsImages: false,
    });
  }
  const slowest = Math.max(...singles);
  const parallel = await parentRun('DELEGATE: where are alpha, beta, gamma and delta defined?', true);
  const wall = Math.max(...parallel.spans.map((s) => s.end ?? 0)) - Math.min(...parallel.spans.map((s) => s.start));
  const direct = await parentRun('Where are alpha, beta, gamma and delta defined?', false);
  await fake.close();

  console.log(`\n## Sub-agents: ${N} parallel read-only explore sub-agents, fake LLM at ${LATENCY_MS} ms per call`);
  console.log(
    `each sub-agent: 3 model calls (grep, read_file, answer); real OpenAI SDK; sextant.agents.maxConcurrent ${N}`,
  );
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const num = (x: number) => x.toLocaleString('en-US');
  console.log(`single sub-agents alone: ${singles.map(ms).join(', ')} (slowest ${ms(slowest)})`);
  const ratio = (wall / slowest).toFixed(3);
  console.log(`${N} in parallel: wall ${ms(wall)}  →  wall ÷ slowest single = ${ratio} (goal ≤ 1.2)`);
  console.log('\n## Parent context for the same task (its last prompt: messages sent)');
  console.log(`without delegation: ${num(direct.contextChars)} chars (~${num(direct.contextTokens)} tokens)`);
  console.log(`with delegation:    ${num(parallel.contextChars)} chars (~${num(parallel.contextTokens)} tokens)`);
  console.log(
    `ratio: ${(direct.contextChars / Math.max(1, parallel.contextChars)).toFixed(1)}× smaller with delegation`,
  );
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
