// MCP servers as research sources (issue 43 item 3), against a real local MCP server (our SDK test
// server over stdio, a real child process, through the real MCP manager) with the fake LLM: a resource
// of an approved server is read, cited as `server:uri` and verified by the same verifier as a web page
// (a distorted claim citing it is not); read-only tools are asked about once per run and run only when
// approved; a workspace server the user has not approved is never started.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { researchRequest } from '../../../extension/core/agent/research-request';
import type { ResearchHost } from '../../../extension/core/research/host';
import { DEFAULT_LIMITS, type ResearchEvent } from '../../../extension/core/research/loop/research-run';
import { createMcpSources, type McpQueryTool } from '../../../extension/core/research/mcp/mcp-sources';
import { claimJudgeFrom } from '../../../extension/core/research/verify';
import { collectText } from '../../../extension/core/research/loop/llm-text';
import { mcpResearchPort } from '../../../extension/core/mcp/research-port';
import type { Report } from '../../../extension/protocol';
import { RETRY_POLICY } from '../../fixtures/mcp/test-server';
import type { FakeReply, RecordedRequest } from '../../fixtures/fake-llm';
import { useResearchModel } from '../../fixtures/research/research-model';
import { createManager, none, source, started, stdioServer, tempDir } from '../mcp/harness';

const model = useResearchModel(['planner', 'gaps', 'writer', 'judge']);
const script = model.script;

const PLAN = {
  text: JSON.stringify({
    question: 'How does the payment service retry failed charges?',
    subQuestions: ['How many times is a failed charge retried?'],
    queries: [{ query: 'payment service retry failed charge' }],
    expectedOutput: 'A cited answer.',
  }),
};

/** The writer cites whatever number the MCP resource got (it reads it from its sources). */
const writerCiting = (r: RecordedRequest): FakeReply => {
  const n = /Source \[(\d+)\]: Retry policy \(docs\)/.exec(JSON.stringify(r.body))?.[1];
  assert.ok(n, 'the writer was given the MCP resource as a source');
  return {
    text: [
      '# Retries',
      `- The payment service retries a failed charge at most three times [${n}].`,
      `- Refunds are retried automatically five times [${n}].`,
    ].join('\n'),
  };
};

/** A workspace-only run (no web, no search key) over a research host whose MCP sources are the manager's. */
async function run(
  manager: ReturnType<typeof createManager>['manager'],
  approveTools: (tools: McpQueryTool[]) => boolean,
) {
  const asks: McpQueryTool[][] = [];
  const refuse = async (): Promise<never> => {
    throw new Error('no web in this test');
  };
  const host: ResearchHost = {
    services: async () => ({ search: refuse, fetchPage: refuse }),
    workspaceServices: async () => ({ search: refuse, fetchPage: refuse }),
    limits: () => ({ ...DEFAULT_LIMITS, minSearches: 1, maxSearches: 2 }),
    judge: async () =>
      claimJudgeFrom((req, signal) =>
        collectText({ provider: model.provider(), model: 'fast' }, { system: req.system, user: req.user }, signal),
      ),
    mcpSources: (approve) => createMcpSources(mcpResearchPort(manager), approve),
  };
  const events: ResearchEvent[] = [];
  let n = 0;
  for await (const e of researchRequest({
    question: 'How does the payment service retry failed charges?',
    research: host,
    llm: { provider: model.provider(), model: 'fake-model' },
    scope: 'workspace',
    approveMcpTools: async (tools) => {
      asks.push(tools);
      return approveTools(tools);
    },
    signal: new AbortController().signal,
    now: () => Date.now(),
    newId: () => `id${++n}`,
  }))
    events.push(e);
  const r = events.find((e) => e.type === 'report');
  return { events, asks, report: r?.type === 'report' ? (r.report as Report) : undefined };
}

