// Cache-stable requests: a 30-step Agent session (the real agent prompt, the real tools on a temporary
// workspace, the real SDKs against the fake LLM). Prints the share of each prompt's bytes that the next
// request repeats as its prefix, the loop's per-step overhead with the cache breakpoints on, and what the
// session would cost at the Anthropic preset's Sonnet prices with the reused prefix billed as cached.
import { runTurn } from '../../extension/core/agent/turn';
import { systemPromptFor } from '../../extension/core/agent/prompts';
import { costOf } from '../../extension/core/usage/cost';
import { builtinTools, createToolRegistry, createToolSessionState } from '../../extension/core/tools/registry';
import { PRESETS } from '../../extension/core/providers/presets';
import * as openai from '../../extension/core/providers/openai';
import * as anthropic from '../../extension/core/providers/anthropic';
import type { Provider, ProviderEvent, ProviderRequest } from '../../extension/core/providers/types';
import { startFakeLlm, type FakeReply } from '../../test/fixtures/fake-llm';
import { promptText, prefixShare, prefixSteps } from '../../test/fixtures/prefix-stability';
import { createNodePorts, makeTempWorkspace } from '../../test/fixtures/node-ports';
import { ProjectContext } from '../../extension/core/extensions/project-context';
import { projectFilesOver } from '../../extension/core/extensions/project-files';
import { createSkillTool } from '../../extension/core/extensions/skill-tool';
import { withNestedRules } from '../../extension/core/extensions/nested-rules';
import { resolveReferences } from '../../extension/core/extensions/references/resolve';
import { messageWithAttachments } from '../../extension/core/extensions/references/attach';
import { toolSearchFigures } from './prefix-tool-search';

const STEPS = 30;
const STARTED = new Date();
const CHARS_PER_TOKEN = 4;

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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** The calls of the session: reads, listings and searches over a small project, then an answer. */
function stepReply(i: number): FakeReply {
  const calls = [
    { name: 'read_file', arguments: { file_path: `src/module-${i % 6}.ts` } },
    { name: 'ls', arguments: { path: 'src' } },
    { name: 'grep', arguments: { pattern: `export function f${i % 6}`, path: 'src' } },
  ];
  return { text: `Step ${i}: checking.`, toolCalls: [calls[i % calls.length]] };
}

async function measure(kind: 'openai' | 'anthropic') {
  const fake = await startFakeLlm();
  const files: Record<string, string> = {};
  for (let m = 0; m < 6; m++)
    files[`src/module-${m}.ts`] = Array.from({ length: 40 }, (_, l) => `export function f${m}_${l}() { return ${l}; }`)
      .join('\n')
      .concat('\n');
  // Rules and skills present, as in a real repository: they sit in the prompt's stable part.
  files['AGENTS.md'] =
    `# Conventions\n${'Prefer small pure functions; name files after their one concept.\n'.repeat(40)}`;
  files['src/AGENTS.md'] = 'Modules here export functions only.\n';
  files['.claude/skills/audit/SKILL.md'] = '---\nname: audit\ndescription: Audit exports for dead code\n---\nSteps…\n';
  const root = await makeTempWorkspace(files);
  const ports = createNodePorts({ root });
  const project = new ProjectContext(projectFilesOver(ports.workspace, undefined));
  const loaded = await project.load(true);
  const environment = { workspaceRoots: [root], platform: process.platform, date: STARTED };
  let previous = '';
  let n = 0;
  fake.onRequest((req) => {
    // A provider cache in miniature: the prefix shared with the previous request is reported as cached.
    const text = promptText(req.body);
    let shared = 0;
    while (shared < previous.length && shared < text.length && previous[shared] === text[shared]) shared++;
    previous = text;
    const usage = {
      inputTokens: Math.ceil(text.length / CHARS_PER_TOKEN),
      cachedTokens: Math.floor(shared / CHARS_PER_TOKEN),
      outputTokens: 60,
    };
    return ++n < STEPS ? { ...stepReply(n), usage } : { text: 'All checked.', usage };
  });
  const mod = kind === 'openai' ? openai : anthropic;
  const marks = { start: [] as number[], end: [] as number[] };
  const provider = timed(
    mod.createProvider({ name: 'fake', kind, baseUrl: kind === 'openai' ? `${fake.baseUrl}/v1` : fake.baseUrl }, 'k'),
    marks,
  );
  const toolMs: number[] = [];
  let usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
  // An `@` attachment, as the composer sends it: the file's content below the user's text.
  const attached = await resolveReferences([{ kind: 'file', value: 'src/module-1.ts', label: '@src/module-1.ts' }], {
    workspace: ports.workspace,
    ripgrepPath: () => undefined,
    editor: {
      selection: async () => undefined,
      problems: async () => '',
      terminalOutput: async () => undefined,
    },
    confirmRead: async () => false,
  });
  if (!attached.ok) throw new Error(attached.message);
  const userText = messageWithAttachments('Check every module for unused exports.', attached.attachments);
  const turn = runTurn([{ role: 'user', content: userText }], {
    sessionId: 's',
    provider,
    model: 'm',
    system: `${systemPromptFor('agent', environment)}\n\n${loaded.section}`,
    tools: withNestedRules(createToolRegistry([...builtinTools(), createSkillTool(project.files)]), project.files),
    toolSession: createToolSessionState('s'),
    ports,
    maxSteps: STEPS + 1,
    supportsImages: false,
    signal: new AbortController().signal,
    now: () => performance.now(),
  });
  for await (const ev of turn) {
    if (ev.type === 'tool_updated' && ev.call.durationMs !== undefined && ev.call.status !== 'running')
      toolMs.push(ev.call.durationMs);
    if (ev.type === 'usage') usage = ev.usage;
  }
  const bodies = fake.requests.map((r) => r.body);
  await fake.close();
  const steps = prefixSteps(bodies);
  const gaps: number[] = [];
  for (let i = 0; i + 1 < marks.start.length; i++) gaps.push(marks.start[i + 1] - marks.end[i] - (toolMs[i] ?? 0));
  return {
    requests: bodies.length,
    share: prefixShare(steps),
    worst: Math.min(...steps.map((s) => s.shared / s.previousLength)),
    lastKb: promptText(bodies.at(-1)).length / 1024,
    overhead: median(gaps.slice(3)),
    usage,
  };
}

async function main() {
  const sonnet = PRESETS.find((p) => p.name === 'anthropic')?.modelInfo?.['claude-sonnet-4-5']?.price;
  console.log(
    `\n## Prompt prefix stability (${STEPS}-step Agent session, real prompt and tools, AGENTS.md, a skill, an @ file)`,
  );
  console.log(
    'kind        requests   prefix share   worst step   last prompt   overhead/step   Sonnet cost cached / uncached',
  );
  for (const kind of ['openai', 'anthropic'] as const) {
    const r = await measure(kind);
    const cached = costOf(r.usage, sonnet) ?? 0;
    const uncached = costOf({ ...r.usage, cachedTokens: 0 }, sonnet) ?? 0;
    console.log(
      `${kind.padEnd(10)} ${String(r.requests).padStart(9)}   ${(r.share * 100).toFixed(2).padStart(10)} %   ` +
        `${(r.worst * 100).toFixed(2).padStart(8)} %   ${r.lastKb.toFixed(1).padStart(8)} KB   ` +
        `${r.overhead.toFixed(2).padStart(10)} ms   $${cached.toFixed(4)} / $${uncached.toFixed(4)}`,
    );
  }
  console.log('(prefix share: bytes of each prompt the next request repeats as its prefix; target ≥ 95 %)');
  await toolSearchFigures();
}

void main();
