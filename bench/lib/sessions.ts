// Many agents at once, at the engine's level: N chats of one window (a SessionHub over real controllers and
// one real session store) each running an Agent request of STEPS tool steps against a model that takes
// MODEL_MS per call. Prints the wall time of the N together ÷ the slowest of them alone (the goal is ≤ 1.2:
// chats wait on their models, not on each other), Send → the request handed to the model in a fifth, idle
// chat while the N run, and the memory an idle chat adds. Worktree creation is `npm run bench -- worktrees`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatController } from '../../extension/core/agent/controller';
import { peekTool } from './peek-tool';
import type { ProviderEvent } from '../../extension/core/providers/types';
import { SessionHub } from '../../extension/core/sessions/session-hub';
import { openSessionStore } from '../../extension/core/store';
import { createToolRegistry } from '../../extension/core/tools/registry';

const CHATS = Number(process.env.SESSIONS_CHATS ?? 4);
const STEPS = Number(process.env.SESSIONS_STEPS ?? 50);
const MODEL_MS = Number(process.env.SESSIONS_MODEL_MS ?? 200);
const IDLE = 40;

const peek = peekTool(32);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = { info() {}, warn: (m: string) => console.error(`warn ${m}`), error: (m: string) => console.error(m) };

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-sessions-'));
  const store = await openSessionStore({
    dir,
    wasmPath: join(process.cwd(), 'node_modules/sql.js/dist/sql-wasm.wasm'),
    log,
  });
  let ids = 0;
  /** When each chat's request was last handed to its model (the fifth chat's first use is read from it). */
  const handedAt = new Map<string, number[]>();
  const hub = new SessionHub<ChatController>({
    newId: () => `slot${++ids}`,
    now: Date.now,
    create: (post, slot) => {
      const calls: number[] = [];
      handedAt.set(slot.id, calls);
      let n = 0;
      const controller: ChatController = new ChatController({
        host: {
          post,
          log,
          now: Date.now,
          newId: () => `${slot.id}-${++ids}`,
          trusted: () => true,
          hasWorkspaceFolder: () => true,
        },
        models: {
          resolveModel: async () => ({
            provider: {
              name: 'slow',
              kind: 'openai',
              async *stream(): AsyncIterable<ProviderEvent> {
                calls.push(performance.now());
                n++;
                await sleep(MODEL_MS);
                if (n <= STEPS) {
                  const call = { id: `c${n}`, name: 'peek', argumentsJson: JSON.stringify({ path: `src/f${n}.ts` }) };
                  yield { type: 'tool_call', call };
                  yield { type: 'usage', usage: { inputTokens: 1000 + n * 400, outputTokens: 30, cachedTokens: 0 } };
                  yield { type: 'done', stopReason: 'tool_calls' };
                } else {
                  yield { type: 'text', text: 'All read.' };
                  yield { type: 'done', stopReason: 'end' };
                }
              },
            },
            model: 'm',
            config: { name: 'slow', kind: 'openai', price: { input: 1, output: 2 } },
          }),
          modelChoices: async () => [{ ref: 'slow/m', label: 'Slow', hasKey: true }],
          defaultModel: () => 'slow/m',
          systemPrompt: () => 'You are a coding agent.',
        },
        limits: { maxSteps: () => STEPS + 10 },
        tools: {
          toolsFor: () => createToolRegistry([peek]),
          ports: { workspace: {} as never, search: { ripgrepPath: () => undefined }, terminal: {}, log },
          createSession: (sessionId) => ({ sessionId, readFiles: new Map(), todos: [], extras: new Map() }),
          disposeSession: () => {},
        },
        history: { persistence: store },
      });
      return { controller, handle: async () => {}, dispose: () => controller.dispose() };
    },
  });
  const run = async () => {
    const slot = hub.open();
    const t0 = performance.now();
    await slot.controller.send(`${slot.id}-r`, 'Read every file.', 'agent');
    if (slot.status.state !== 'done') throw new Error(`a chat ended ${slot.status.state}`);
    return performance.now() - t0;
  };

  await run(); // warm code (JIT) as in a used window
  const alone: number[] = [];
  for (let i = 0; i < CHATS; i++) alone.push(await run());
  const slowestAlone = Math.max(...alone);

  // The N together, and a fifth chat's Send halfway through.
  const t0 = performance.now();
  const together = Promise.all(Array.from({ length: CHATS }, run));
  await sleep((STEPS * MODEL_MS) / 2);
  const running = hub.slots().filter((s) => s.status.state === 'running').length;
  const fifth = hub.open();
  const sentAt = performance.now();
  const fifthDone = fifth.controller.send('fifth', 'A quick question.', 'agent');
  await together;
  const wall = performance.now() - t0;
  await fifthDone.catch(() => undefined);
  const firstUse = (handedAt.get(fifth.id)?.[0] ?? Number.NaN) - sentAt;
  await hub.sweep();

  // Memory: idle chats (each a controller with its own empty session) over a collected heap.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage();
  const idle = Array.from({ length: IDLE }, () => hub.open());
  gc?.();
  const after = process.memoryUsage();
  const perIdle = (after.rss - before.rss) / IDLE;
  const heapPerIdle = (after.heapUsed - before.heapUsed) / IDLE;
  for (const s of idle) await hub.close(s);

  await hub.dispose();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  const f = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`\n## Sessions: ${CHATS} chats × ${STEPS} tool steps, ${MODEL_MS} ms per model call (one window's hub)`);
  console.log(`alone: ${alone.map(f).join(', ')} (slowest ${f(slowestAlone)}); together: ${f(wall)}`);
  console.log(`wall ÷ slowest alone: ${(wall / slowestAlone).toFixed(3)} (goal ≤ 1.2)`);
  console.log(
    `a fifth, idle chat while ${running} run: Send → request handed to the model ${firstUse.toFixed(1)} ms ` +
      '(core; the real window adds the webview → host hop: npm run bench -- real-window)',
  );
  console.log(
    `an idle chat adds ${(Math.max(0, perIdle) / 1024 / 1024).toFixed(2)} MB RSS, ` +
      `${(heapPerIdle / 1024).toFixed(0)} KB heap ` +
      `(mean of ${IDLE}${gc ? ', after GC' : ', no --expose-gc'}; goal ≤ 5 MB)`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
