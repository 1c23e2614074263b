// Compaction: a scripted session crosses the context window; older turns become a brief made by one
// model call; the fact the user gave in turn 2 still reaches the model; the originals stay in the
// store (model history, chat, memory search); reload, todos, the approved plan and rewind keep it right.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScriptedProvider, type ScriptStep } from '../../fixtures/scripted-provider';
import type { ProviderEvent, ProviderRequest } from '../../../extension/core/providers/types';
import { latestCompaction, sessionUsage, type Compaction } from '../../../extension/protocol';
import {
  BRIEF_HEADER,
  chooseCut,
  composeBrief,
  estimateMessagesTokens,
  modelFacingHistory,
} from '../../../extension/core/agent/compaction';
import type { ModelMessage } from '../../../extension/core/providers/types';
import { createMemorySearchTool } from '../../../extension/core/tools/memory-search';
import { todoWriteTool } from '../../../extension/core/tools/todo-write';
import { assertEnvelopeInvariants, createHarness, readTool } from './harness';
import { open, tempDir } from '../store/helpers';

const done: ProviderEvent = { type: 'done', stopReason: 'end' };
const say = (text: string): ProviderEvent[] => [{ type: 'text', text }, done];
const FACT = 'The staging database is called heron-7 and it listens on port 6543.';
const WINDOW = 3_000;

const isSummaryCall = (req: ProviderRequest) => req.system.includes('You write the working brief');
const firstUserText = (req: ProviderRequest) => {
  const m = req.messages[0];
  return m?.role === 'user' && typeof m.content === 'string' ? m.content : '';
};
/** A long answer: about 700 tokens by the estimate, so a few turns cross a 3,000-token window. */
const longAnswer = (n: number) => say(`Answer ${n}: ${'lorem ipsum dolor sit amet '.repeat(90)}`);

/**
 * The fake summariser writes a structured brief from the transcript it is sent, keeping the user's
 * facts it finds there (lines with "port"), like a good model would.
 */
const summariser =
  (seen: ProviderRequest[], keepFacts = true): ScriptStep =>
  (req) => {
    if (!isSummaryCall(req)) return say('expected the compaction prompt');
    seen.push(req);
    const transcript = firstUserText(req);
    const facts = keepFacts ? transcript.split('\n').filter((l) => /port \d+/.test(l)) : [];
    return say(
      [
        '## Goal',
        '- Set up the staging environment.',
        '## Facts the user gave',
        ...(facts.length ? facts.map((f) => `- ${f}`) : ['- none']),
        '## Decisions',
        '- none',
        '## Files touched',
        '- none',
        '## Open todos',
        '- none',
      ].join('\n'),
    );
  };

/** The final question: answered from the brief only when the brief carries the fact. */
const answerFromBrief: ScriptStep = (req) => {
  const brief = firstUserText(req);
  const m = /heron-7[^\n]*?port (\d+)/.exec(brief);
  return say(brief.startsWith(BRIEF_HEADER) && m ? `It listens on port ${m[1]}.` : 'I do not know.');
};

async function crossTheWindow(keepFacts = true) {
  const summaries: ProviderRequest[] = [];
  const provider = new ScriptedProvider([
    longAnswer(1),
    say('Noted.'),
    longAnswer(3),
    longAnswer(4),
    longAnswer(5),
    summariser(summaries, keepFacts),
    answerFromBrief,
  ]);
  const { dir, cleanup } = tempDir('compaction');
  const store = await open(dir);
  const h = createHarness({ provider, contextWindow: WINDOW, store });
  await h.controller.send('r1', 'Help me set up staging.', 'chat');
  await h.controller.send('r2', `Remember this: ${FACT}`, 'chat');
  await h.controller.send('r3', 'What should the config look like?', 'chat');
  await h.controller.send('r4', 'And the CI job?', 'chat');
  await h.controller.send('r5', 'And the secrets?', 'chat');
  await h.controller.send('r6', 'Which port does the staging database listen on?', 'chat');
  return { provider, summaries, store, h, cleanup, dir };
}

