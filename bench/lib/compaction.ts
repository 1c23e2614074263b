// Compaction time: a synthetic agent session (user turns, tool calls with 4 KB results, answers) of
// growing size is compacted through the real OpenAI SDK against the fake LLM (which answers at once
// with a brief), so the figure is Sextant's own cost: the estimate, the cut, the transcript, the
// request and the brief. Also the per-request check (estimating the prompt) that runs before every turn.
import {
  compact,
  estimateMessagesTokens,
  estimatePromptTokens,
  KEEP_RECENT,
  modelFacingHistory,
} from '../../extension/core/agent/compaction';
import * as openai from '../../extension/core/providers/openai';
import type { ModelMessage } from '../../extension/core/providers/types';
import { startFakeLlm } from '../../test/fixtures/fake-llm';

const BRIEF = [
  '## Goal',
  '- Refactor the billing module.',
  '## Facts the user gave',
  '- Prices are in cents.',
  '## Decisions',
  '- none',
  '## Files touched',
  '- src/billing.ts',
  '## Open todos',
  '- none',
].join('\n');

function session(targetTokens: number): ModelMessage[] {
  const out: ModelMessage[] = [];
  const file = 'export function price(cents: number) { return cents / 100; }\n'.repeat(64); // ~4 KB
  for (let i = 0; estimateMessagesTokens(out) < targetTokens; i++) {
    out.push({ role: 'user', content: `Step ${i}: change price() in src/mod${i}.ts so prices stay in cents.` });
    const call = { id: `c${i}`, name: 'read_file', argumentsJson: JSON.stringify({ file_path: `src/mod${i}.ts` }) };
    out.push({ role: 'assistant', text: 'Reading the file first.', toolCalls: [call] });
    out.push({
      role: 'tool',
      toolCallId: call.id,
      toolName: 'read_file',
      content: [{ type: 'text', text: file }],
      isError: false,
    });
    out.push({ role: 'assistant', text: `Changed src/mod${i}.ts: price() now keeps cents. ${'ok '.repeat(40)}` });
  }
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const fake = await startFakeLlm();
  fake.onRequest(() => ({ text: BRIEF }));
  const provider = openai.createProvider({ name: 'fake', kind: 'openai', baseUrl: `${fake.baseUrl}/v1` }, 'k');
  console.log('\n## Compaction time (real OpenAI SDK, fake LLM answering the brief at once; median of 5)');
  console.log('history tokens   messages   window     compaction   tokens after   estimate per request');
  for (const [tokens, window] of [
    [50_000, 64_000],
    [160_000, 204_800],
    [800_000, 1_000_000],
  ] as const) {
    const history = session(tokens);
    const runs: number[] = [];
    const estimates: number[] = [];
    let after = 0;
    for (let r = 0; r < 6; r++) {
      const e0 = performance.now();
      const before = estimatePromptTokens('system', [], history);
      estimates.push(performance.now() - e0);
      const t0 = performance.now();
      const done = await compact({
        provider,
        model: 'm',
        history,
        todos: [{ id: '1', content: 'Run the tests', status: 'pending' }],
        contextWindow: window,
        tokensBefore: before,
        fixedTokens: 0,
        keepTokens: KEEP_RECENT * window,
        trigger: 'auto',
        signal: new AbortController().signal,
        id: `c${r}`,
        now: () => Date.now(),
      });
      if (!done.ok) throw new Error(done.reason);
      if (r > 0) runs.push(performance.now() - t0); // the first run warms up the SDK and the connection
      after = estimateMessagesTokens(modelFacingHistory(history, done.compaction));
    }
    console.log(
      `${String(estimateMessagesTokens(history)).padStart(14)}   ${String(history.length).padStart(8)}   ` +
        `${String(window).padStart(9)}   ${median(runs).toFixed(1).padStart(8)} ms   ${String(after).padStart(12)}   ` +
        `${median(estimates).toFixed(2).padStart(12)} ms`,
    );
  }
  await fake.close();
}

void main();
