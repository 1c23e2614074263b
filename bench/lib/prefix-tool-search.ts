// MCP tool search in the prefix bench: 100 MCP tools configured, a 30-step Agent session over the real
// SDKs against the fake LLM, once with every MCP definition sent ("off") and once behind tool_search
// ("on"), in which the model loads two tools by name and then calls them. Prints the bytes of tool
// definitions each request carries and the share of each prompt the next request repeats as its prefix.
import { runTurn } from '../../extension/core/agent/turn';
import { systemPromptFor } from '../../extension/core/agent/prompts';
import { builtinTools, createToolRegistry, createToolSessionState } from '../../extension/core/tools/registry';
import { mcpTool } from '../../extension/core/mcp/mcp-tool';
import { registryWithToolSearch, TOOL_SEARCH } from '../../extension/core/mcp/tool-search';
import * as openai from '../../extension/core/providers/openai';
import * as anthropic from '../../extension/core/providers/anthropic';
import type { AnyTool } from '../../extension/core/tools/types';
import { startFakeLlm, type FakeReply } from '../../test/fixtures/fake-llm';
import { prefixShare, prefixSteps } from '../../test/fixtures/prefix-stability';
import { createNodePorts, makeTempWorkspace } from '../../test/fixtures/node-ports';

const STEPS = 30;
const MCP_TOOLS = 100;

/** 100 tools shaped like a real tracker/CI server's: a paragraph of description, a schema of a few fields. */
function mcpTools(): AnyTool[] {
  return Array.from({ length: MCP_TOOLS }, (_, i) =>
    mcpTool(
      `server${i % 5}`,
      {
        name: `action_${i}`,
        description:
          `Performs action ${i} on issues, pull requests and pipelines of the project. ` +
          'Returns the updated object as JSON. Use the filters to narrow the result; pagination is by cursor, ' +
          'and a missing permission is reported as an error with the scope it needs.',
        inputSchema: {
          type: 'object',
          properties: {
            owner: { type: 'string', description: 'Repository owner' },
            repo: { type: 'string', description: 'Repository name' },
            id: { type: 'integer', description: 'Issue or pull request number' },
            state: { type: 'string', enum: ['open', 'closed', 'all'], description: 'Filter by state' },
            cursor: { type: 'string', description: 'Pagination cursor from the previous page' },
          },
          required: ['owner', 'repo'],
        },
        annotations: { readOnlyHint: true },
      },
      async () => ({ forModel: `{"ok":true,"action":${i}}`, forUi: 'ok', isError: false }),
    ),
  );
}

function stepReply(i: number, search: boolean): FakeReply {
  const target = (n: number) => `mcp__server${n % 5}__action_${n}`;
  if (search && i === 1)
    return {
      text: 'Loading tools.',
      toolCalls: [{ name: TOOL_SEARCH, arguments: { names: [target(7), target(42)] } }],
    };
  if (search && i === 9)
    return { text: 'Searching.', toolCalls: [{ name: TOOL_SEARCH, arguments: { query: 'action 63' } }] };
  const n = [7, 42, 63][i % 3];
  return { text: `Step ${i}.`, toolCalls: [{ name: target(n), arguments: { owner: 'o', repo: 'r', id: i } }] };
}

async function measure(kind: 'openai' | 'anthropic', search: boolean) {
  const fake = await startFakeLlm();
  let n = 0;
  fake.onRequest(() => (++n < STEPS ? stepReply(n, search) : { text: 'Done.' }));
  const root = await makeTempWorkspace({ 'README.md': '# project\n' });
  const ports = createNodePorts({ root });
  const mod = kind === 'openai' ? openai : anthropic;
  const provider = mod.createProvider(
    { name: 'fake', kind, baseUrl: kind === 'openai' ? `${fake.baseUrl}/v1` : fake.baseUrl },
    'k',
  );
  const tools = search
    ? registryWithToolSearch(builtinTools(), mcpTools())
    : createToolRegistry([...builtinTools(), ...mcpTools()]);
  const environment = { workspaceRoots: [root], platform: process.platform, date: new Date(0) };
  const turn = runTurn([{ role: 'user', content: 'Triage the open issues.' }], {
    sessionId: 's',
    provider,
    model: 'm',
    system: systemPromptFor('agent', environment),
    tools,
    toolSession: createToolSessionState('s'),
    ports,
    maxSteps: STEPS + 1,
    supportsImages: false,
    signal: new AbortController().signal,
    now: () => performance.now(),
  });
  let errors = 0;
  for await (const ev of turn) if (ev.type === 'tool_updated' && ev.call.status === 'error') errors++;
  const bodies = fake.requests.map((r) => r.body);
  await fake.close();
  const mcpBytes = (body: unknown) => {
    const list = ((body as { tools?: unknown[] }).tools ?? []) as Array<Record<string, unknown>>;
    const name = (t: Record<string, unknown>) =>
      String((t.function as { name?: string } | undefined)?.name ?? t.name ?? '');
    return JSON.stringify(list.filter((t) => name(t).startsWith('mcp__') || name(t) === TOOL_SEARCH)).length;
  };
  const steps = prefixSteps(bodies);
  return {
    requests: bodies.length,
    mcpBytes: mcpBytes(bodies[0]),
    share: prefixShare(steps),
    worst: Math.min(...steps.map((s) => s.shared / s.previousLength)),
    errors,
  };
}

export async function toolSearchFigures(): Promise<void> {
  console.log(`\n## MCP tool search (${MCP_TOOLS} MCP tools, ${STEPS}-step Agent session, two loads then calls)`);
  console.log('kind        search   requests   MCP tool definitions   prefix share   worst step   failed calls');
  for (const kind of ['openai', 'anthropic'] as const) {
    const off = await measure(kind, false);
    const on = await measure(kind, true);
    for (const [label, r] of [
      ['off', off],
      ['on', on],
    ] as const)
      console.log(
        `${kind.padEnd(10)}  ${label.padEnd(6)} ${String(r.requests).padStart(9)}   ` +
          `${(r.mcpBytes / 1024).toFixed(1).padStart(15)} KB   ${(r.share * 100).toFixed(2).padStart(10)} %   ` +
          `${(r.worst * 100).toFixed(2).padStart(8)} %   ${String(r.errors).padStart(12)}`,
      );
    const ratio = (off.mcpBytes / on.mcpBytes).toFixed(1);
    console.log(`${kind.padEnd(10)}  tool definitions ${ratio}× smaller with search`);
  }
  console.log('(targets: ≥ 5× smaller; prefix share ≥ 99 % with search on)');
}
