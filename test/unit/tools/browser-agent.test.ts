// The browser tools in the agent loop: the model (the fake LLM server through the real SDKs) calls
// them, a screenshot reaches a vision model's request as an image part and a text-only model's as a
// plain sentence; and in a chat, an origin asks once, then navigating and acting on it does not,
// while another origin asks again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { homedir, tmpdir } from 'node:os';
import { mkdtempSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { runTurn, type TurnOutcome } from '../../../extension/core/agent/turn';
import { ImageFiles } from '../../../extension/core/store/image-files';
import { toolPageBrowser } from '../../../extension/core/research/browser-reader';
import {
  createToolRegistry,
  createToolSessionState,
  declaredToolFacts,
  disposeToolSession,
} from '../../../extension/core/tools/registry';
import * as openai from '../../../extension/core/providers/openai';
import * as anthropic from '../../../extension/core/providers/anthropic';
import type { Provider, ProviderEvent } from '../../../extension/core/providers/types';
import { createPolicy } from '../../../extension/core/permissions';
import type { PermissionGate } from '../../../extension/core/agent/permission-gate';
import type { Envelope, PendingApproval, ToolCallView } from '../../../extension/protocol';
import { BrowserSessions } from '../../../extension/core/tools/browser/session';
import { createBrowserTools } from '../../../extension/core/tools/browser/tools';
import { createBrowserBackend } from '../../../extension/platform/browser/playwright-backend';
import { findBrowser } from '../../../extension/platform/browser/find-browser';
import { startFakeLlm } from '../../fixtures/fake-llm';
import { createNodePorts, NodeWorkspace } from '../../fixtures/node-ports';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { startTestSite, testResolve, type TestSite } from '../../fixtures/browser/site';
import { createHarness } from '../agent/harness';

const found = findBrowser();
const skip = 'problem' in found ? `no Chromium on this machine (${found.problem})` : false;
if (skip) console.log(`# browser agent tests skipped: ${skip}`);

const fakePromise = startFakeLlm();
let site: TestSite;
const sessions = new BrowserSessions({
  allowPrivateHosts: () => ['site.test', 'other.test'],
  resolve: async (host) => (host === 'other.test' ? [{ address: '127.0.0.1', family: 4 }] : testResolve(host)),
  settings: () => ({ headless: true }),
  loadBackend: async () => createBrowserBackend(),
});
before(async () => {
  site = await startTestSite();
});
after(async () => {
  await sessions.closeAll();
  await site.close();
  await (await fakePromise).close();
});

async function providerFor(kind: 'openai' | 'anthropic'): Promise<Provider> {
  const fake = await fakePromise;
  const mod = kind === 'openai' ? openai : anthropic;
  return mod.createProvider(
    { name: 'fake', kind, baseUrl: kind === 'openai' ? `${fake.baseUrl}/v1` : fake.baseUrl },
    'sk-test',
  );
}

for (const [kind, vision] of [
  ['anthropic', true],
  ['openai', false],
] as const) {
  test(`${kind} (${vision ? 'vision' : 'text-only'}): navigate, then a screenshot back to the model`, {
    skip,
  }, async () => {
    const fake = await fakePromise;
    fake.reset();
    fake.enqueue(
      { toolCalls: [{ name: 'browser_navigate', arguments: { url: `http://site.test:${site.port}/` } }] },
      { toolCalls: [{ name: 'browser_screenshot', arguments: {} }] },
      { text: 'The shop greets you.' },
    );
    const toolSession = createToolSessionState(`loop-${kind}`);
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'browser-loop-')));
    const images = new ImageFiles(join(root, '.store'));
    const cards: ToolCallView[] = [];
    try {
      const turn = runTurn([{ role: 'user', content: 'Look at the local shop page.' }], {
        sessionId: 's',
        provider: await providerFor(kind),
        model: 'fake-model',
        system: 'agent',
        tools: createToolRegistry(createBrowserTools({ sessions })),
        toolSession,
        ports: createNodePorts({ root }),
        maxSteps: 5,
        supportsImages: vision,
        images,
        signal: new AbortController().signal,
        now: () => Date.now(),
      });
      let outcome: TurnOutcome | undefined;
      for (;;) {
        const next = await turn.next();
        if (next.done) {
          outcome = next.value;
          break;
        }
        if (next.value.type === 'tool_updated') cards.push(next.value.call);
      }
      // The screenshot's card shows it (whatever the model): a reference to a file in the image store.
      const shot = cards.find((c) => c.name === 'browser_screenshot' && c.status === 'ok');
      assert.equal(shot?.images?.length, 1, JSON.stringify(cards).slice(0, 800));
      const ref = shot?.images?.[0];
      assert.equal(ref?.mediaType, 'image/jpeg');
      assert.equal(images.read(ref?.sha256 ?? '')?.length, ref?.bytes);
      assert.equal(cards.find((c) => c.name === 'browser_navigate')?.images, undefined);
      assert.equal(outcome?.kind, 'done');
      assert.equal(fake.requests.length, 3);
      const second = JSON.stringify(fake.requests[1].body);
      assert.match(second, /heading \\"Welcome to the test shop\\"/, 'the snapshot reached the model');
      const third = fake.requests[2].body as Record<string, unknown>;
      const text = JSON.stringify(third);
      if (vision) {
        // Anthropic: a tool_result block holding an image block with base64 JPEG data.
        const messages = third.messages as Array<{ role: string; content: unknown }>;
        const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])) as Array<{
          type: string;
          content?: Array<{ type: string; source?: { type: string; media_type: string; data: string } }>;
        }>;
        const images = blocks
          .filter((b) => b.type === 'tool_result')
          .flatMap((b) => b.content ?? [])
          .filter((c) => c.type === 'image');
        assert.equal(images.length, 1, text.slice(0, 2000));
        assert.equal(images[0].source?.media_type, 'image/jpeg');
        assert.ok(
          Buffer.from(images[0].source?.data ?? '', 'base64')
            .subarray(0, 2)
            .equals(Buffer.from([0xff, 0xd8])),
        );
      } else {
        assert.doesNotMatch(text, /image_url|"type":"image"/);
        assert.match(text, /cannot view images, so the screenshot is not sent; read the page with browser_snapshot/);
      }
    } finally {
      disposeToolSession(toolSession);
    }
  });
}

