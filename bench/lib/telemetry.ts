// npm run bench -- telemetry: what the OpenTelemetry export costs.
// 1. One Agent request (a file read, an approved command, an answer; real loop, real OpenAI SDK, fake LLM
//    answering at once) with telemetry off vs on with the collector down vs on with a collector up:
//    median wall time per request.
// 2. The added time per tool call with the export on: the audit entry's trip to a span and three metrics.
// 3. Whether the activation bundle (dist/extension.js) holds any of the SDK (it must not: `npm run bench --
//    load` measures activation itself).
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createRedactor } from '../../extension/core/security/redact';
import { createOtelTelemetry, type OtelTelemetry } from '../../extension/core/telemetry/otel';
import type { AuditEntry } from '../../extension/core/security/audit-log';
import { startFakeLlm } from '../../test/fixtures/fake-llm';
import { agentRequestRig } from '../../test/fixtures/telemetry/agent-request';
import { startOtlpReceiver } from '../../test/fixtures/telemetry/otlp-receiver';

const REQUESTS = 30;
const TOOL_CALLS = 20_000;
const quiet = { info() {}, warn() {}, error() {} };

function otel(endpoint: string): OtelTelemetry {
  return createOtelTelemetry({
    endpoint,
    serviceVersion: 'bench',
    includeContent: false,
    redact: createRedactor(),
    log: quiet,
    scheduledDelayMillis: 200,
    exportIntervalMillis: 1_000,
    exportTimeoutMillis: 2_000,
  });
}

async function deadEndpoint(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** Requests of the three rigs interleaved (off, down, up, off, …), so machine load and JIT warm-up fall on all. */
async function requests(rigs: Array<{ label: string; sink: OtelTelemetry | undefined }>): Promise<number[]> {
  const fakes = await Promise.all(rigs.map(() => startFakeLlm()));
  const made = await Promise.all(rigs.map((r, i) => agentRequestRig(fakes[i]!, r.sink?.sink)));
  const times: number[][] = rigs.map(() => []);
  for (let i = 0; i < REQUESTS + 3; i++)
    for (let k = 0; k < made.length; k++) {
      const j = (i + k) % made.length;
      const start = performance.now();
      const events = await made[j]!.run(`r${i}`);
      const ms = performance.now() - start;
      if (events.at(-1)?.event.type !== 'complete') throw new Error(`${rigs[j]!.label}: request ${i} did not complete`);
      if (i >= 3) times[j]!.push(ms); // the first ones warm the SDK and the JIT
    }
  await Promise.all(fakes.map((f) => f.close()));
  return rigs.map((r, j) => {
    const m = median(times[j]!);
    console.log(`  ${r.label.padEnd(34)} ${m.toFixed(2)} ms per request (median of ${REQUESTS})`);
    return m;
  });
}

async function main() {
  console.log('# requests (read_file + approved bash + answer; the fake LLM answers at once)');
  const down = otel(await deadEndpoint());
  const receiver = await startOtlpReceiver();
  const up = otel(receiver.url);
  const [off = 0, whenDown = 0, whenUp = 0] = await requests([
    { label: 'telemetry off', sink: undefined },
    { label: 'on, collector down', sink: down },
    { label: 'on, collector up', sink: up },
  ]);
  console.log(
    `  collector down vs off: ${(whenDown - off >= 0 ? '+' : '') + (whenDown - off).toFixed(2)} ms per request`,
  );
  console.log(`  collector up vs off:   ${(whenUp - off >= 0 ? '+' : '') + (whenUp - off).toFixed(2)} ms per request`);
  await down.flush();
  await up.flush();
  console.log(`  spans the dead collector did not take (counted, dropped): ${down.dropped()}`);
  console.log(`  the live collector received: ${receiver.spans().length} spans in ${receiver.posts.length} posts`);

  console.log('\n# added time per tool call with the export on (span + tool, approval and error metrics)');
  const t = otel(await deadEndpoint());
  const request = t.sink.request({
    sessionId: 's',
    requestId: 'r',
    mode: 'agent',
    model: 'fake/m',
    text: 'x',
    startedAt: Date.now(),
  });
  const entry = (i: number): AuditEntry => ({
    sessionId: 's',
    callId: `c${i}`,
    tool: i % 2 ? 'read_file' : 'bash',
    decision: i % 2 ? 'allow' : 'ask',
    decidedBy: i % 2 ? 'rule' : 'user',
    status: 'ok',
    durationMs: 3,
    args: { command: 'npm test' },
  });
  for (let i = 0; i < 2_000; i++) request.toolCall(entry(i), Date.now()); // warm-up
  const start = performance.now();
  for (let i = 0; i < TOOL_CALLS; i++) request.toolCall(entry(i), Date.now());
  const perCall = (performance.now() - start) / TOOL_CALLS;
  console.log(`  ${(perCall * 1000).toFixed(1)} µs = ${perCall.toFixed(4)} ms per tool call (budget ≤ 0.2 ms)`);
  request.end({ outcome: 'complete' }, Date.now());
  await Promise.all([t.shutdown(), down.shutdown(), up.shutdown()]);
  await receiver.close();

  console.log('\n# activation');
  const bundle = join(process.cwd(), 'dist/extension.js');
  if (existsSync(bundle)) {
    const text = readFileSync(bundle, 'utf8');
    const has =
      text.includes('@opentelemetry') || text.includes('OTLPTraceExporter') || text.includes('BatchSpanProcessor');
    console.log(`  dist/extension.js holds OpenTelemetry code: ${has ? 'YES (regression)' : 'no'}`);
    const lazy = join(process.cwd(), 'dist/telemetry-otel.js');
    if (existsSync(lazy))
      console.log(
        `  dist/telemetry-otel.js (loaded only when enabled): ${(readFileSync(lazy).length / 1024).toFixed(0)} KB`,
      );
  } else console.log('  dist/extension.js missing: run `node esbuild.mjs --production` first');
  console.log('  activation time: `npm run bench -- load` (telemetry off is the default; nothing of it loads)');
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