test('a session that crosses the window is compacted once, and the fact from turn 2 still answers', async () => {
  const { provider, summaries, store, h, cleanup } = await crossTheWindow();
  try {
    assertEnvelopeInvariants(h.envelopes());
    assert.equal(summaries.length, 1, 'one summary call');
    // The summariser was sent the older turns (the fact among them), with our own prompt.
    assert.match(firstUserText(summaries[0]), /heron-7/);
    const last = provider.requests.at(-1)!;
    assert.ok(firstUserText(last).startsWith(BRIEF_HEADER), 'the model history starts with the brief');
    assert.equal(last.messages[1].role === 'assistant' && last.messages[1].text.length > 0, true);
    // Fewer messages than the full history, and well inside the window.
    const full = store.getSession(h.controller.sessionId)!.modelMessages;
    assert.ok(last.messages.length < full.length + 1);
    assert.ok(estimateMessagesTokens(last.messages) < 0.8 * WINDOW);
    // The answer came from the brief.
    const snap = await h.controller.snapshot();
    const answer = snap.messages.at(-1)!.parts.find((p) => p.type === 'text');
    assert.equal(answer?.type === 'text' && answer.text, 'It listens on port 6543.');
    // The chat shows a marker with the brief, in the answer of the request that compacted.
    const marker = latestCompaction(snap);
    assert.ok(marker);
    assert.equal(marker.trigger, 'auto');
    assert.match(marker.brief, /## Facts the user gave\n- .*heron-7/);
    assert.ok(marker.tokensAfter < marker.tokensBefore);
    assert.equal(snap.messages.length, 12, 'every message is still in the chat');
  } finally {
    await store.close();
    cleanup();
  }
});

test('originals stay in the store, memory search finds them, and a reload restores the compacted state', async () => {
  const { store, h, cleanup, dir } = await crossTheWindow();
  try {
    const id = h.controller.sessionId;
    const stored = store.getSession(id)!;
    // The model history is kept whole: 6 requests × (user + assistant).
    assert.equal(stored.modelMessages.length, 12);
    assert.equal(stored.modelMessages[2].role === 'user' && stored.modelMessages[2].content, `Remember this: ${FACT}`);
    assert.ok(latestCompaction(stored), 'the marker is stored with the chat');
    const hits = await store.searchMemory('heron staging database port');
    assert.equal(hits[0]?.sessionId, id);
    // memory_search in this session finds its own compacted originals.
    const tool = createMemorySearchTool(store);
    const ctx = {
      signal: new AbortController().signal,
      session: { sessionId: id, readFiles: new Map(), todos: [], extras: new Map(), compacted: true },
    } as never;
    const found = await tool.execute({ query: 'heron-7 port' }, ctx);
    assert.match(String(found.forModel), new RegExp(`session ${id}`));
    // Exports show the marker with the brief, and every original message.
    const md = store.exportSession(id, 'markdown') ?? '';
    assert.match(md, /Earlier turns compacted \(\d+ messages\) — brief[\s\S]*## Facts the user gave/);
    assert.match(md, /Remember this: The staging database is called heron-7/);
    assert.match(store.exportSession(id, 'html') ?? '', /<details class="compaction">/);
    await store.close();

    // Reload: a new controller on the reopened store resumes the session and sends the brief again.
    const again = await open(dir);
    try {
      const provider = new ScriptedProvider([answerFromBrief]);
      const h2 = createHarness({ provider, contextWindow: WINDOW, store: again, idPrefix: 'b' });
      assert.equal(await h2.controller.resume(id), true);
      await h2.controller.send('s1', 'Which port again?', 'chat');
      const req = provider.requests[0];
      assert.ok(firstUserText(req).startsWith(BRIEF_HEADER));
      const snap = await h2.controller.snapshot();
      const text = snap.messages.at(-1)!.parts.find((p) => p.type === 'text');
      assert.equal(text?.type === 'text' && text.text, 'It listens on port 6543.');
    } finally {
      await again.close();
    }
  } finally {
    cleanup();
  }
});

test("the user's facts survive even when the summariser drops them (their messages are kept verbatim)", async () => {
  const { summaries, store, h, cleanup } = await crossTheWindow(false);
  try {
    assert.equal(summaries.length, 1);
    const marker = latestCompaction(await h.controller.snapshot())!;
    assert.match(marker.brief, /## Facts the user gave\n- none/);
    assert.match(marker.brief, /## The user's messages \(verbatim, oldest first\)[\s\S]*heron-7/);
    const text = (await h.controller.snapshot()).messages.at(-1)!.parts.find((p) => p.type === 'text');
    assert.equal(text?.type === 'text' && text.text, 'It listens on port 6543.');
  } finally {
    await store.close();
    cleanup();
  }
});

test('todos and the approved plan survive compaction verbatim', () => {
  const plan = 'Carry out this approved plan. Follow its steps in order.\n\n# Plan\n\n## Goal\n\nShip v2.\n';
  const history: ModelMessage[] = [
    { role: 'user', content: 'Our release is called Halcyon.' },
    { role: 'assistant', text: 'ok' },
    { role: 'user', content: `${plan}${'x'.repeat(9_000)}` },
    { role: 'assistant', text: 'working' },
  ];
  const planned: ModelMessage[] = history.map((m, i) =>
    i === 2
      ? {
          role: 'user',
          content:
            'Carry out this approved plan. Follow its steps in order, keep the todo list up to date as you go,\n' +
            'run the verification it lists, and tell me briefly what you changed. If a step turns out to be wrong,\n' +
            `say so and adapt rather than forcing it.\n\n# Plan\n\n## Goal\n\nShip v2.\n${'step '.repeat(2_000)}`,
        }
      : m,
  );
  const brief = composeBrief('## Goal\n- ship', planned, [
    { id: 't1', content: 'Write the changelog', status: 'completed' },
    { id: 't2', content: 'Tag the release `v2.0.0`', status: 'pending' },
  ]);
  assert.match(brief, /## Todo list \(verbatim\)\n\n- \[x\] Write the changelog\n- \[ \] Tag the release `v2.0.0`/);
  // The whole plan brief, however long (user messages are otherwise capped), quoted line by line.
  const planSection = brief.slice(brief.indexOf('## Approved plan (verbatim)'));
  assert.ok(planSection.includes(`> ${'step '.repeat(2_000)}`.trimEnd()));
  assert.match(brief, /> Our release is called Halcyon\./);
});

test('the cut never separates a tool call from its result, and only moves forward', () => {
  const call = { id: 'c1', name: 'peek', argumentsJson: '{"path":"a"}' };
  const big = 'y'.repeat(3_500);
  const history: ModelMessage[] = [
    { role: 'user', content: 'one' },
    { role: 'assistant', text: big, toolCalls: [call] },
    { role: 'tool', toolCallId: 'c1', toolName: 'peek', content: [{ type: 'text', text: big }], isError: false },
    { role: 'assistant', text: 'done' },
    { role: 'user', content: 'two' },
    { role: 'assistant', text: big, toolCalls: [call] },
    { role: 'tool', toolCallId: 'c1', toolName: 'peek', content: [{ type: 'text', text: big }], isError: false },
    { role: 'assistant', text: 'done' },
  ];
  for (const keep of [0, 500, 2_500, 1_000_000]) {
    const cut = chooseCut(history, 0, keep);
    if (cut === undefined) continue;
    assert.ok(cut === history.length || history[cut].role === 'user', `cut ${cut} for keep ${keep}`);
  }
  assert.equal(chooseCut(history, 0, 2_500), 4, 'the last turn (about 2,000 tokens) is kept');
  assert.equal(chooseCut(history, 0, 10), 8, 'nothing fits: everything is compacted');
  assert.equal(chooseCut(history, 8, 10), undefined, 'nothing after the previous cut');
  const c = { brief: 'B', replaces: 4 } as Compaction;
  const facing = modelFacingHistory(history, c);
  assert.equal(facing.length, 2 + 4);
  assert.equal(facing[2].role === 'user' && facing[2].content, 'two');
});

test('the provider-reported prompt size triggers compaction even when the text looks small', async () => {
  const summaries: ProviderRequest[] = [];
  const usage = (inputTokens: number): ProviderEvent => ({
    type: 'usage',
    usage: { inputTokens, outputTokens: 5, cachedTokens: 0 },
  });
  const provider = new ScriptedProvider([
    [{ type: 'text', text: 'a' }, usage(500), done],
    [{ type: 'text', text: 'b' }, usage(90_000), done],
    summariser(summaries),
    say('c'),
  ]);
  const h = createHarness({ provider, contextWindow: 100_000 });
  await h.controller.send('r1', 'first, port 1', 'chat');
  await h.controller.send('r2', 'second', 'chat');
  await h.controller.send('r3', 'third', 'chat');
  assert.equal(summaries.length, 1, 'the 90,000 reported tokens crossed 80 % of the window');
  assert.ok(firstUserText(provider.requests.at(-1)!).startsWith(BRIEF_HEADER));
  // The provider counts ~90,000 where the characters suggest a few dozen: the kept-turns budget shrinks
  // by that factor, so both turns go into the brief rather than a "small" last turn being kept.
  assert.equal(latestCompaction(await h.controller.snapshot())?.replaces, 4);
});

test('Compact now adds a marker message, keeps the last turn, and carries the todos', async () => {
  const summaries: ProviderRequest[] = [];
  const todoCall = {
    id: 't1',
    name: 'todo_write',
    argumentsJson: JSON.stringify({ todos: [{ id: '1', content: 'Migrate the heron-7 schema', status: 'pending' }] }),
  };
  const provider = new ScriptedProvider([
    [
      { type: 'tool_call', call: todoCall },
      { type: 'done', stopReason: 'tool_calls' },
    ],
    say('Planned.'),
    say('Sure.'),
    summariser(summaries),
    (req) => say(firstUserText(req).includes('- [ ] Migrate the heron-7 schema') ? 'todo seen' : 'todo lost'),
  ]);
  const h = createHarness({ provider, tools: [todoWriteTool as never], contextWindow: 200_000 });
  assert.equal(await h.controller.compactNow(), undefined, 'nothing to compact in an empty chat');
  await h.controller.send('r1', `Plan the migration. ${FACT}`, 'agent');
  await h.controller.send('r2', 'Thanks.', 'agent');
  const c = await h.controller.compactNow();
  assert.ok(c);
  assert.equal(c.trigger, 'manual');
  assert.equal(c.replaces, 4, 'the first turn (user, tool call, result, answer) replaced; the last kept');
  const snap = await h.controller.snapshot();
  const markerMessage = snap.messages.at(-1)!;
  assert.equal(markerMessage.parts[0].type, 'compaction');
  await h.controller.send('r3', 'What is left?', 'agent');
  const text = (await h.controller.snapshot()).messages.at(-1)!.parts.find((p) => p.type === 'text');
  assert.equal(text?.type === 'text' && text.text, 'todo seen');
  const req = provider.requests.at(-1)!;
  // Brief pair, then the kept turn (Thanks. / Sure.), then the new message.
  assert.deepEqual(
    req.messages.slice(2).map((m) => (m.role === 'user' ? m.content : m.role === 'assistant' ? m.text : 'tool')),
    ['Thanks.', 'Sure.', 'What is left?'],
  );
  assertEnvelopeInvariants(h.envelopes().filter((e) => !e.requestId.startsWith('compact-')));
});

test('rewinding to before a compaction drops it with the messages it was in', async () => {
  const summaries: ProviderRequest[] = [];
  const provider = new ScriptedProvider([say('one'), say('two'), summariser(summaries), say('three')]);
  const h = createHarness({ provider, contextWindow: 200_000 });
  await h.controller.send('r1', 'first, port 1', 'chat');
  await h.controller.send('r2', 'second', 'chat');
  assert.ok(await h.controller.compactNow());
  const snap = await h.controller.snapshot();
  const second = snap.messages[2];
  await h.controller.rewind(second.id, 'conversation');
  assert.equal(latestCompaction(await h.controller.snapshot()), undefined);
  await h.controller.send('r3', 'again', 'chat');
  const req = provider.requests.at(-1)!;
  assert.equal(firstUserText(req), 'first, port 1', 'the full history again, no brief');
});

test('a message sent while Compact now runs waits for it and gets the brief', async () => {
  const summaries: ProviderRequest[] = [];
  const provider = new ScriptedProvider([say('one'), say('two'), summariser(summaries), say('three')]);
  const h = createHarness({ provider, contextWindow: 200_000 });
  await h.controller.send('r1', 'first, port 1', 'chat');
  await h.controller.send('r2', 'second', 'chat');
  let release!: () => void;
  provider.holdNextStepUntil(new Promise<void>((r) => (release = r)));
  const compacting = h.controller.compactNow();
  await new Promise((r) => setTimeout(r, 10));
  const sending = h.controller.send('r3', 'third', 'chat');
  assert.equal(await h.controller.compactNow(), undefined, 'a second Compact now is refused meanwhile');
  release();
  assert.ok(await compacting);
  await sending;
  assert.ok(firstUserText(provider.requests.at(-1)!).startsWith(BRIEF_HEADER));
  const refusals = h.posts.filter((p) => p.type === 'protocolError');
  assert.equal(refusals.length, 1);
});

test("the summary call's tokens and cost are in the marker, the session's usage and its caps", async () => {
  const usage = { type: 'usage', usage: { inputTokens: 40_000, outputTokens: 2_000, cachedTokens: 0 } } as const;
  const paid = (events: ProviderEvent[]): ProviderEvent[] => [usage, ...events];
  const summarise = summariser([]) as (req: ProviderRequest) => ProviderEvent[];
  const provider = new ScriptedProvider([
    paid(say('One.')),
    paid(say('Two.')),
    (req) => paid(summarise(req)),
    paid(say('Three.')),
  ]);
  // The harness prices tokens at $1 / $2 per million: each answer costs $0.044, the summary too.
  const h = createHarness({ provider, contextWindow: 200_000, budget: { sessionMaxCostUsd: 0.1 } });
  await h.controller.send('r1', 'First.', 'chat');
  await h.controller.send('r2', 'Second.', 'chat');
  const c = await h.controller.compactNow();
  assert.ok(c?.usage, 'the marker carries the summary call usage');
  assert.equal(c.usage.inputTokens, 40_000);
  assert.ok(Math.abs((c.usage.costUsd ?? 0) - 0.044) < 1e-9);
  const total = sessionUsage((await h.controller.snapshot()).messages);
  assert.equal(total.inputTokens, 120_000, 'two answers and the summary');
  assert.equal(total.answers, 2, 'the summary is spending, not an answer');
  assert.ok(Math.abs((total.costUsd ?? 0) - 0.132) < 1e-9);
  // $0.132 already spent is past the $0.10 session cap: the next run stops before calling the model.
  const before = provider.requests.length;
  await h.controller.send('r3', 'Third?', 'chat');
  assert.equal(provider.requests.length, before, 'no model call past the session cap');
  assert.ok(h.envelopes().some((e) => e.requestId === 'r3' && e.event.type === 'budget_stop'));
});

const reported = (inputTokens: number): ProviderEvent => ({
  type: 'usage',
  usage: { inputTokens, outputTokens: 5, cachedTokens: 0 },
});
const peekCall = (path: string): ProviderEvent => ({
  type: 'tool_call',
  call: { id: `c-${path}`, name: 'peek', argumentsJson: JSON.stringify({ path }) },
});

test('a long agent run is compacted between its model calls; the running turn stays whole', async () => {
  const summaries: ProviderRequest[] = [];
  const provider = new ScriptedProvider([
    [{ type: 'text', text: 'Noted.' }, reported(1_000), done],
    [peekCall('a'), reported(50_000), { type: 'done', stopReason: 'tool_calls' }],
    [peekCall('b'), reported(85_000), { type: 'done', stopReason: 'tool_calls' }],
    summariser(summaries),
    (req) => {
      const brief = firstUserText(req).startsWith(BRIEF_HEADER);
      const results = req.messages.filter((m) => m.role === 'tool').length;
      return say(brief && results === 2 ? 'Finished from the brief and both results.' : 'lost context');
    },
  ]);
  const h = createHarness({ provider, tools: [readTool([], 0)], contextWindow: 100_000 });
  await h.controller.send('r1', `Remember this: ${FACT}`, 'agent');
  await h.controller.send('r2', 'Read a and b, then report.', 'agent');
  assert.equal(summaries.length, 1, 'compacted once, between the second and third model call');
  assert.match(firstUserText(summaries[0]), /heron-7/, 'the earlier turn went into the brief');
  const last = provider.requests.at(-1)!;
  // Brief pair, then the running turn whole: its user message, both tool calls and both results.
  assert.equal(last.messages[2].role === 'user' && last.messages[2].content, 'Read a and b, then report.');
  assert.equal(last.messages.at(-1)?.role, 'tool', 'the request still ends on the tool result');
  const snap = await h.controller.snapshot();
  const answer = snap.messages.at(-1)!;
  assert.ok(
    answer.parts.some((p) => p.type === 'compaction'),
    'the marker is on the running answer',
  );
  const text = answer.parts.filter((p) => p.type === 'text').map((p) => (p.type === 'text' ? p.text : ''));
  assert.equal(text.join(''), 'Finished from the brief and both results.');
  assertEnvelopeInvariants(h.envelopes());
  assert.equal(h.envelopes('r2').filter((e) => e.event.type === 'complete').length, 1);
});

test('a single long turn with nothing older to compact says so once and goes on in full', async () => {
  const provider = new ScriptedProvider([
    [peekCall('a'), reported(85_000), { type: 'done', stopReason: 'tool_calls' }],
    [peekCall('b'), reported(90_000), { type: 'done', stopReason: 'tool_calls' }],
    say('Done.'),
  ]);
  const h = createHarness({ provider, tools: [readTool([], 0)], contextWindow: 100_000 });
  await h.controller.send('r1', 'Read a and b.', 'agent');
  assert.equal(provider.requests.length, 3, 'no summary call: nothing before this turn');
  const notices = h.envelopes('r1').filter((e) => e.event.type === 'notice');
  assert.equal(notices.length, 1, 'said once, not at every step');
  assert.match(JSON.stringify(notices[0].event), /Could not compact the conversation/);
});