test("Research mode's read-only browser reads a page's text in real Chromium, refs left out; private hosts refused", {
  skip,
}, async () => {
  const browser = toolPageBrowser(createBrowserTools({ sessions }), createNodePorts({ root: tmpdir() }), 'research');
  const signal = new AbortController().signal;
  try {
    const page = await browser.read(`http://site.test:${site.port}/`, signal);
    assert.match(page.text, /Welcome to the test shop/);
    assert.doesNotMatch(page.text, /\[ref=/);
    await assert.rejects(browser.read('http://10.1.2.3/', signal), /Not opened/);
    await assert.rejects(browser.run('browser_click', { ref: 'e1' }, signal), /not offered in Research mode/);
  } finally {
    await browser.close();
  }
});

test('in a chat, an origin asks once; navigating and clicking there again do not; another origin asks', {
  skip,
}, async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'browser-ask-')));
  const gate: PermissionGate = {
    policy: () => createPolicy({ workspaceFolders: [root], home: homedir(), tools: declaredToolFacts() }),
    rememberRule: async () => undefined,
  };
  const site1 = `http://site.test:${site.port}`;
  const other = `http://other.test:${site.port}`;
  const calls = (...c: Array<[string, Record<string, unknown>]>): ProviderEvent[] => [
    ...c.map(([name, args], i) => ({
      type: 'tool_call' as const,
      call: { id: `${name}-${i}`, name, argumentsJson: JSON.stringify(args) },
    })),
    { type: 'done', stopReason: 'tool_calls' },
  ];
  const provider = new ScriptedProvider([
    calls(['browser_navigate', { url: `${site1}/` }]),
    calls(['browser_navigate', { url: `${site1}/second` }]),
    calls(['browser_navigate', { url: `${site1}/` }]),
    // Clicks "Add one" by the ref the last snapshot gave it.
    (req) => {
      const seen = req.messages.flatMap((m) =>
        m.role === 'tool' ? m.content.map((b) => (b.type === 'text' ? b.text : '')) : [],
      );
      const ref = /button "Add one" \[ref=(\w+)\]/.exec(seen[seen.length - 1] ?? '')?.[1] ?? 'missing';
      return calls(['browser_click', { ref, element: 'Add one' }]);
    },
    calls(['browser_navigate', { url: `${other}/second` }]),
    [
      { type: 'text', text: 'Done.' },
      { type: 'done', stopReason: 'end' },
    ],
  ]);
  const h = createHarness({
    provider,
    tools: createBrowserTools({ sessions }),
    workspace: new NodeWorkspace({ roots: [root] }),
    permissions: gate,
  });
  const approvals = (envs: Envelope[]): PendingApproval[] =>
    envs.flatMap((e) => (e.event.type === 'approval_needed' ? [e.event.approval] : []));
  const waitForApproval = async (n: number) => {
    for (let i = 0; i < 5000 && approvals(h.envelopes('r1')).length < n; i++)
      await new Promise((r) => setTimeout(r, 5));
    const list = approvals(h.envelopes('r1'));
    assert.ok(list.length >= n, `approval ${n} asked`);
    return list[n - 1];
  };
  const sending = h.controller.send('r1', 'browse', 'agent');
  const first = await waitForApproval(1);
  assert.equal(first.tool, 'browser_navigate');
  assert.equal(first.alwaysRule, 'browser_navigate(domain:site.test)');
  assert.match(first.detail ?? '', /browse http:\/\/site\.test:\d+ for the rest of this chat/);
  h.controller.approve(first.callId, { decision: 'approve' });
  const second = await waitForApproval(2);
  assert.match(second.subject ?? '', /other\.test/, 'only the new origin asked again');
  h.controller.approve(second.callId, { decision: 'approve' });
  await sending;
  assert.equal(approvals(h.envelopes('r1')).length, 2);
  const results = provider.requests[5].messages.filter((m) => m.role === 'tool');
  assert.equal(results.length, 5);
  assert.match(JSON.stringify(results[3]), /Clicked Add one/, 'the click ran without asking');
  assert.match(JSON.stringify(results[4]), /The second page/);
  assert.ok(site.requests.some((r) => r.host === `other.test:${site.port}`));
  await sessions.closeAll();
});
