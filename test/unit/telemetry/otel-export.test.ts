// The OpenTelemetry export end to end: one Agent request with a file read and an approved command, through
// the real controller, loop, tools and OpenAI SDK against the fake LLM, exported both to the SDK's in-memory
// exporters and over OTLP/HTTP (JSON) to a local receiver that decodes it. Checks the span tree, the
// metrics, that no prompt, file or command text leaves with content off (and only redacted with it on), and
// that a receiver that is down changes nothing for the request.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { AggregationTemporality, InMemoryMetricExporter } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createOtelTelemetry, type OtelTelemetry } from '../../../extension/core/telemetry/otel';
import { createRedactor } from '../../../extension/core/security/redact';
import { startFakeLlm } from '../../fixtures/fake-llm';
import { startOtlpReceiver } from '../../fixtures/telemetry/otlp-receiver';
import { agentRequestRig, COMMAND_MARKER, FILE_MARKER, PROMPT_MARKER } from '../../fixtures/telemetry/agent-request';

const fakePromise = startFakeLlm();
after(async () => (await fakePromise).close());

function telemetry(endpoint: string | undefined, includeContent = false) {
  const spans = new InMemorySpanExporter();
  const metrics = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const logs: string[] = [];
  const t: OtelTelemetry = createOtelTelemetry({
    ...(endpoint ? { endpoint } : {}),
    headers: { 'x-collector-key': 'collector-secret-value' },
    serviceVersion: 'test',
    includeContent,
    redact: createRedactor(),
    log: { info: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(m) },
    spanExporters: [spans],
    metricExporters: [metrics],
    scheduledDelayMillis: 20,
    exportIntervalMillis: 60_000,
    exportTimeoutMillis: 1_000,
  });
  return { t, spans, metrics, logs };
}

const attr = (s: ReadableSpan, key: string) => s.attributes[key];
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId ?? '';

/** Every data point of a metric, as [attributes, value] (a histogram's value is its sum; count beside). */
function points(exporter: InMemoryMetricExporter, name: string) {
  const all =
    exporter
      .getMetrics()
      .at(-1)
      ?.scopeMetrics.flatMap((s) => s.metrics) ?? [];
  return all
    .filter((m) => m.descriptor.name === name)
    .flatMap((m) =>
      m.dataPoints.map((p) => {
        const v = p.value as number | { sum: number; count: number };
        return {
          attributes: p.attributes,
          value: typeof v === 'number' ? v : v.sum,
          count: typeof v === 'number' ? 1 : v.count,
        };
      }),
    );
}

