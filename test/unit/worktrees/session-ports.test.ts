// A chat slot whose session works in a worktree (vscode/worktree-slots.ts over core/worktrees/session-ports.ts):
// its file tools, its box and its permission policy are rooted at the worktree, so what it writes lands
// there and never in the main working tree; a chat whose session has no worktree is the window's as before.
// Real git repositories, the real tools, the real policy, and real bubblewrap for the box.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import type { PermissionGate } from '../../../extension/core/agent/permission-gate';
import { decide } from '../../../extension/core/permissions/policy/decide';
import type { LaunchRequest, SandboxPort } from '../../../extension/core/sandbox/types';
import { bashTool } from '../../../extension/core/tools/bash';
import { globTool } from '../../../extension/core/tools/glob';
import { createToolSessionState, disposeToolSession } from '../../../extension/core/tools/registry';
import { writeFileTool } from '../../../extension/core/tools/write-file';
import { createWorktree } from '../../../extension/core/worktrees/create';
import { rootedSandbox } from '../../../extension/core/worktrees/session-ports';
import { WorktreeSessions, type WorktreeRecord } from '../../../extension/core/worktrees/session-registry';
import { createPermissions } from '../../../extension/engine/permissions';
import { createSandbox } from '../../../extension/platform/sandbox/create-sandbox';
import { detectBackend } from '../../../extension/platform/sandbox/detect';
import { slotRooting } from '../../../extension/vscode/worktree-slots';
import { createNodePorts, makeContext, textOf } from '../../fixtures/node-ports';
import { fixture, hasGit } from './repo-fixture';

const skip = hasGit ? false : 'git is not installed';

function memoryRegistry() {
  let stored: WorktreeRecord[] = [];
  return new WorktreeSessions({
    read: () => stored,
    write: (r) => {
      stored = r;
    },
  });
}

/** A window's ports and permissions over the main working tree, and a chat slot's rooting over them. */
async function setup(o: { ready?: Promise<void> } = {}) {
  const f = fixture();
  const made = await createWorktree({ repo: f.repo, title: 'chat', sessionId: 'wt-session-1' });
  const sessions = memoryRegistry();
  sessions.add('wt-session-1', made.worktree, o.ready ?? made.ready);
  const ports = createNodePorts({ root: f.repo });
  const permissions = createPermissions({
    auditDir: path.join(f.base, 'audit'),
    log: ports.log,
    userSettings: () => ({ deny: ['write_file(secret.txt)'] }),
    workspaceSettings: () => undefined,
    workspaceFolders: () => [f.repo],
    secrets: new Set(),
  });
  const rooting = slotRooting({
    sessions,
    ports,
    permissions,
    handlerParts: () => {
      throw new Error('no handler table in this test');
    },
  });
  return { f, wt: made.worktree, sessions, ports, permissions, rooting };
}

test('a write tool in a worktree session lands in the worktree, not in the main working tree', { skip }, async () => {
  const t = await setup();
  try {
    const slot = t.rooting(() => 'wt-session-1');
    assert.deepEqual(slot.ports.workspace.roots(), [t.wt.path]);
    const ctx = makeContext({ ...t.ports, ...slot.ports });
    const r = await writeFileTool.execute({ file_path: 'notes/new.txt', content: 'from the worktree\n' }, ctx);
    assert.equal(r.isError, false, textOf(r));
    assert.equal(readFileSync(path.join(t.wt.path, 'notes/new.txt'), 'utf8'), 'from the worktree\n');
    assert.ok(!existsSync(path.join(t.f.repo, 'notes')), 'nothing written in the main working tree');
    // Finding files searches the worktree too; a path into the main tree is outside its workspace.
    assert.match(textOf(await globTool.execute({ pattern: '**/new.txt' }, ctx)), /notes\/new\.txt/);
    const out = await writeFileTool.execute({ file_path: path.join(t.f.repo, 'leak.txt'), content: 'x' }, ctx);
    assert.equal(out.isError, true);
    assert.match(textOf(out), /outside the workspace folders/);
    assert.ok(!existsSync(path.join(t.f.repo, 'leak.txt')));
    assert.equal(t.f.git(t.f.repo, 'status', '--porcelain'), '', 'the main tree is clean');

    // The same slot showing a session without a worktree works in the workspace, as any chat.
    const plain = t.rooting(() => 'another-session');
    assert.deepEqual(plain.ports.workspace.roots(), [t.f.repo]);
    const w = await writeFileTool.execute(
      { file_path: 'plain.txt', content: 'plain\n' },
      makeContext({ ...t.ports, ...plain.ports }),
    );
    assert.equal(w.isError, false, textOf(w));
    assert.equal(readFileSync(path.join(t.f.repo, 'plain.txt'), 'utf8'), 'plain\n');
  } finally {
    t.f.done();
  }
});

