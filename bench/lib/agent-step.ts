// Harness overhead per agent step: with the fake LLM answering instantly, the time from the end of
// one model stream to the start of the next request, minus the time the tool itself ran.
import { runTurn } from '../../extension/core/agent/turn';
import { builtinTools, createToolRegistry, createToolSessionState } from '../../extension/core/tools/registry';
import * as openai from '../../extension/core/providers/openai';
import * as anthropic from '../../extension/core/providers/anthropic';
import type { Provider, ProviderEvent, ProviderRequest } from '../../extension/core/providers/types';
import { startFakeLlm } from '../../test/fixtures/fake-llm';
import { createNodePorts, makeTempWorkspace } from '../../test/fixtures/node-ports';

const STEPS = 200;

function timed(inner: Provider, marks: { start: number[]; end: number[] }): Provider {
  return {
    name: inner.name,
    kind: inner.kind,
    async *stream(req: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
      marks.start.push(performance.now());
      for await (const ev of inner.stream(req, signal)) yield ev;
      marks.end.push(performance.now());
    },
  };
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

async function measure(kind: 'openai' | 'anthropic') {
  const fake = await startFakeLlm();
  const root = await makeTempWorkspace({ 'a.txt': 'hello\n'.repeat(50) });
  let n = 0;
  fake.onRequest(() =>
    ++n < STEPS ? { toolCalls: [{ name: 'read_file', arguments: { file_path: 'a.txt' } }] } : { text: 'done' },
  );
  const mod = kind === 'openai' ? openai : anthropic;
  const marks = { start: [] as number[], end: [] as number[] };
  const provider = timed(
    mod.createProvider({ name: 'fake', kind, baseUrl: kind === 'openai' ? `${fake.baseUrl}/v1` : fake.baseUrl }, 'k'),
    marks,
  );
  const toolMs: number[] = [];
  const turn = runTurn([{ role: 'user', content: 'go' }], {
    sessionId: 's',
    provider,
    model: 'm',
    system: 'bench',
    tools: createToolRegistry(builtinTools()),
    toolSession: createToolSessionState('s'),
    ports: createNodePorts({ root }),
    maxSteps: STEPS + 1,
    supportsImages: false,
    signal: new AbortController().signal,
    now: () => performance.now(),
  });
  for await (const ev of turn) {
    if (ev.type === 'tool_updated' && ev.call.status === 'ok' && ev.call.durationMs !== undefined)
      toolMs.push(ev.call.durationMs);
  }
  await fake.close();
  const gaps: number[] = [];
  for (let i = 0; i + 1 < marks.start.length; i++) gaps.push(marks.start[i + 1] - marks.end[i] - (toolMs[i] ?? 0));
  const steady = gaps.slice(5); // skip warm-up (JIT, first connection)
  return {
    kind,
    steps: marks.start.length,
    median: pct(steady, 0.5),
    p95: pct(steady, 0.95),
    toolMedian: pct(toolMs, 0.5),
  };
}

async function main() {
  console.log(`\n## Agent loop overhead per step (${STEPS} steps, read_file each step, fake LLM answers instantly)`);
  console.log('kind        steps   overhead median   overhead p95   (tool median)');
  for (const kind of ['openai', 'anthropic'] as const) {
    const r = await measure(kind);
    console.log(
      `${r.kind.padEnd(10)} ${String(r.steps).padStart(6)}   ${r.median.toFixed(2).padStart(12)} ms   ` +
        `${r.p95.toFixed(2).padStart(9)} ms   (${r.toolMedian.toFixed(2)} ms)`,
    );
  }
}

void main();
