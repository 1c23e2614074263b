// Checkpoints and rewind through the wired path: the agent's real writers call ctx.beforeWrite, the
// controller's per-turn recorder journals the turn checkpoint, and "Rewind to here", Redo and Edit
// and resend put files and conversation back — on the in-memory persistence and on the real store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs, realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import type { PermissionGate } from '../../../extension/core/agent/permission-gate';
import { COMMANDS_NOTE } from '../../../extension/core/agent/rewind-session';
import { FileCheckpointBlobs, withLocalFileOps } from '../../../extension/core/checkpoints';
import { createPolicy } from '../../../extension/core/permissions';
import type { DiffReviewPort, JournalRecord, TurnCheckpoint } from '../../../extension/core/ports';
import type { ProviderEvent } from '../../../extension/core/providers/types';
import { editFileTool } from '../../../extension/core/tools/edit-file';
import { readFileTool } from '../../../extension/core/tools/read-file';
import { defineTool } from '../../../extension/core/tools/types';
import { writeFileTool } from '../../../extension/core/tools/write-file';
import type { Outbound, RewindPreview } from '../../../extension/protocol';
import { makeTempWorkspace, NodeWorkspace } from '../../fixtures/node-ports';
import { ScriptedProvider, type ScriptStep } from '../../fixtures/scripted-provider';
import { snapshot } from '../checkpoints/helpers';
import { open, tempDir } from '../store/helpers';
import { createHarness } from './harness';
import { declaredToolFacts } from '../../../extension/core/tools/registry';

/** A writer that deletes a file, as any writer must: beforeWrite first. */
const removeFile = defineTool({
  name: 'remove_file',
  description: 'deletes a file',
  kind: 'write',
  permission: { subject: 'text', text: () => '' },
  modes: ['agent'],
  input: z.object({ path: z.string() }),
  subject: (i) => i.path,
  async execute(i, ctx) {
    const abs = path.join(ctx.ports.workspace.roots()[0], i.path);
    await ctx.beforeWrite?.(abs);
    await fs.unlink(abs);
    return { forModel: 'deleted', forUi: 'deleted', isError: false };
  },
});

/** A writer of raw bytes (base64), for binary files. */
const putBytes = defineTool({
  name: 'put_bytes',
  description: 'writes bytes',
  kind: 'write',
  permission: { subject: 'text', text: () => '' },
  modes: ['agent'],
  input: z.object({ path: z.string(), base64: z.string() }),
  subject: (i) => i.path,
  async execute(i, ctx) {
    const abs = path.join(ctx.ports.workspace.roots()[0], i.path);
    await ctx.beforeWrite?.(abs);
    await ctx.ports.workspace.writeFile(abs, Buffer.from(i.base64, 'base64'));
    return { forModel: 'written', forUi: 'written', isError: false };
  },
});

/** A command that changes a file behind the recorder's back (as bash can). */
const runCommand = defineTool({
  name: 'run',
  description: 'runs',
  kind: 'execute',
  permission: { subject: 'text', text: () => '' },
  modes: ['agent'],
  input: z.object({ path: z.string() }),
  subject: (i) => i.path,
  async execute(i, ctx) {
    await fs.writeFile(path.join(ctx.ports.workspace.roots()[0], i.path), 'by a command');
    return { forModel: 'ran', forUi: 'ran', isError: false };
  },
});

const TOOLS = [readFileTool, editFileTool, writeFileTool, removeFile, putBytes, runCommand];

function allowAll(root: string): PermissionGate {
  const policy = createPolicy({
    user: { defaultMode: 'allow' },
    workspaceFolders: [root],
    home: homedir(),
    tools: declaredToolFacts(),
  });
  return { policy: () => policy, rememberRule: async () => {} };
}

const call = (id: string, name: string, args: unknown): ProviderEvent[] => [
  { type: 'tool_call', call: { id, name, argumentsJson: JSON.stringify(args) } },
  { type: 'done', stopReason: 'tool_calls' },
];
const say = (text: string): ProviderEvent[] => [
  { type: 'text', text },
  { type: 'done', stopReason: 'end' },
];