test('an approved MCP server: its resource is cited as server:uri and verified like a page', async (t) => {
  const { manager } = createManager();
  t.after(() => manager.dispose());
  manager.setSources({ workspace: none, user: source({ docs: await stdioServer(tempDir(), { RESEARCH_DOCS: '1' }) }) });
  const asked = await script({
    planner: PLAN,
    writer: writerCiting,
    judge: (r) =>
      JSON.stringify(r.body).includes('five times')
        ? { text: '{"verdict":"unsupported","reason":"the policy says refunds are never retried"}' }
        : { text: '{"verdict":"supported","reason":"same facts"}' },
  });
  const { report, asks, events } = await run(manager, () => false);
  assert.ok(report, 'a report was delivered');
  const cited = report.sources.find((s) => s.url === 'docs:docs://retry-policy');
  assert.ok(cited, `cited as server:uri: ${JSON.stringify(report.sources)}`);
  assert.match(cited.title, /Retry policy/);
  // The true claim is verified against the resource's text; the distorted one is not.
  const verdictOf = (re: RegExp) => report.verdicts.find((v) => re.test(v.claim))?.verdict;
  assert.equal(verdictOf(/at most three times/), 'supported', JSON.stringify(report.verdicts));
  assert.notEqual(verdictOf(/five times/), 'supported', JSON.stringify(report.verdicts));
  // The writer saw the resource's own text (read from the server, not made up here).
  const writer = asked.find((a) => a.role === 'writer')?.body ?? '';
  assert.ok(writer.includes(JSON.stringify(RETRY_POLICY.split('\n')[2]).slice(1, -1)));
  // The echo tool (read-only, one text argument) was asked about once for the run; declined, never called.
  assert.equal(asks.length, 1);
  assert.deepEqual(
    asks[0].map((t) => `${t.server}/${t.name}`),
    ['docs/echo'],
  );
  assert.ok(!report.sources.some((s) => s.url.startsWith('docs:tool:')), 'a declined tool gives no source');
  // Only read-only tools are offered at all: write_note (destructive) is not, whatever its arguments.
  const offered = manager.researchOffer().tools.map((t) => t.name);
  assert.ok(offered.includes('echo') && !offered.includes('write_note'), offered.join());
  // Each MCP search is a read card.
  const cards = events.filter((e) => e.type === 'tool_started' && e.call.name === 'mcp_sources');
  assert.ok(cards.length >= 1);
});

test('read-only tools approved once per run are called with the query and cited', async (t) => {
  const { manager } = createManager();
  t.after(() => manager.dispose());
  manager.setSources({ workspace: none, user: source({ docs: await stdioServer(tempDir(), { RESEARCH_DOCS: '1' }) }) });
  await script({
    planner: PLAN,
    writer: (r) => {
      const n = /Source \[(\d+)\]: echo: /.exec(JSON.stringify(r.body))?.[1];
      assert.ok(n, 'the tool answer is a source');
      return { text: `# Echo\n\n- The echo tool answered with the payment service retry failed charge query [${n}].` };
    },
    judge: { text: '{"verdict":"supported","reason":"ok"}' },
  });
  const { report, asks } = await run(manager, () => true);
  assert.ok(report);
  assert.equal(asks.length, 1, 'asked once for the whole run, whatever the number of queries');
  const tool = report.sources.find((s) => s.url.startsWith('docs:tool:echo?'));
  assert.ok(tool, JSON.stringify(report.sources));
});

test('a workspace server the user has not approved is never started and gives no source', async (t) => {
  const markers = tempDir();
  const { manager } = createManager();
  t.after(() => manager.dispose());
  manager.setSources({ workspace: source({ docs: await stdioServer(markers, { RESEARCH_DOCS: '1' }) }), user: none });
  await script({ planner: PLAN, writer: { text: '# Nothing\n\n- Nothing was found [1].' } });
  const { report, events } = await run(manager, () => true);
  assert.deepEqual(started(markers), [], 'no process was started');
  assert.ok(!report?.sources.some((s) => s.url.startsWith('docs:')));
  const cards = events.filter((e) => e.type === 'tool_updated' && e.call.name === 'mcp_sources');
  assert.ok(cards.every((e) => e.type === 'tool_updated' && /Nothing matching/.test(e.call.preview ?? '')));
});
