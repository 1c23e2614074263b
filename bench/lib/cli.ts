// The `sextant` command's two figures (issue 38): a cold `sextant -p` process, from spawn to the first
// byte the model server receives (goal ≤ 150 ms), and the engine's overhead per agent step in a CLI run
// against the same request run in-process through the core turn (bench/agent-step.mjs's path), both
// measured at the fake server: from the end of one model response to the arrival of the next request.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runTurn } from '../../extension/core/agent/turn';
import * as openai from '../../extension/core/providers/openai';
import { builtinTools, createToolRegistry, createToolSessionState } from '../../extension/core/tools/registry';
import { startFakeLlm, type FakeLlm } from '../../test/fixtures/fake-llm';
import { createNodePorts } from '../../test/fixtures/node-ports';

const COLD_RUNS = 15;
const STEPS = 100;
const now = () => performance.timeOrigin + performance.now();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

function setup(fake: FakeLlm) {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'sextant-bench-cli-')));
  const home = path.join(base, 'home');
  const workspace = path.join(base, 'ws');
  mkdirSync(home);
  mkdirSync(workspace);
  writeFileSync(path.join(workspace, 'a.txt'), 'hello\n'.repeat(50));
  writeFileSync(
    path.join(home, 'settings.json'),
    JSON.stringify({
      'sextant.providers': [
        { name: 'fake', kind: 'openai', baseUrl: `${fake.baseUrl}/v1`, models: ['m'], apiKeyEnv: 'BENCH_KEY' },
      ],
      'sextant.defaultModel': 'fake/m',
      'sextant.agent.maxSteps': STEPS + 5,
    }),
  );
  return { home, workspace };
}

function runCli(cli: string, args: string[], home: string, cwd: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd,
      env: { ...process.env, SEXTANT_HOME: home, BENCH_KEY: 'sk-bench-0000000000' },
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    child.on('close', resolve);
  });
}

/** Per step: next request's arrival − the previous response's end, at the server. */
function gapsAt(fake: FakeLlm, ends: number[]): number[] {
  const llm = fake.requests.filter((r) => r.api === 'openai');
  const gaps: number[] = [];
  for (let i = 0; i + 1 < llm.length; i++) {
    const end = ends[i];
    const next = llm[i + 1];
    if (end !== undefined && next) gaps.push(next.receivedAt - end);
  }
  return gaps.slice(5); // warm-up: JIT, first connection
}

function agentResponder(fake: FakeLlm, ends: number[]) {
  let n = 0;
  fake.onRequest((req) => {
    const i = n++;
    void req.settled.then(() => (ends[i] = now()));
    return i < STEPS - 1 ? { toolCalls: [{ name: 'read_file', arguments: { file_path: 'a.txt' } }] } : { text: 'done' };
  });
}

async function coldStart(cli: string) {
  const fake = await startFakeLlm({ defaultReply: { text: 'ok' } });
  const { home, workspace } = setup(fake);
  const firstByte: number[] = [];
  const total: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    fake.reset();
    const t0 = now();
    await runCli(cli, ['-p', 'hi'], home, workspace);
    const t1 = now();
    const first = fake.requests.find((r) => r.api === 'openai');
    if (first) firstByte.push(first.receivedAt - t0);
    total.push(t1 - t0);
  }
  await fake.close();
  return { firstByte: median(firstByte.slice(2)), min: Math.min(...firstByte), total: median(total.slice(2)) };
}

async function cliSteps(cli: string) {
  const fake = await startFakeLlm();
  const { home, workspace } = setup(fake);
  const ends: number[] = [];
  agentResponder(fake, ends);
  await runCli(cli, ['-p', 'go', '--mode', 'agent'], home, workspace);
  const gaps = gapsAt(fake, ends);
  await fake.close();
  return median(gaps);
}

async function inProcessSteps() {
  const fake = await startFakeLlm();
  const { workspace } = setup(fake);
  const ends: number[] = [];
  agentResponder(fake, ends);
  const turn = runTurn([{ role: 'user', content: 'go' }], {
    sessionId: 's',
    provider: openai.createProvider({ name: 'fake', kind: 'openai', baseUrl: `${fake.baseUrl}/v1` }, 'k'),
    model: 'm',
    system: 'bench',
    tools: createToolRegistry(builtinTools()),
    toolSession: createToolSessionState('s'),
    ports: createNodePorts({ root: workspace }),
    maxSteps: STEPS + 5,
    supportsImages: false,
    signal: new AbortController().signal,
    now: () => performance.now(),
  });
  for await (const _ of turn) {
    // drained
  }
  const gaps = gapsAt(fake, ends);
  await fake.close();
  return median(gaps);
}

async function main() {
  const cli = process.argv[2];
  if (!cli) throw new Error('usage: cli.cjs <path to dist/cli.js>');
  const cold = await coldStart(cli);
  console.log(`\n## sextant -p, cold process (${COLD_RUNS} runs; goal: first byte ≤ 150 ms)`);
  console.log(
    `spawn → first byte at the model: median ${cold.firstByte.toFixed(0)} ms (best ${cold.min.toFixed(0)} ms); ` +
      `whole run ${cold.total.toFixed(0)} ms`,
  );
  const inProc = await inProcessSteps();
  const viaCli = await cliSteps(cli);
  console.log(`\n## Engine overhead per agent step (${STEPS} steps, read_file each, instant model; at the server)`);
  console.log(`core turn in-process (agent-step's path): median ${inProc.toFixed(2)} ms`);
  console.log(`sextant -p --mode agent (whole engine):   median ${viaCli.toFixed(2)} ms`);
  console.log(`ratio: ${(viaCli / inProc).toFixed(2)} (goal ≤ 1.10)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