const BOM_CRLF = '\uFEFFline one\r\nline two\r\n';
const BINARY = Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80, 0, 10, 13]);

async function setup(initial: Record<string, string | Uint8Array>, steps: ScriptStep[], store?: 'real') {
  const root = await makeTempWorkspace(initial);
  const blobDir = path.join(realpathSync(await fs.mkdtemp(path.join(tmpdir(), 'sextant-rewind-'))), 'checkpoints');
  const ws = new NodeWorkspace({ roots: [root] });
  const provider = new ScriptedProvider(steps);
  const storeDir = store ? tempDir('rewind-store') : undefined;
  const opened = storeDir ? await open(storeDir.dir) : undefined;
  const h = createHarness({
    provider,
    tools: TOOLS,
    workspace: ws,
    permissions: allowAll(root),
    checkpoints: { files: withLocalFileOps(ws), blobs: new FileCheckpointBlobs(blobDir) },
    ...(opened ? { store: opened } : {}),
  });
  const read = (rel: string) => fs.readFile(path.join(root, rel)).catch(() => undefined);
  return { root, ws, provider, h, read, blobDir, storeDir, store: opened };
}

const posted = <T extends Outbound['type']>(posts: Outbound[], type: T) =>
  posts.filter((p): p is Extract<Outbound, { type: T }> => p.type === type);

function userIds(h: ReturnType<typeof createHarness>): string[] {
  const snap = posted(h.posts, 'snapshot').at(-1)?.snapshot;
  const started = h.envelopes().flatMap((e) => (e.event.type === 'started' ? [e.event.userMessageId] : []));
  return snap ? snap.messages.filter((m) => m.role === 'user').map((m) => m.id) : started;
}

test('real writers → recorder → journal → rewind: text, CRLF+BOM, binary, created, deleted; redo', async () => {
  const { root, h, read } = await setup(
    { 'a.txt': BOM_CRLF, 'img.bin': BINARY, 'gone.txt': 'delete me\n', 'keep.txt': 'untouched' },
    [
      call('1', 'read_file', { file_path: 'a.txt' }),
      call('2', 'edit_file', { file_path: 'a.txt', old_string: 'line two', new_string: 'line 2' }),
      call('3', 'write_file', { file_path: 'src/new.ts', content: 'export const x = 1;\n' }),
      call('4', 'put_bytes', { path: 'img.bin', base64: Buffer.from([9, 9, 0, 9]).toString('base64') }),
      call('5', 'remove_file', { path: 'gone.txt' }),
      say('done'),
    ],
  );
  const before = await snapshot(root);
  await h.controller.send('r1', 'change things', 'agent');
  assert.equal((await read('a.txt'))?.toString('utf8'), '\uFEFFline one\r\nline 2\r\n', 'the edit kept BOM and CRLF');
  const after = await snapshot(root);

  const saved = h.persistence.records.filter(
    (r): r is Extract<JournalRecord, { kind: 'turn_checkpoint' }> => r.kind === 'turn_checkpoint',
  );
  assert.equal(saved.length, 2, 'one record when the turn starts, one with its files');
  assert.equal(saved[0].checkpoint.modelIndex, 0);
  const files = saved[1].checkpoint.files;
  assert.ok(files);
  assert.deepEqual(files.files.map((f) => path.relative(root, f.path)).sort(), [
    'a.txt',
    'gone.txt',
    'img.bin',
    path.join('src', 'new.ts'),
  ]);
  assert.ok(!JSON.stringify(saved).includes('line one'), 'the journal holds hashes, not file contents');

  const [u1] = userIds(h);
  const preview = await h.controller.rewindPreview(u1);
  assert.ok(preview);
  assert.equal(preview.fileChanges, true);
  assert.equal(preview.messagesRemoved, 2);
  assert.deepEqual(
    preview.files.map((f) => `${f.action} ${f.path}`),
    ['restore a.txt', 'restore gone.txt', 'restore img.bin', 'delete src/new.ts'],
  );
  assert.equal(preview.commandsNote, undefined);

  const done = await h.controller.rewind(u1, 'both');
  assert.equal(done?.draft, 'change things', 'the message goes back to the composer');
  assert.deepEqual(await snapshot(root), before, 'every byte as before the turn');
  const snap = posted(h.posts, 'snapshot').at(-1)?.snapshot;
  assert.equal(snap?.messages.length, 0, 'the conversation went back to before the message');
  assert.equal(snap?.redo?.messageId, u1);
  assert.deepEqual(posted(h.posts, 'rewound').at(-1), {
    type: 'rewound',
    summary: done?.summary,
    draft: 'change things',
  });

  const branch = h.persistence.listSessions().find((s) => s.title.endsWith('(earlier branch)'));
  assert.ok(branch, 'the earlier conversation is kept in history');
  assert.equal(branch.messageCount, 2);

  const redone = await h.controller.redoRewind();
  assert.equal(redone, 'Restored 3 files, deleted 1 file; the conversation is back');
  assert.deepEqual(await snapshot(root), after, 'redo brings the agent’s changes back');
  const back = posted(h.posts, 'snapshot').at(-1)?.snapshot;
  assert.equal(back?.messages.length, 2);
  assert.equal(back?.redo, undefined);
  assert.equal(
    h.persistence.listSessions().find((s) => s.title.endsWith('(earlier branch)')),
    undefined,
    'the branch is back in the chat, so it leaves history',
  );
});

