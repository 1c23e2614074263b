// rename through the real loop, policy and writers: one approval card for the whole change with each
// file's diff, each file in the diff review (edits per file kept), Approve writes every file and runs
// the diagnostics step on each, Deny writes none; the policy judges each file as a write — a rename
// that touches .vscode/settings.json asks as an edit of it does (even where edits run unasked), an
// `edit(…)` deny rule on one file refuses the rename, a file outside the workspace is refused as the
// writers refuse it; and rewind restores every file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import * as path from 'node:path';
import type { PermissionGate } from '../../../extension/core/agent/permission-gate';
import { judgeCall } from '../../../extension/core/agent/permission-gate';
import { FileCheckpointBlobs, withLocalFileOps } from '../../../extension/core/checkpoints';
import { createPolicy } from '../../../extension/core/permissions';
import type { DiffReviewPort, DiffReviewUpdate } from '../../../extension/core/ports';
import type { ModelMessage, ProviderEvent } from '../../../extension/core/providers/types';
import { editFileTool } from '../../../extension/core/tools/edit-file';
import { renameTool } from '../../../extension/core/tools/rename';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import { isChangeSet, type Proposal } from '../../../extension/core/tools/types';
import type { PendingApproval } from '../../../extension/protocol';
import { FakeLanguage, renameEditsOf } from '../../fixtures/fake-language';
import { makeTempWorkspace, NodeWorkspace } from '../../fixtures/node-ports';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { createHarness } from './harness';

const SHAPES = 'export function area(w: number, h: number) {\n  return w * h;\n}\n';
const USE = "import { area } from './shapes';\nexport const a = area(1, 2);\n";
const SETTINGS = '{ "area": 1 }\n';
const ARGS = { path: 'src/shapes.ts', line: 1, symbol: 'area', new_name: 'surface' };

class FakeDiffReview implements DiffReviewPort {
  readonly opened: Array<{ callId: string; change: Proposal }> = [];
  readonly closed: string[] = [];
  /** What the "user" typed into each file's proposal, by absolute path. */
  readonly edits = new Map<string, string>();
  open(review: { callId: string; change: Proposal }, _update: (u: DiffReviewUpdate) => void) {
    this.opened.push(review);
    return {
      editedText: (file?: string) => (file ? this.edits.get(file) : undefined),
      close: () => void this.closed.push(review.callId),
    };
  }
}

const call = (id: string, name: string, args: unknown): ProviderEvent[] => [
  { type: 'tool_call', call: { id, name, argumentsJson: JSON.stringify(args) } },
  { type: 'done', stopReason: 'tool_calls' },
];
const say = (text: string): ProviderEvent[] => [
  { type: 'text', text },
  { type: 'done', stopReason: 'end' },
];

