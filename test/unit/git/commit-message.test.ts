// The commit message for a real repository's staged diff, written by the (fake) model in the repository's
// style: the request holds the recent conventional-commit subjects and the staged diff (not the unstaged
// one), the model's message comes back streamed and cleaned; Stop aborts the request; a reached budget
// makes no request; a clean tree is refused with the reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commitMessageContext, GitProblem, writeCommitMessage } from '../../../extension/core/git';
import * as openai from '../../../extension/core/providers/openai';
import { startFakeLlm } from '../../fixtures/fake-llm';
import { hasGit, makeRepo } from './git-repo';

const skip = hasGit ? false : 'git is not installed';
const HISTORY = ['feat(parser): read nested lists', 'fix(cli): exit 2 on a bad flag', 'docs: explain the cache'];

async function withFake<T>(
  fn: (fake: Awaited<ReturnType<typeof startFakeLlm>>, deps: Parameters<typeof writeCommitMessage>[0]) => Promise<T>,
) {
  const fake = await startFakeLlm();
  const provider = openai.createProvider({ name: 'fake', kind: 'openai', baseUrl: `${fake.baseUrl}/v1` }, 'k');
  try {
    return await fn(fake, { resolveModel: async () => ({ provider, model: 'm' }), modelRef: () => 'fake/m' });
  } finally {
    await fake.close();
  }
}

function userText(body: unknown): string {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  return messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
}

test('a message from the staged diff in the repository style: the log and the staged diff are in the request', {
  skip,
}, async () => {
  const r = makeRepo({ history: HISTORY });
  try {
    r.write('src/auth.ts', 'export const loggedIn = (u?: string) => Boolean(u);\n');
    r.git('add', 'src/auth.ts');
    r.write('notes.txt', 'unstaged scribbles\n');
    await withFake(async (fake, deps) => {
      fake.enqueue({ text: '```\nfeat(auth): add the logged-in check\n```' });
      const context = await commitMessageContext(r.dir);
      assert.equal(context.staged, true);
      const seen: string[] = [];
      const out = await writeCommitMessage(deps, context, (t) => seen.push(t), new AbortController().signal);
      assert.equal(out.message, 'feat(auth): add the logged-in check');
      assert.ok(seen.length > 1, 'the message streamed in pieces');
      const sent = userText(fake.requests[0]?.body);
      for (const subject of HISTORY) assert.ok(sent.includes(subject), `the log subject "${subject}" is in the prompt`);
      assert.match(sent, /src\/auth\.ts/);
      assert.match(sent, /loggedIn/);
      assert.doesNotMatch(sent, /unstaged scribbles/, 'only the staged changes are described');
    });
  } finally {
    r.done();
  }
});

test('nothing staged: the message covers every change, new files included', { skip }, async () => {
  const r = makeRepo();
  try {
    r.write('history/0.txt', 'first, edited\n');
    r.write('brand new.md', '# hello\n');
    const context = await commitMessageContext(r.dir);
    assert.equal(context.staged, false);
    assert.match(context.diff, /first, edited/);
    assert.match(context.diff, /brand new\.md/);
  } finally {
    r.done();
  }
});

test('Stop aborts the model request; a reached budget makes none; a clean tree is refused', { skip }, async () => {
  const r = makeRepo();
  try {
    await assert.rejects(
      commitMessageContext(r.dir),
      (e: unknown) => e instanceof GitProblem && e.code === 'no_changes',
    );
    r.write('history/0.txt', 'changed\n');
    const context = await commitMessageContext(r.dir);
    await withFake(async (fake, deps) => {
      fake.enqueue({ text: 'never finishes', hang: true });
      const stop = new AbortController();
      const run = writeCommitMessage(deps, context, () => stop.abort(), stop.signal);
      await assert.rejects(run);
      assert.equal(await fake.requests[0]?.settled, 'client-closed');
      const capped = {
        ...deps,
        budget: {
          check: () => ({ cap: 'total_cost' as const, setting: 'sextant.budget.totalMaxCostUsd', limit: 1, spent: 1 }),
          report: () => undefined,
        },
      };
      await assert.rejects(
        writeCommitMessage(capped, context, () => {}, new AbortController().signal),
        /budget/,
      );
      assert.equal(fake.requests.length, 1, 'no request past a reached cap');
    });
  } finally {
    r.done();
  }
});