test('a file the user changed after the agent is named, kept unless ticked; the other is restored', async () => {
  const { root, h, read } = await setup({ 'a.txt': 'a0\n', 'b.txt': 'b0\n' }, [
    call('1', 'read_file', { file_path: 'a.txt' }),
    call('2', 'read_file', { file_path: 'b.txt' }),
    call('3', 'edit_file', { file_path: 'a.txt', old_string: 'a0', new_string: 'a1' }),
    call('4', 'edit_file', { file_path: 'b.txt', old_string: 'b0', new_string: 'b1' }),
    say('done'),
  ]);
  await h.controller.send('r1', 'edit both', 'agent');
  const [u1] = userIds(h);
  await fs.writeFile(path.join(root, 'b.txt'), 'b by the user\n'); // the user, after the agent
  const preview = (await h.controller.rewindPreview(u1)) as RewindPreview;
  assert.equal(preview.files.find((f) => f.path === 'b.txt')?.changedByUser, true);
  assert.equal(preview.files.find((f) => f.path === 'a.txt')?.changedByUser, false);
  assert.match(preview.summary, /b\.txt was changed by you since and will be kept/);
  await h.controller.rewind(u1, 'files');
  assert.equal((await read('a.txt'))?.toString(), 'a0\n');
  assert.equal((await read('b.txt'))?.toString(), 'b by the user\n', 'kept: not ticked');
  assert.equal(posted(h.posts, 'snapshot').at(-1)?.snapshot.messages.length, 2, 'files only: the chat stays');
  assert.equal(posted(h.posts, 'rewound').at(-1)?.draft, undefined, 'files only: the composer is left alone');

  // Redo, then rewind again with b.txt ticked: the user's change is overwritten too.
  await h.controller.redoRewind();
  assert.equal((await read('a.txt'))?.toString(), 'a1\n');
  assert.equal((await read('b.txt'))?.toString(), 'b by the user\n');
  await h.controller.rewindPreview(u1);
  await h.controller.rewind(u1, 'files', ['b.txt']);
  assert.equal((await read('b.txt'))?.toString(), 'b0\n');
});

