// The `sextant` command's two figures (issue 38).
//
// 1. A cold `sextant -p` process, from spawn to the first byte the model server receives (goal ≤ 150 ms,
//    median). Each run writes its start-up trace (SEXTANT_STARTUP_TRACE, extension/cli/startup-trace.ts),
//    so the time is broken down: Node's own start, the launcher, the command's bundle, flags + settings +
//    keys, the engine, and the request path to the wire. The floor is printed beside it: a bare `node`
//    that sends one HTTP request to the same server. The first run has no code cache (a fresh
//    SEXTANT_HOME); the others use the one it wrote.
// 2. Engine overhead per agent step, like for like: the same request (the same tools, the same scripted
//    model: STEPS read_file calls, then an answer) through `sextant -p --mode agent` (its own process) and
//    through the same engine driven without a process of its own (a worker thread of this one, so it
//    shares no event loop with the server, as the CLI's process does not), the way the extension's
//    runtime drives its controller: every posted envelope applied to the view's reducer, as the webview
//    does. Both are measured at the server: from the end of one model response to the arrival of the
//    next request.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createEngine } from '../../extension/engine/engine';
import { cliSearch, cliTerminal, cliWorkspace } from '../../extension/cli/ports';
import { cliSettings, readSettingsFile } from '../../extension/cli/settings-file';
import { fileState, memoryState } from '../../extension/cli/state-file';
import { applyEnvelope, emptyChatState } from '../../extension/protocol';
import { startFakeLlm, type FakeLlm } from '../../test/fixtures/fake-llm';

const COLD_RUNS = 15;
const STEPS = 100;
const STEP_ROUNDS = 3;
const KEY = 'sk-bench-0000000000';
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
  return { base, home, workspace };
}

function runNode(args: string[], env: Record<string, string | undefined>, cwd: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'ignore'] });
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

interface StartupTrace {
  timeOrigin: number;
  node: { bootstrap: number };
  codeCache?: string;
  marks: Record<string, number | undefined>;
}

/** One cold run's phases (ms), each from the previous instant; `firstByte` from spawn. */
function phases(t0: number, trace: StartupTrace, firstByteAt: number) {
  const m = trace.marks;
  const at = (v: number | undefined) => (v === undefined ? Number.NaN : v);
  const points: Array<[string, number]> = [
    ['spawn → process start', trace.timeOrigin - t0],
    ['Node bootstrap', at(trace.node.bootstrap)],
    ['launcher (dist/cli.js)', at(m.entry)],
    ['command bundle evaluated', at(m.loaded)],
    ['flags, settings, keys', at(m.settings)],
    ['engine modules + composition', at(m.engine)],
    ['prompt → first byte at the model', firstByteAt - trace.timeOrigin],
  ];
  const out: Record<string, number> = {};
  let prev = 0;
  for (const [name, v] of points) {
    out[name] = name === 'spawn → process start' ? v : v - prev;
    if (name !== 'spawn → process start') prev = v;
  }
  // engine → send is a few microseconds: folded into the last phase.
  out['spawn → first byte'] = firstByteAt - t0;
  return out;
}

async function floorRun(fake: FakeLlm, dir: string, env: Record<string, string | undefined>) {
  const script = path.join(dir, 'floor.js');
  writeFileSync(
    script,
    `const r = require('node:http').request(${JSON.stringify(`${fake.baseUrl}/v1/chat/completions`)}, ` +
      `{ method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => res.resume());\n` +
      `r.end('{"model":"m","messages":[],"stream":true}');\n`,
  );
  const firstBytes: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    fake.reset();
    const t0 = now();
    await runNode([script], env, dir);
    const first = fake.requests[0];
    if (first) firstBytes.push(first.receivedAt - t0);
  }
  return median(firstBytes);
}

async function coldStart(cli: string) {
  const fake = await startFakeLlm({ defaultReply: { text: 'ok' } });
  const { base, home, workspace } = setup(fake);
  const traceFile = path.join(base, 'trace.json');
  const env = { ...process.env, SEXTANT_HOME: home, BENCH_KEY: KEY, SEXTANT_STARTUP_TRACE: traceFile };
  const runs: Array<{ at: Record<string, number>; cache?: string }> = [];
  for (let i = 0; i <= COLD_RUNS; i++) {
    fake.reset();
    const t0 = now();
    await runNode([cli, '-p', 'hi'], env, workspace);
    const first = fake.requests.find((r) => r.api === 'openai');
    const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as StartupTrace;
    if (first)
      runs.push({ at: phases(t0, trace, first.receivedAt), ...(trace.codeCache ? { cache: trace.codeCache } : {}) });
  }
  const floor = await floorRun(fake, base, process.env);
  const { NODE_EXTRA_CA_CERTS: extraCerts, ...withoutCerts } = process.env;
  const floorNoCerts = extraCerts ? await floorRun(fake, base, withoutCerts) : undefined;
  await fake.close();
  rmSync(base, { recursive: true, force: true });
  return { first: runs[0], cached: runs.slice(1), floor, floorNoCerts, extraCerts: Boolean(extraCerts) };
}

