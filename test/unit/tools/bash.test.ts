import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { bashTool } from '../../../extension/core/tools/bash';
import { bashOutputTool } from '../../../extension/core/tools/bash-output';
import { killShellTool } from '../../../extension/core/tools/kill-shell';
import { createToolSessionState, disposeToolSession } from '../../../extension/core/tools/registry';
import { createNodePorts, makeContext, makeTempWorkspace, textOf } from '../../fixtures/node-ports';

const posix = process.platform !== 'win32';

/**
 * Whether a process still runs. A killed process whose parent died first is re-parented to PID 1,
 * which in a container may never reap it: it stays a zombie ("Z" in /proc/<pid>/stat), not running.
 */
function alive(pid: number): boolean {
  // 0 and negatives name process groups (0: this process's own), never the process asked about.
  if (!(pid > 0)) return false;
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

async function waitFor(cond: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not reached in time');
}

async function setup() {
  const root = await makeTempWorkspace({ 'hello.txt': 'hi\n' });
  const shown: Array<[string, string]> = [];
  const mirrored: string[] = [];
  const ports = createNodePorts({ root });
  ports.terminal.show = (c, cwd) => {
    shown.push([c, cwd]);
    return { write: (s: string) => mirrored.push(s), end: (s: string) => mirrored.push(s) };
  };
  return { root, ports, shown, mirrored, ctx: makeContext(ports) };
}

test('bash runs in the workspace root and returns output, exit code and duration', { skip: !posix }, async () => {
  const { root, ctx, shown, mirrored } = await setup();
  const r = await bashTool.execute({ command: 'pwd; cat hello.txt; echo err >&2' }, ctx);
  assert.equal(r.isError, false, textOf(r));
  assert.match(textOf(r), new RegExp(`^${root}\\nhi\\nerr\\n\\[exit code 0 · \\d+`));
  assert.deepEqual(shown, [['pwd; cat hello.txt; echo err >&2', root]]);
  // The terminal mirror gets the captured output and the outcome (display only).
  await new Promise((r) => setImmediate(r));
  assert.match(mirrored.join(''), new RegExp(`^${root}\\nhi\\nerr\\n\\[exit code 0`));
  const f = await bashTool.execute({ command: 'echo failing; exit 3' }, ctx);
  assert.equal(f.isError, true);
  assert.match(textOf(f), /failing\n\[exit code 3 ·/);
});

test('bash streams live output through ctx.progress', { skip: !posix }, async () => {
  const { ctx } = await setup();
  await bashTool.execute({ command: 'for i in 1 2 3; do echo line$i; sleep 0.05; done' }, ctx);
  assert.equal(ctx.progressed.join(''), 'line1\nline2\nline3\n');
});

test('huge output keeps head and tail, and the middle can be paged with bash_output', { skip: !posix }, async () => {
  const { ctx } = await setup();
  const r = await bashTool.execute({ command: 'seq 1 20000' }, ctx);
  const t = textOf(r);
  assert.ok(t.length < 32_000, `capped, got ${t.length}`);
  assert.match(t, /^1\n2\n3\n/);
  assert.match(t, /19999\n20000\n\[exit code 0/);
  const m = new RegExp(
    String.raw`… \[(\d+) lines \(\d+ characters\) elided — the full output is kept: ` +
      String.raw`bash_output with bash_id "(bash_\d+)", offset (\d+)`,
  ).exec(t);
  assert.ok(m, t.slice(0, 200));
  const [, , id, first] = m;
  const page = await bashOutputTool.execute({ bash_id: id, offset: Number(first), limit: 3 }, ctx);
  const n = Number(first);
  assert.match(
    textOf(page),
    new RegExp(
      `\\s${n}\\t${n}\\n\\s+${n + 1}\\t${n + 1}\\n\\s+${n + 2}\\t${n + 2}\\n` + `\\(Lines ${n}–${n + 2} of 20000`,
    ),
  );
});

test('a command past its timeout is killed with its children and says so', { skip: !posix }, async () => {
  const { root, ctx } = await setup();
  const r = await bashTool.execute({ command: `sleep 30 & echo $! > child.pid; wait`, timeout: 1000 }, ctx);
  assert.equal(r.isError, true);
  assert.match(textOf(r), /timed out after/);
  const pid = Number((await fs.readFile(path.join(root, 'child.pid'), 'utf8')).trim());
  await waitFor(() => !alive(pid));
});

test('abort mid-command kills the process tree and ends the call', { skip: !posix }, async () => {
  const { root, ctx } = await setup();
  const running = bashTool.execute({ command: `sleep 30 & echo $! > child.pid; echo started; wait` }, ctx);
  await waitFor(() => existsSync(path.join(root, 'child.pid')) && ctx.progressed.join('').includes('started'));
  const pid = Number((await fs.readFile(path.join(root, 'child.pid'), 'utf8')).trim());
  assert.ok(alive(pid));
  ctx.controller.abort();
  const r = await running;
  assert.equal(r.isError, true);
  assert.match(textOf(r), /started\n\[killed after .*\]\n\[aborted by the user\]/);
  await waitFor(() => !alive(pid));
});

test('background job: new output since last read, regex filter, kill, and session end', { skip: !posix }, async (t) => {
  const { ctx } = await setup();
  t.after(() => disposeToolSession(ctx.session));
  const started = await bashTool.execute(
    {
      command: 'for i in $(seq 1 6); do echo "tick $i"; echo "noise $i"; sleep 0.05; done; sleep 30',
      run_in_background: true,
    },
    ctx,
  );
  const id = /as (bash_\d+)/.exec(textOf(started))?.[1];
  assert.ok(id, textOf(started));
  await waitFor(async () =>
    /noise 6/.test(textOf(await bashOutputTool.execute({ bash_id: id, offset: 1, limit: 100 }, ctx))),
  );
  const first = textOf(await bashOutputTool.execute({ bash_id: id, filter: '^tick [1-6]$' }, ctx));
  const [, status, ...body] = first.split('\n');
  assert.match(status, /^\[running for/);
  assert.deepEqual(body, ['tick 1', 'tick 2', 'tick 3', 'tick 4', 'tick 5', 'tick 6']);
  const again = textOf(await bashOutputTool.execute({ bash_id: id }, ctx));
  assert.match(again, /\(no new output\)/);
  const k = await killShellTool.execute({ shell_id: id }, ctx);
  assert.match(textOf(k), /Stopped bash_\d+ .*\[killed after/);
  const after = textOf(await bashOutputTool.execute({ bash_id: id }, ctx));
  assert.match(after, /\[killed after/);
  const unknown = await bashOutputTool.execute({ bash_id: 'bash_99' }, ctx);
  assert.equal(unknown.isError, true);
  assert.match(textOf(unknown), /Known jobs: bash_\d+ \(killed\)/);
});

test('disposing the tool session kills its background jobs', { skip: !posix }, async () => {
  const root = await makeTempWorkspace({});
  const session = createToolSessionState('s2');
  const ctx = makeContext(createNodePorts({ root }), { session });
  await bashTool.execute({ command: 'sleep 30 & echo $! > bg.pid; wait', run_in_background: true }, ctx);
  // The file exists before echo has written the pid into it: wait for the whole line (an empty read gave
  // pid 0, which "is alive" as this process's own group — a flake under load).
  const pidFile = path.join(root, 'bg.pid');
  await waitFor(() => existsSync(pidFile) && /^\d+\n$/.test(readFileSync(pidFile, 'utf8')));
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  assert.ok(pid > 0 && alive(pid));
  disposeToolSession(session);
  await waitFor(() => !alive(pid));
});

test('bash describeForApproval shows the command and where it runs', async () => {
  const { root, ctx } = await setup();
  const d = await bashTool.describeForApproval!({ command: 'npm test', description: 'Run the tests' }, ctx);
  assert.equal(d, `Run the tests\n$ npm test\n(in ${root}, timeout 120 s)`);
});