test('a user edit between two agent turns is named in the preview, and rewinding past both undoes it too', async () => {
  const { root, h, read } = await setup({ 'a.txt': 'a0\n' }, [
    call('1', 'read_file', { file_path: 'a.txt' }),
    call('2', 'edit_file', { file_path: 'a.txt', old_string: 'a0', new_string: 'a1' }),
    say('one'),
    call('3', 'read_file', { file_path: 'a.txt' }),
    call('4', 'edit_file', { file_path: 'a.txt', old_string: 'user', new_string: 'agent again' }),
    say('two'),
  ]);
  await h.controller.send('r1', 'first', 'agent');
  await fs.writeFile(path.join(root, 'a.txt'), 'a1 user\n'); // the user, between the turns
  await h.controller.send('r2', 'second', 'agent');
  assert.equal((await read('a.txt'))?.toString(), 'a1 agent again\n');
  const [u1, u2] = userIds(h);
  const toSecond = (await h.controller.rewindPreview(u2)) as RewindPreview;
  assert.deepEqual(toSecond.files, [
    { path: 'a.txt', action: 'restore', changedByUser: false, editedBetweenTurns: false },
  ]);
  const toFirst = (await h.controller.rewindPreview(u1)) as RewindPreview;
  assert.deepEqual(toFirst.files, [
    { path: 'a.txt', action: 'restore', changedByUser: false, editedBetweenTurns: true },
  ]);
  await h.controller.rewind(u1, 'files');
  assert.equal((await read('a.txt'))?.toString(), 'a0\n');
});

test('rewinding to the second message undoes only its turn and cuts the model history there', async () => {
  const { h, read, provider } = await setup({ 'a.txt': 'v0\n', 'b.txt': 'w0\n' }, [
    call('1', 'read_file', { file_path: 'a.txt' }),
    call('2', 'edit_file', { file_path: 'a.txt', old_string: 'v0', new_string: 'v1' }),
    say('first done'),
    call('3', 'read_file', { file_path: 'b.txt' }),
    call('4', 'edit_file', { file_path: 'b.txt', old_string: 'w0', new_string: 'w1' }),
    call('5', 'run', { path: 'c.txt' }),
    say('second done'),
    say('third answer'),
  ]);
  await h.controller.send('r1', 'first', 'agent');
  await h.controller.send('r2', 'second', 'agent');
  const [, u2] = userIds(h);
  const preview = (await h.controller.rewindPreview(u2)) as RewindPreview;
  assert.deepEqual(
    preview.files.map((f) => `${f.action} ${f.path}`),
    ['restore b.txt'],
  );
  assert.equal(preview.commandsNote, COMMANDS_NOTE, 'a command ran: its changes are not recorded, and it says so');
  await h.controller.rewind(u2, 'both');
  assert.equal((await read('a.txt'))?.toString(), 'v1\n', 'the first turn stays');
  assert.equal((await read('b.txt'))?.toString(), 'w0\n');
  assert.equal((await read('c.txt'))?.toString(), 'by a command', 'a command’s file is not seen, and stays');
  await h.controller.send('r3', 'second, again', 'agent');
  const sent = provider.requests.at(-1)?.messages ?? [];
  const users = sent.filter((m) => m.role === 'user').map((m) => m.content);
  assert.deepEqual(users, ['first', 'second, again'], 'the model no longer sees the rewound turn');
  assert.ok(!JSON.stringify(sent).includes('second done'));
  assert.equal(posted(h.posts, 'snapshot').at(-1)?.snapshot.redo?.messageId, u2);
  const last = h.persistence.records.filter((r) => r.kind === 'rewind_state').at(-1);
  assert.deepEqual(last && 'redo' in last ? last.redo : 'none', null, 'sending again ends the redo offer');
});