async function until<T>(what: string, probe: () => T | undefined | false): Promise<T> {
  for (let i = 0; i < 5000; i++) {
    const v = probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function gate(root: string, user: Record<string, unknown> = {}): PermissionGate {
  const policy = createPolicy({ user, workspaceFolders: [root], home: homedir(), tools: declaredToolFacts() });
  return { policy: () => policy, rememberRule: async () => {} };
}

async function setup(
  t: { after(fn: () => void): void },
  o: {
    user?: Record<string, unknown>;
    more?: (abs: (rel: string) => string) => ReturnType<typeof renameEditsOf>[];
  } = {},
) {
  const root = await makeTempWorkspace({
    'src/shapes.ts': SHAPES,
    'src/use.ts': USE,
    '.vscode/settings.json': SETTINGS,
  });
  const blobDir = path.join(realpathSync(await fs.mkdtemp(path.join(tmpdir(), 'sextant-rename-'))), 'checkpoints');
  t.after(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(path.dirname(blobDir), { recursive: true, force: true });
  });
  const abs = (rel: string) => path.join(root, rel);
  const lang = new FakeLanguage({ limits: { quietMs: 5, maxMs: 200 } });
  lang.renameEdits = [
    renameEditsOf(abs('src/shapes.ts'), SHAPES, 'area', 'surface'),
    renameEditsOf(abs('src/use.ts'), USE, 'area', 'surface'),
    ...(o.more?.(abs) ?? []),
  ];
  const ws = new NodeWorkspace({ roots: [root] });
  const permissions = gate(root, o.user);
  const provider = new ScriptedProvider([call('n1', 'rename', ARGS), say('renamed')]);
  const review = new FakeDiffReview();
  const h = createHarness({
    provider,
    tools: [renameTool, editFileTool],
    workspace: ws,
    permissions,
    diffReview: review,
    language: lang,
    checkpoints: { files: withLocalFileOps(ws), blobs: new FileCheckpointBlobs(blobDir) },
  });
  const pending = () => {
    const live = new Map<string, PendingApproval>();
    for (const e of h.envelopes('r1')) {
      if (e.event.type === 'approval_needed') live.set(e.event.approval.callId, e.event.approval);
      if (e.event.type === 'approval_resolved') live.delete(e.event.callId);
    }
    return [...live.values()];
  };
  const told = () =>
    JSON.stringify(
      provider.requests[1]?.messages.filter((m): m is Extract<ModelMessage, { role: 'tool' }> => m.role === 'tool'),
    );
  const read = (rel: string) => fs.readFile(abs(rel), 'utf8');
  return { root, abs, lang, ws, permissions, h, review, pending, told, read };
}

test(
  'one card for the whole rename, each file in the diff review; Approve writes every ' +
    'file (the user’s edit kept), diagnostics for each, rewind restores all',
  async (t) => {
    const s = await setup(t);
    const sending = s.h.controller.send('r1', 'rename area', 'agent');
    const [card] = await until('the rename card', () => (s.pending().length === 1 ? s.pending() : undefined));
    assert.equal(card.tool, 'rename');
    assert.equal(card.change, undefined, 'no single-file change on a change of several');
    assert.deepEqual(
      card.changeSet?.files.map((f) => [f.path, f.added, f.removed]),
      [
        ['src/shapes.ts', 1, 1],
        ['src/use.ts', 2, 2],
      ],
    );
    assert.match(
      card.changeSet?.files[1].diff ?? '',
      /-export const a = area\(1, 2\);\n\+import \{ surface \} from '\.\/shapes';\n\+export const a = surface\(1, 2\);/,
    );
    // The full texts go to the diff review only.
    const opened = s.review.opened[0];
    assert.ok(isChangeSet(opened.change));
    assert.deepEqual(
      opened.change.files.map((f) => f.path),
      [s.abs('src/shapes.ts'), s.abs('src/use.ts')],
    );
    assert.ok(!JSON.stringify(s.h.persistence.records).includes('"proposal"'));
    assert.equal(await s.read('src/shapes.ts'), SHAPES, 'nothing written before approval');

    // The user edits one file's proposal in its diff, then approves the whole change.
    const mine = `${USE.replace(/area/g, 'surface')}// reviewed\n`;
    s.review.edits.set(s.abs('src/use.ts'), mine);
    s.h.controller.approve(card.callId, { decision: 'approve' });
    await sending;
    assert.equal(await s.read('src/shapes.ts'), SHAPES.replace('area', 'surface'));
    assert.equal(await s.read('src/use.ts'), mine);
    assert.deepEqual(s.review.closed, [card.callId]);
    assert.match(
      s.told(),
      /Changed 2 files: src\/shapes\.ts \(\+1 −1\), src\/use\.ts \(\+3 −2\), with the user’s edits/,
    );
    assert.match(s.told(), /\+\/\/ reviewed/);
    // The diagnostics step looked at both files (their baseline before the write).
    assert.ok(s.lang.tracked.includes(s.abs('src/shapes.ts')) && s.lang.tracked.includes(s.abs('src/use.ts')));

    // Rewind puts both back.
    const userId = s.h.envelopes('r1').flatMap((e) => (e.event.type === 'started' ? [e.event.userMessageId] : []))[0];
    assert.ok(userId);
    const preview = await s.h.controller.rewindPreview(userId);
    assert.deepEqual(preview?.files.map((f) => `${f.action} ${f.path}`).sort(), [
      'restore src/shapes.ts',
      'restore src/use.ts',
    ]);
    await s.h.controller.rewind(userId, 'files');
    assert.equal(await s.read('src/shapes.ts'), SHAPES);
    assert.equal(await s.read('src/use.ts'), USE);
    await s.h.controller.dispose();
  },
);

test('Deny writes no file and tells the model', async (t) => {
  const s = await setup(t);
  const sending = s.h.controller.send('r1', 'rename area', 'agent');
  const [card] = await until('the rename card', () => (s.pending().length === 1 ? s.pending() : undefined));
  s.h.controller.approve(card.callId, { decision: 'deny', reason: 'keep the old name' });
  await sending;
  assert.equal(await s.read('src/shapes.ts'), SHAPES);
  assert.equal(await s.read('src/use.ts'), USE);
  assert.match(s.told(), /The user denied this rename call\. Their reason: keep the old name/);
  await s.h.controller.dispose();
});

test(
  'each file is judged as a write: a rename touching .vscode/settings.json ' +
    'asks as its edit does, where edits run unasked',
  async (t) => {
    const more = (abs: (rel: string) => string) => [
      renameEditsOf(abs('.vscode/settings.json'), SETTINGS, 'area', 'surface'),
    ];
    // acceptEdits: a rename inside the workspace runs without asking…
    const plain = await setup(t, { user: { defaultMode: 'acceptEdits' } });
    await plain.h.controller.send('r1', 'rename area', 'agent');
    assert.equal(plain.pending().length, 0);
    assert.equal(await plain.read('src/use.ts'), USE.replace(/area/g, 'surface'));
    await plain.h.controller.dispose();

    // …but one that also edits .vscode/settings.json asks, for the reason an edit_file of it asks.
    const s = await setup(t, { user: { defaultMode: 'acceptEdits' }, more });
    const asEdit = await judgeCall(
      s.permissions,
      { tool: 'edit_file', kind: 'write', input: { file_path: s.abs('.vscode/settings.json') } },
      s.ws,
    );
    assert.equal(asEdit.decision, 'ask');
    assert.equal(asEdit.source, 'protected');
    const sending = s.h.controller.send('r1', 'rename area', 'agent');
    const [card] = await until('the rename card', () => (s.pending().length === 1 ? s.pending() : undefined));
    assert.equal(card.reason, asEdit.reason);
    assert.equal(card.alwaysRule, undefined, 'no "Always allow" for a protected path');
    assert.deepEqual(
      card.changeSet?.files.map((f) => f.path),
      ['.vscode/settings.json', 'src/shapes.ts', 'src/use.ts'],
    );
    s.h.controller.approve(card.callId, { decision: 'deny' });
    await sending;
    assert.equal(await s.read('.vscode/settings.json'), SETTINGS);
    await s.h.controller.dispose();
  },
);

test(
  'a deny rule on one file refuses the rename; a file outside ' + 'the workspace is refused as the writers refuse it',
  async (t) => {
    const denied = await setup(t, { user: { defaultMode: 'acceptEdits', deny: ['edit(src/use.ts)'] } });
    await denied.h.controller.send('r1', 'rename area', 'agent');
    assert.equal(denied.pending().length, 0);
    assert.match(denied.told(), /Blocked, not run: edit\(src\/use\.ts\) in your settings denies/);
    assert.equal(await denied.read('src/shapes.ts'), SHAPES, 'no file written');
    await denied.h.controller.dispose();

    const outsideDir = await makeTempWorkspace({ 'lib.ts': 'export const area = 1;\n' });
    t.after(() => rmSync(outsideDir, { recursive: true, force: true }));
    const outside = path.join(outsideDir, 'lib.ts');
    const s = await setup(t, {
      user: { defaultMode: 'allow' },
      more: () => [renameEditsOf(outside, 'export const area = 1;\n', 'area', 'surface')],
    });
    await s.h.controller.send('r1', 'rename area', 'agent');
    assert.equal(s.pending().length, 0);
    assert.match(s.told(), /Refused: .*lib\.ts is outside the workspace folders/);
    assert.equal(await fs.readFile(outside, 'utf8'), 'export const area = 1;\n');
    assert.equal(await s.read('src/shapes.ts'), SHAPES);
    // The same file through edit_file: the same words.
    const ctxTold = await editFileTool
      .proposeChange?.(
        { file_path: outside, old_string: 'area', new_string: 'surface' },
        {
          signal: new AbortController().signal,
          ports: { workspace: s.ws, search: { ripgrepPath: () => undefined }, terminal: {}, log: console } as never,
          session: { sessionId: 's', readFiles: new Map(), todos: [], extras: new Map() },
          callId: 'c',
          progress: () => undefined,
          supportsImages: false,
        },
      )
      .catch((e: Error) => e.message);
    assert.match(String(ctxTold), /Refused: .*lib\.ts is outside the workspace folders/);
    await s.h.controller.dispose();
  },
);
