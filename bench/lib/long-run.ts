// A long agent run with an instant model: one request of STEPS tool steps (each a read tool returning
// ~2 KB, then the model's next call) through the real ChatController, the real session store (journal
// appends, snapshots) and the view's reducer applied to every posted envelope. The harness's own time per
// step is the gap between the model's answer ending and the next request starting (everything but the
// model); request body bytes are measured inside the model call (not counted in the gap).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatController } from '../../extension/core/agent/controller';
import { peekTool } from './peek-tool';
import { createToolRegistry } from '../../extension/core/tools/registry';
import type { Provider, ProviderEvent, ProviderRequest } from '../../extension/core/providers/types';
import { applyEnvelope, emptyChatState } from '../../extension/protocol';
import { openSessionStore } from '../../extension/core/store';

const STEPS = Number(process.env.LONG_RUN_STEPS ?? 300);
const WINDOW = 30;
/** Steps of a first run in another chat, so the measured run starts with warm code (JIT), as in a used window. */
const WARM_UP = 100;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const peek = peekTool(64);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-long-run-'));
  const log = { info() {}, warn: (m: string) => console.error(`warn ${m}`), error: (m: string) => console.error(m) };
  const store = await openSessionStore({
    dir,
    wasmPath: join(process.cwd(), 'node_modules/sql.js/dist/sql-wasm.wasm'),
    log,
  });
  const starts: number[] = [];
  const ends: number[] = [];
  const bodyBytes: number[] = [];
  let n = 0;
  const provider: Provider = {
    name: 'instant',
    kind: 'openai',
    async *stream(req: ProviderRequest): AsyncIterable<ProviderEvent> {
      starts.push(performance.now());
      bodyBytes.push(Buffer.byteLength(JSON.stringify(req.messages)));
      n++;
      if (n !== WARM_UP + 1 && n <= WARM_UP + 1 + STEPS) {
        yield { type: 'text', text: `Step ${n}: reading the next file.` };
        const call = { id: `c${n}`, name: 'peek', argumentsJson: JSON.stringify({ path: `src/file-${n}.ts` }) };
        yield { type: 'tool_call', call };
        yield { type: 'usage', usage: { inputTokens: 1000 + n * 700, outputTokens: 40, cachedTokens: 0 } };
        yield { type: 'done', stopReason: 'tool_calls' };
      } else {
        yield { type: 'text', text: 'All files read.' };
        yield { type: 'done', stopReason: 'end' };
      }
      ends.push(performance.now());
    },
  };
  const view = emptyChatState();
  let id = 0;
  let done!: () => void;
  let finished = new Promise<void>((r) => (done = r));
  const controller = new ChatController({
    host: {
      post: (m) => {
        if (m.type !== 'events') return;
        for (const e of m.envelopes) {
          applyEnvelope(view, e); // the webview's reducer, as the view runs it
          if (['complete', 'error', 'aborted'].includes(e.event.type)) done();
        }
      },
      log,
      now: () => Date.now(),
      newId: () => `id${++id}`,
      trusted: () => true,
      hasWorkspaceFolder: () => true,
    },
    models: {
      resolveModel: async () => ({ provider, model: 'm', config: { name: 'instant', kind: 'openai' } }),
      modelChoices: async () => [{ ref: 'instant/m', label: 'Instant', hasKey: true }],
      defaultModel: () => 'instant/m',
      systemPrompt: () => 'You are a coding agent.',
    },
    limits: { maxSteps: () => STEPS + 10 },
    tools: {
      toolsFor: () => createToolRegistry([peek]),
      ports: {
        workspace: {} as never,
        search: { ripgrepPath: () => undefined },
        terminal: {},
        log,
      },
      createSession: (sessionId) => ({ sessionId, readFiles: new Map(), todos: [], extras: new Map() }),
      disposeSession: () => {},
    },
    history: { persistence: store },
  });
  await controller.send('r0', 'Warm up.', 'agent');
  await finished;
  finished = new Promise<void>((r) => (done = r));
  await controller.newChat();
  starts.length = 0;
  ends.length = 0;
  bodyBytes.length = 0;
  const t0 = performance.now();
  await controller.send('r1', 'Read every file.', 'agent');
  await finished;
  const total = performance.now() - t0;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  const gaps: number[] = [];
  for (let i = 0; i + 1 < starts.length; i++) gaps.push(starts[i + 1] - ends[i]);
  const first = median(gaps.slice(1, 1 + WINDOW));
  const last = median(gaps.slice(-WINDOW));
  if (process.env.LONG_RUN_GAPS) console.log(gaps.map((g) => g.toFixed(1)).join(' '));
  const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
  console.log(`\n## Long run: ${STEPS} agent steps, instant model, real controller + store + view reducer`);
  console.log(
    `harness time per step, median of ${WINDOW}: steps 2–${WINDOW + 1} ${first.toFixed(2)} ms, ` +
      `last ${WINDOW} ${last.toFixed(2)} ms, ratio ${(last / first).toFixed(2)} (Node ${process.version})`,
  );
  console.log(
    `request body (messages JSON): step 1 ${kb(bodyBytes[0])}, step ${bodyBytes.length} ${kb(bodyBytes.at(-1) ?? 0)}`,
  );
  console.log(`whole run ${total.toFixed(0)} ms; ${view.messages.length} messages in the view`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