test('edit and resend forks: the edited text is sent from that point, the old branch stays in history', async () => {
  const { h, read, provider } = await setup({ 'a.txt': 'v0\n' }, [
    call('1', 'read_file', { file_path: 'a.txt' }),
    call('2', 'edit_file', { file_path: 'a.txt', old_string: 'v0', new_string: 'v1' }),
    say('edited'),
    say('answer to the edited message'),
  ]);
  await h.controller.send('r1', 'make it v1', 'agent');
  const [u1] = userIds(h);
  const preview = (await h.controller.rewindPreview(u1)) as RewindPreview;
  assert.equal(preview.fileChanges, true, 'the webview asks whether to rewind files too');
  await h.controller.editResend(u1, 'r2', 'just say hello', 'agent', { rewindFiles: true });
  assert.equal((await read('a.txt'))?.toString(), 'v0\n');
  assert.equal(posted(h.posts, 'rewound').length, 0, 'no draft for the composer, no rewind notice');
  assert.equal(posted(h.posts, 'snapshot').at(-1)?.snapshot.redo, undefined, 'no Redo offer: the chat went on');
  const sent = provider.requests.at(-1)?.messages ?? [];
  assert.deepEqual(
    sent.map((m) => m.role),
    ['user'],
  );
  assert.equal(sent[0].role === 'user' && sent[0].content, 'just say hello');
  const current = h.persistence.getSession(h.controller.sessionId);
  assert.deepEqual(
    current?.messages.map((m) => m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('')),
    ['just say hello', 'answer to the edited message'],
  );
  const branch = h.persistence.listSessions().find((s) => s.title.endsWith('(earlier branch)'));
  assert.ok(branch);
  const old = h.persistence.getSession(branch.id);
  assert.equal(old?.messages[0].parts[0].type === 'text' && old.messages[0].parts[0].text, 'make it v1');
  assert.equal(old?.modelMessages.length, 6, 'the old branch keeps its whole model history');
});

test('rewind is refused while a request runs, and for a message that is not in the chat', async () => {
  const { h, provider } = await setup({}, [say('slow')]);
  let release!: () => void;
  provider.holdNextStepUntil(new Promise<void>((r) => (release = r)));
  const running = h.controller.send('r1', 'hello', 'agent');
  for (let i = 0; i < 500 && !h.envelopes('r1').some((e) => e.event.type === 'text_delta'); i++)
    await new Promise((r) => setTimeout(r, 2));
  const [u1] = userIds(h);
  assert.equal(await h.controller.rewindPreview(u1), undefined);
  assert.match(posted(h.posts, 'protocolError').at(-1)?.error.message ?? '', /Stop the running request/);
  release();
  await running;
  assert.equal(await h.controller.rewind('nope', 'both'), undefined);
  assert.match(posted(h.posts, 'protocolError').at(-1)?.error.message ?? '', /no longer in this chat/);
  assert.equal(await h.controller.redoRewind(), undefined);
  assert.match(posted(h.posts, 'protocolError').at(-1)?.error.message ?? '', /no rewind to undo/);
});