test('a worktree session’s file calls wait for its files; the chat itself does not', { skip }, async () => {
  let release = () => {};
  const ready = new Promise<void>((r) => {
    release = r;
  });
  const t = await setup({ ready });
  try {
    const slot = t.rooting(() => 'wt-session-1');
    // Roots are known at once (the worktree exists); reading a file waits until its files are written.
    assert.deepEqual(slot.ports.workspace.roots(), [t.wt.path]);
    let read = false;
    const reading = slot.ports.workspace.readFile(path.join(t.wt.path, 'a.txt')).then((b) => {
      read = true;
      return b;
    });
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    assert.equal(read, false, 'no file is read before the worktree has its files');
    release();
    assert.ok((await reading).length > 0);
  } finally {
    t.f.done();
  }
});

test('a worktree session’s policy is compiled at the worktree (its relative rules, its bounds)', { skip }, async () => {
  const t = await setup();
  try {
    const slot = t.rooting(() => 'wt-session-1');
    const policy = (slot.permissions as PermissionGate).policy();
    assert.deepEqual(policy.workspaceFolders, [t.wt.path]);
    // The user's relative deny rule holds in the worktree as it does in the main tree.
    const inWorktree = decide(
      { tool: 'write_file', input: { file_path: 'secret.txt' }, realPath: path.join(t.wt.path, 'secret.txt') },
      policy,
    );
    assert.equal(inWorktree.decision, 'deny', inWorktree.reason);
    // A write into the main working tree is outside this session's workspace: never allowed silently.
    const intoMain = decide(
      { tool: 'write_file', input: { file_path: 'x.txt' }, realPath: path.join(t.f.repo, 'x.txt') },
      policy,
    );
    assert.notEqual(intoMain.decision, 'allow');
    assert.deepEqual(t.rooting(() => 'another-session').permissions?.policy().workspaceFolders, [t.f.repo]);
  } finally {
    t.f.done();
  }
});

test('a worktree session’s box gets the worktree as its one workspace folder, after its files', async () => {
  const launched: LaunchRequest[] = [];
  const base: SandboxPort = {
    status: () => ({ mode: 'box', backend: 'bubblewrap', active: true }),
    widen: async () => undefined,
    launch: async (req) => {
      launched.push(req);
      throw new Error('not launched in this test');
    },
  };
  const wt = {
    path: '/repo.sextant-worktrees/chat-abc123',
    branch: 'sextant/chat-abc123',
    base: 'f'.repeat(40),
    mainPath: '/repo',
    commonDir: '/repo/.git',
    gitDir: '/repo/.git/worktrees/chat-abc123',
  };
  let current: { worktree: typeof wt; ready: Promise<void> } | undefined = { worktree: wt, ready: Promise.resolve() };
  const box = rootedSandbox(base, () => current);
  const req: LaunchRequest = { command: 'true', cwd: wt.path, env: {}, sessionId: 's', callId: 'c' };
  await assert.rejects(box.launch(req));
  assert.deepEqual(launched[0]?.workspaceFolders, [wt.path]);
  current = undefined;
  await assert.rejects(box.launch({ ...req, cwd: '/repo' }));
  assert.equal(launched[1]?.workspaceFolders, undefined, 'a plain session: the window’s folders');
});

const detected = detectBackend();
const noBox = detected.ok && detected.backend === 'bubblewrap' ? false : 'no bubblewrap box here';

test('a boxed command of a worktree session writes the worktree and cannot write the main working tree', {
  skip: skip || noBox,
}, async () => {
  const t = await setup();
  const sandbox = createSandbox({
    settings: () => ({ mode: 'box', allowedHosts: [], extraWriteRoots: [] }),
    // The window's folder is the main working tree, as in VS Code.
    workspaceFolders: () => [t.f.repo],
    home: t.f.base,
    stateRoot: path.join(t.f.base, 'state'),
  });
  t.ports.sandbox = sandbox;
  t.ports.childEnv = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: t.f.base, LANG: 'C' });
  t.ports.approval = { request: async () => ({ decision: 'deny' }) };
  const session = createToolSessionState('wt-box');
  try {
    const slot = t.rooting(() => 'wt-session-1');
    const ctx = makeContext({ ...t.ports, ...slot.ports }, { session });
    const main = JSON.stringify(path.join(t.f.repo, 'leak.txt'));
    // Under /tmp the box's view of the main tree is its own scratch (the box's /tmp is private); beside
    // a checkout it is read-only: either way nothing reaches the main working tree on the host.
    const out = textOf(await bashTool.execute({ command: `pwd; echo in > inside.txt; echo out > ${main}; true` }, ctx));
    assert.ok(out.startsWith(t.wt.path), `it starts in the worktree: ${out}`);
    assert.equal(readFileSync(path.join(t.wt.path, 'inside.txt'), 'utf8'), 'in\n');
    assert.ok(!existsSync(path.join(t.f.repo, 'leak.txt')), 'the main working tree is read-only in its box');
  } finally {
    disposeToolSession(session);
    sandbox.dispose();
    rmSync(path.join(t.f.base, 'state'), { recursive: true, force: true });
    t.f.done();
  }
});