async function cliSteps(cli: string) {
  const fake = await startFakeLlm();
  const { base, home, workspace } = setup(fake);
  const ends: number[] = [];
  agentResponder(fake, ends);
  await runNode(
    [cli, '-p', 'go', '--mode', 'agent'],
    { ...process.env, SEXTANT_HOME: home, BENCH_KEY: KEY },
    workspace,
  );
  const gaps = gapsAt(fake, ends);
  await fake.close();
  rmSync(base, { recursive: true, force: true });
  return gaps;
}

/**
 * The same engine without a process of its own, driven as the extension's runtime drives its controller.
 * It runs on a worker thread: like the CLI's process, it shares no event loop with the model's server.
 */
async function inProcessSteps(bundleDir: string) {
  const fake = await startFakeLlm();
  const { base, home, workspace } = setup(fake);
  const ends: number[] = [];
  agentResponder(fake, ends);
  const worker = new Worker(__filename, { workerData: { home, workspace, bundleDir } });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  await worker.terminate();
  const gaps = gapsAt(fake, ends);
  await fake.close();
  rmSync(base, { recursive: true, force: true });
  return gaps;
}

async function engineOnThisThread(o: { home: string; workspace: string; bundleDir: string }) {
  const { home, workspace, bundleDir } = o;
  const view = emptyChatState();
  const quiet = { info() {}, warn() {}, error() {} };
  const settings = cliSettings(readSettingsFile(path.join(home, 'settings.json')), {}, {});
  const engine = await createEngine({
    log: quiet,
    settings,
    secrets: { get: async () => undefined, set: async () => {}, delete: async () => {} },
    env: { ...process.env, BENCH_KEY: KEY },
    workspaceFolders: [workspace],
    storageDir: path.join(home, 'history'),
    bundleDir,
    ports: { workspace: cliWorkspace([workspace], () => []), search: cliSearch(process.env), terminal: cliTerminal },
    globalState: fileState(path.join(home, 'state.json')),
    workspaceState: memoryState(),
    trustWorkspace: false,
    // What the webview does with every message: the reducer over each envelope.
    post: (m) => {
      if (m.type === 'events') for (const e of m.envelopes) applyEnvelope(view, e);
    },
    approve: async () => ({ decision: 'deny' }),
    confirmKeyDestination: async () => 'no',
  });
  await engine.prompt('go', { mode: 'agent' });
  await engine.dispose();
}

function printCold(cold: Awaited<ReturnType<typeof coldStart>>) {
  console.log(`\n## sextant -p, cold process (${COLD_RUNS} runs; goal: median spawn → first byte ≤ 150 ms)`);
  const names = Object.keys(cold.cached[0]?.at ?? {});
  const med = (k: string) => median(cold.cached.map((r) => r.at[k] ?? Number.NaN));
  const firstBytes = cold.cached.map((r) => r.at['spawn → first byte'] ?? Number.NaN);
  console.log(
    `spawn → first byte at the model: median ${med('spawn → first byte').toFixed(0)} ms ` +
      `(best ${Math.min(...firstBytes).toFixed(0)} ms; code cache: ${cold.cached[0]?.cache ?? '?'}); ` +
      `first run, no cache yet: ${(cold.first?.at['spawn → first byte'] ?? Number.NaN).toFixed(0)} ms`,
  );
  console.log('breakdown (medians):');
  for (const k of names) if (k !== 'spawn → first byte') console.log(`  ${k.padEnd(34)} ${med(k).toFixed(1)} ms`);
  console.log(
    `floor — a bare \`node\` sending one HTTP request to the same server: ${cold.floor.toFixed(0)} ms` +
      (cold.floorNoCerts !== undefined
        ? `; without NODE_EXTRA_CA_CERTS (set here; Node reads the whole bundle at start): ` +
          `${cold.floorNoCerts.toFixed(0)} ms`
        : ''),
  );
  console.log(`sextant's own part (median − floor): ${(med('spawn → first byte') - cold.floor).toFixed(0)} ms`);
}

async function main() {
  const cli = process.argv[2];
  if (!cli) throw new Error('usage: cli.cjs <path to dist/cli.js>');
  // CLI_BENCH=cold or =steps runs one part only.
  const only = process.env.CLI_BENCH;
  if (only !== 'steps') printCold(await coldStart(cli));
  if (only === 'cold') return;
  // Alternated rounds, each side's median over all its steps: on a shared machine a burst of load
  // lands on both sides instead of on one.
  const inProcGaps: number[] = [];
  const cliGaps: number[] = [];
  for (let round = 0; round < STEP_ROUNDS; round++) {
    inProcGaps.push(...(await inProcessSteps(path.dirname(cli))));
    cliGaps.push(...(await cliSteps(cli)));
  }
  const inProc = median(inProcGaps);
  const viaCli = median(cliGaps);
  console.log(
    `\n## Engine overhead per agent step, like for like ` +
      `(${STEP_ROUNDS} alternated rounds × ${STEPS} steps, read_file each, instant model)`,
  );
  console.log(
    `the engine in-process (worker thread), driven as the extension drives it: median ${inProc.toFixed(2)} ms`,
  );
  console.log(`sextant -p --mode agent (its own process):                              median ${viaCli.toFixed(2)} ms`);
  console.log(`ratio: ${(viaCli / inProc).toFixed(2)} (goal ≤ 1.10)`);
}

if (isMainThread)
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
else
  void engineOnThisThread(workerData as { home: string; workspace: string; bundleDir: string }).then(() =>
    parentPort?.postMessage('done'),
  );