test('on the real store: the rewound conversation, its branch, the checkpoints and Redo survive a reopen', async () => {
  const { h, read, store, storeDir, root, blobDir } = await setup(
    { 'a.txt': 'v0\n' },
    [
      call('1', 'read_file', { file_path: 'a.txt' }),
      call('2', 'edit_file', { file_path: 'a.txt', old_string: 'v0', new_string: 'v1' }),
      say('first done'),
      say('second done'),
    ],
    'real',
  );
  assert.ok(store && storeDir);
  try {
    await h.controller.send('r1', 'first', 'agent');
    await h.controller.send('r2', 'second', 'agent');
    const sessionId = h.controller.sessionId;
    const stored = store.getSession(sessionId);
    assert.equal(stored?.checkpoints?.length, 2);
    // user, read call, its result, edit call, its result, answer
    assert.equal(stored?.checkpoints?.[1].modelIndex, 6, 'the second turn starts after the first one’s six messages');
    const [u1] = userIds(h);
    await h.controller.rewind(u1, 'both');
    assert.equal((await read('a.txt'))?.toString(), 'v0\n');
    await h.controller.dispose();
    await store.close();

    const reopened = await open(storeDir.dir);
    try {
      const s = reopened.getSession(sessionId);
      assert.equal(s?.messages.length, 0);
      assert.equal(s?.modelMessages.length, 0);
      assert.deepEqual(s?.checkpoints, []);
      assert.equal(s?.redo?.userMessageId, u1);
      const branchId = s?.redo?.branchSessionId;
      assert.ok(branchId);
      const branch = reopened.getSession(branchId);
      assert.equal(branch?.messages.length, 4);
      assert.equal(branch?.modelMessages.length, 8);
      assert.equal(branch?.checkpoints?.length, 2);
      assert.ok(
        branch?.checkpoints?.every((c: TurnCheckpoint) => branch.messages.some((m) => m.id === c.userMessageId)),
        'the branch’s checkpoints point at its own messages',
      );
      assert.ok(branch?.title.endsWith('(earlier branch)'));

      // A new window: the chat is resumed and Redo is still offered, and works.
      const ws = new NodeWorkspace({ roots: [root] });
      const again = createHarness({
        provider: new ScriptedProvider([]),
        tools: TOOLS,
        workspace: ws,
        permissions: allowAll(root),
        checkpoints: { files: withLocalFileOps(ws), blobs: new FileCheckpointBlobs(blobDir) },
        store: reopened,
        idPrefix: 'w2-',
      });
      assert.equal(await again.controller.resume(sessionId), true);
      assert.equal(posted(again.posts, 'snapshot').at(-1)?.snapshot.redo?.messageId, u1);
      await again.controller.redoRewind();
      assert.equal((await read('a.txt'))?.toString(), 'v1\n');
      assert.equal(reopened.getSession(sessionId)?.messages.length, 4);
      assert.equal(reopened.getSession(sessionId)?.modelMessages.length, 8);
      assert.equal(reopened.getSession(branchId), undefined, 'the branch is gone from history after the redo');
      await again.controller.dispose();
    } finally {
      await reopened.close();
    }
  } finally {
    storeDir.cleanup();
  }
});

test('an edited proposal approved in the diff review is checkpointed too, and rewound', async () => {
  const root = await makeTempWorkspace({ 'a.txt': 'alpha\n' });
  const blobDir = path.join(realpathSync(await fs.mkdtemp(path.join(tmpdir(), 'sextant-rewind-'))), 'checkpoints');
  const ws = new NodeWorkspace({ roots: [root] });
  const userText = 'alpha, as the user edited the proposal\n';
  const review: DiffReviewPort = {
    open: () => ({ editedText: () => userText, close: () => {} }),
  };
  const h = createHarness({
    provider: new ScriptedProvider([
      call('1', 'read_file', { file_path: 'a.txt' }),
      call('2', 'edit_file', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' }),
      say('done'),
    ]),
    tools: TOOLS,
    workspace: ws,
    diffReview: review,
    checkpoints: { files: withLocalFileOps(ws), blobs: new FileCheckpointBlobs(blobDir) },
  });
  const sending = h.controller.send('r1', 'shout', 'agent');
  let callId: string | undefined;
  for (let i = 0; i < 5000 && !callId; i++) {
    await new Promise((r) => setTimeout(r, 2));
    callId = h.envelopes('r1').flatMap((e) => (e.event.type === 'approval_needed' ? [e.event.approval.callId] : []))[0];
  }
  assert.ok(callId, 'the edit asks');
  h.controller.approve(callId, { decision: 'approve' });
  await sending;
  assert.equal(await fs.readFile(path.join(root, 'a.txt'), 'utf8'), userText, 'the user’s version was written');
  const [u1] = userIds(h);
  const preview = (await h.controller.rewindPreview(u1)) as RewindPreview;
  assert.deepEqual(
    preview.files.map((f) => `${f.action} ${f.path}`),
    ['restore a.txt'],
  );
  await h.controller.rewind(u1, 'files');
  assert.equal(await fs.readFile(path.join(root, 'a.txt'), 'utf8'), 'alpha\n');
});