test('one Agent request with tool calls: the span tree and metrics, in memory and over OTLP/HTTP', async () => {
  const fake = await fakePromise;
  fake.reset();
  const receiver = await startOtlpReceiver();
  const { t, spans, metrics } = telemetry(receiver.url);
  const rig = await agentRequestRig(fake, t.sink);
  const events = await rig.run('r1');
  assert.equal(events.at(-1)?.event.type, 'complete');
  await t.flush();

  const finished = spans.getFinishedSpans();
  const names = finished.map((s) => s.name).sort();
  assert.deepEqual(names, [
    'chat fake-model',
    'chat fake-model',
    'execute_tool bash',
    'execute_tool read_file',
    'invoke_agent sextant',
  ]);
  const root = finished.find((s) => s.name === 'invoke_agent sextant')!;
  assert.equal(parentOf(root), '', 'the request is the root');
  for (const s of finished.filter((x) => x !== root)) {
    assert.equal(parentOf(s), root.spanContext().spanId, `${s.name} is under the request`);
    assert.equal(s.spanContext().traceId, root.spanContext().traceId);
  }
  assert.equal(attr(root, 'gen_ai.operation.name'), 'invoke_agent');
  assert.equal(attr(root, 'gen_ai.conversation.id'), rig.controller.sessionId);
  assert.equal(attr(root, 'sextant.mode'), 'agent');
  assert.equal(attr(root, 'sextant.outcome'), 'complete');
  assert.equal(attr(root, 'gen_ai.usage.input_tokens'), 320);
  assert.equal(attr(root, 'gen_ai.usage.output_tokens'), 42);
  const chats = finished.filter((s) => s.name === 'chat fake-model');
  assert.deepEqual(chats.map((s) => attr(s, 'gen_ai.usage.input_tokens')).sort(), [120, 200]);
  assert.ok(chats.every((s) => attr(s, 'gen_ai.operation.name') === 'chat'));
  assert.ok(chats.every((s) => attr(s, 'gen_ai.request.model') === 'fake-model'));
  assert.ok(chats.some((s) => attr(s, 'gen_ai.usage.cache_read.input_tokens') === 100));
  const bash = finished.find((s) => s.name === 'execute_tool bash')!;
  assert.equal(attr(bash, 'gen_ai.operation.name'), 'execute_tool');
  assert.equal(attr(bash, 'gen_ai.tool.name'), 'bash');
  assert.equal(attr(bash, 'sextant.tool.outcome'), 'ok');
  assert.equal(attr(bash, 'sextant.tool.decided_by'), 'user');

  const tokens = points(metrics, 'gen_ai.client.token.usage');
  const byType = (type: string) =>
    tokens.filter((p) => p.attributes['gen_ai.token.type'] === type).reduce((n, p) => n + p.value, 0);
  assert.equal(byType('input'), 320);
  assert.equal(byType('output'), 42);
  assert.equal(
    points(metrics, 'gen_ai.client.operation.duration').reduce((n, p) => n + p.count, 0),
    2,
  );
  assert.equal(points(metrics, 'sextant.client.token.cached')[0]?.value, 100);
  const tools = points(metrics, 'sextant.tool.calls');
  assert.deepEqual(
    tools.map((p) => `${p.attributes['gen_ai.tool.name']}:${p.attributes['sextant.tool.outcome']}=${p.value}`).sort(),
    ['bash:ok=1', 'read_file:ok=1'],
  );
  const approvals = points(metrics, 'sextant.approvals');
  assert.deepEqual(approvals.map((p) => `${p.attributes['sextant.approval.outcome']}=${p.value}`).sort(), [
    'approved=1',
    'asked=1',
  ]);
  const cost = points(metrics, 'sextant.cost');
  assert.equal(cost.length, 1);
  assert.ok(cost[0]!.value > 0, 'the priced model has a cost');
  assert.equal(points(metrics, 'sextant.errors').length, 0);

  // The same over the wire, decoded from OTLP/JSON by the receiver, with the header from SecretStorage.
  const wire = receiver.spans();
  assert.deepEqual(wire.map((s) => s.name).sort(), names);
  const wireRoot = wire.find((s) => s.name === 'invoke_agent sextant')!;
  assert.ok(wire.filter((s) => s !== wireRoot).every((s) => s.parentSpanId === wireRoot.spanId));
  assert.equal(wire.find((s) => s.name === 'execute_tool bash')?.attributes['gen_ai.tool.name'], 'bash');
  const wireTokens = receiver.points().filter((p) => p.metric === 'gen_ai.client.token.usage');
  assert.equal(
    wireTokens.filter((p) => p.attributes['gen_ai.token.type'] === 'input').reduce((n, p) => n + p.value, 0),
    320,
  );
  assert.ok(receiver.points().some((p) => p.metric === 'sextant.tool.calls'));
  assert.ok(receiver.posts.every((p) => p.headers['x-collector-key'] === 'collector-secret-value'));
  assert.ok(receiver.posts.every((p) => String(p.headers['content-type']).startsWith('application/json')));

  // Content off: not one exported byte holds the prompt, the file's text or the command.
  const exported = [
    ...receiver.posts.map((p) => p.raw.toString('utf8')),
    JSON.stringify(finished.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events }))),
    JSON.stringify(metrics.getMetrics()),
  ].join('\n');
  for (const marker of [PROMPT_MARKER, FILE_MARKER, COMMAND_MARKER])
    assert.ok(!exported.includes(marker), `${marker} was exported`);
  await t.shutdown();
  await receiver.close();
});

test('content on: the prompt and the tool arguments go out, through the redactor', async () => {
  const fake = await fakePromise;
  fake.reset();
  const receiver = await startOtlpReceiver();
  const { t } = telemetry(receiver.url, true);
  const rig = await agentRequestRig(fake, t.sink);
  const key = 'sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX123456';
  await rig.run('r2', `Use ${key} to check. ${PROMPT_MARKER}`);
  await t.flush();
  const bytes = receiver.posts.map((p) => p.raw.toString('utf8')).join('\n');
  assert.ok(bytes.includes(PROMPT_MARKER), 'the prompt is exported when content is on');
  assert.ok(bytes.includes(COMMAND_MARKER), 'the command is exported when content is on');
  assert.ok(!bytes.includes(key), 'a key in the prompt is redacted');
  assert.ok(bytes.includes('[REDACTED]'));
  await t.shutdown();
  await receiver.close();
});

/** A port nothing listens on (bound, then closed). */
async function deadEndpoint(): Promise<string> {
  const server: Server | ReturnType<typeof createServer> = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

test('receiver down: nothing throws, the request completes, the lost spans are counted', async () => {
  const fake = await fakePromise;
  fake.reset();
  const { t, spans, logs } = telemetry(await deadEndpoint());
  const rig = await agentRequestRig(fake, t.sink);
  const events = await rig.run('r3');
  assert.equal(events.at(-1)?.event.type, 'complete');
  assert.ok(events.some((e) => e.event.type === 'text_delta'));
  await t.flush(); // resolves although the endpoint refuses every connection
  assert.equal(spans.getFinishedSpans().length, 5, 'the in-memory exporter beside it still got every span');
  assert.equal(t.dropped(), 5, 'the spans the dead endpoint did not take are counted');
  assert.equal(logs.filter((l) => l.includes('export failed')).length, 1, 'said once, not per batch');
  assert.ok(!logs.join('\n').includes('collector-secret-value'), 'headers never reach the log');
  await t.shutdown();
});
