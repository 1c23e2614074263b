// The chat in each state a user meets, played into a real view: a streamed Markdown answer, Agent
// mode's tool cards and an approval card, a plan card, a research report, the History list. Shared
// by the accessibility check and the theme screenshots.
import type { PlanArtifact, RequestEvent, SessionSummary } from '../../extension/protocol';
import { deliver, type ViewHarness } from './harness';
import { REPORT, RequestScript, message, snapshot, snapshotMessage } from './fixtures';

export const STREAMED_ANSWER = [
  '## Reading a file line by line',
  '',
  'Use **`readline`** with a stream, so a large file is never held in memory at once:',
  '',
  '```ts',
  "import { createReadStream } from 'node:fs';",
  "import { createInterface } from 'node:readline';",
  '',
  '// Counts the lines of a file.',
  'export async function countLines(path: string): Promise<number> {',
  '  let n = 0;',
  '  for await (const _ of createInterface({ input: createReadStream(path) })) n++;',
  '  return n;',
  '}',
  '```',
  '',
  '| Option | Default |',
  '|---|---|',
  '| `crlfDelay` | `100` |',
  '',
  'See the [Node.js docs](https://nodejs.org/api/readline.html).',
].join('\n');

export const EDIT_DIFF = [
  '--- a/src/count.ts',
  '+++ b/src/count.ts',
  '@@ -1,4 +1,4 @@',
  " import { createReadStream } from 'node:fs';",
  '-let total = 0;',
  '+let total = 1;',
  ' export { total };',
].join('\n');

export const PLAN: PlanArtifact = {
  kind: 'change',
  id: 'plan-1',
  status: 'proposed',
  goal: 'Count lines without loading the whole file',
  steps: [
    { title: 'Stream the file', detail: `In src/count.ts:\n${EDIT_DIFF}` },
    { title: 'Add a test for an empty file' },
  ],
  files: [{ path: 'src/count.ts', change: 'Use readline.' }],
  risks: ['Files with CR-only line ends'],
  verify: ['npm test'],
};

const SESSIONS: SessionSummary[] = [
  { id: 's-new', title: 'Newest: fix the build', updatedAt: 1_700_000_000_000, messageCount: 10, mode: 'agent' },
  { id: 's-mid', title: 'Middle research', updatedAt: 1_650_000_000_000, messageCount: 6, mode: 'research' },
];

/** A finished edit_file call whose result carries its diff (what the card shows after an approved edit). */
export function finishedEdit(callId: string): RequestEvent {
  const result = `Edited src/count.ts (+1 −1)\n${EDIT_DIFF}`;
  return {
    type: 'tool_updated',
    call: {
      callId,
      name: 'edit_file',
      kind: 'write',
      subject: 'src/count.ts',
      status: 'ok',
      durationMs: 40,
      preview: result,
      detail: result,
    },
  };
}

/** Chat mode: a question and its answer streamed in three pieces, then complete. */
export async function chatScene(view: ViewHarness): Promise<void> {
  await deliver(view, snapshotMessage(snapshot({ messages: [] })));
  const r = new RequestScript('r-chat');
  await deliver(view, r.events(r.started('How do I count the lines of a big file?')));
  const third = Math.ceil(STREAMED_ANSWER.length / 3);
  for (let i = 0; i < STREAMED_ANSWER.length; i += third)
    await deliver(view, r.events({ type: 'text_delta', text: STREAMED_ANSWER.slice(i, i + third) }));
  await deliver(view, r.events({ type: 'complete' }));
  await view.page.getByRole('link', { name: 'Node.js docs' }).waitFor();
  // SEXTANT_A11Y_BASELINE: measuring a build from before code blocks were highlighted.
  if (!process.env.SEXTANT_A11Y_BASELINE) await view.page.locator('code[data-highlighted]').first().waitFor();
}

/** Agent mode: a finished command, a finished edit with its diff, and an edit waiting for approval. */
export async function agentScene(view: ViewHarness): Promise<void> {
  await deliver(view, snapshotMessage(snapshot({ mode: 'agent' })));
  const r = new RequestScript('r-agent');
  await deliver(view, r.events(r.started('Make the total start at one', 'agent')));
  await deliver(
    view,
    r.events(
      { type: 'text_delta', text: 'I will run the tests, then change the starting value.' },
      {
        type: 'tool_updated',
        call: {
          callId: 't1',
          name: 'bash',
          kind: 'execute',
          subject: 'npm test',
          status: 'ok',
          durationMs: 2345,
          preview: 'exit 0 · 12 passing',
          detail: 'exit 0\n12 passing',
        },
      },
      finishedEdit('t2'),
      {
        type: 'approval_needed',
        approval: {
          callId: 't3',
          tool: 'edit_file',
          kind: 'write',
          subject: 'src/index.ts',
          detail: `Edit src/index.ts (+1 −1)\n${EDIT_DIFF.replace(/count/g, 'index')}`,
          reason: 'writes ask (sextant.permissions.defaultMode is "ask")',
          alwaysRule: 'edit(src/**)',
          change: {
            path: 'src/index.ts',
            isNew: false,
            added: 1,
            removed: 1,
            diff: EDIT_DIFF.replace(/count/g, 'index'),
          },
        },
      },
    ),
  );
  await view.page.getByRole('button', { name: 'Approve' }).waitFor();
}

/** Plan mode: a plan card awaiting review, one step carrying a diff. */
export async function planScene(view: ViewHarness): Promise<void> {
  await deliver(view, snapshotMessage(snapshot({ mode: 'plan' })));
  const r = new RequestScript('r-plan');
  await deliver(view, r.events(r.started('Plan: count lines lazily', 'plan')));
  await deliver(view, r.events({ type: 'plan_proposed', plan: PLAN }, { type: 'complete' }));
  await view.page.getByRole('button', { name: 'Approve plan' }).waitFor();
}

/** Research mode: a verified report with its sources. */
export async function reportScene(view: ViewHarness): Promise<void> {
  await deliver(view, snapshotMessage(snapshot({ mode: 'research' })));
  const r = new RequestScript('r-research');
  await deliver(view, r.events(r.started('What changed in the Rust 2024 edition?', 'research')));
  await deliver(view, r.events({ type: 'report', report: REPORT }, { type: 'complete' }));
  await view.page.getByRole('region', { name: 'Report' }).waitFor();
}

/** The History list with two sessions. */
export async function historyScene(view: ViewHarness): Promise<void> {
  await deliver(view, snapshotMessage(snapshot({ messages: [message('user', 'current chat')] })));
  await view.page.getByRole('button', { name: 'History' }).click();
  await view.waitForPost('history');
  await deliver(view, { type: 'history', sessions: SESSIONS });
  await view.page.getByRole('list', { name: 'History' }).getByRole('listitem').first().waitFor();
}

export const SCENES = {
  chat: chatScene,
  agent: agentScene,
  plan: planScene,
  report: reportScene,
  history: historyScene,
} as const;
