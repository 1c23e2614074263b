// Every case of issue 20 through the real policy (via the gate, as the loop asks) and the real
// `bash` tool: with rules that look narrow, the call must not be allowed — and where the gate would
// let it run, the marker file must not appear. Each case is checked to be real first: run without
// the policy, the same command does create the marker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { judgeCall } from '../../../extension/core/agent/permission-gate';
import { createPolicy } from '../../../extension/core/permissions';
import { bashTool } from '../../../extension/core/tools/bash';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import { createNodePorts, makeContext, makeTempWorkspace } from '../../fixtures/node-ports';
import { ISSUE_20_CASES as CASES, ISSUE_20_RULES } from '../../fixtures/permission-regressions';

const posix = process.platform !== 'win32';

test('issue 20: a narrow rule allows only what it says, through the gate and the bash tool', {
  skip: !posix,
}, async () => {
  const { allow, deny } = ISSUE_20_RULES;
  for (const [name, command, files] of CASES) {
    const root = await makeTempWorkspace(files ?? {});
    await fs.mkdir(path.join(root, '.git'), { recursive: true });
    const ports = createNodePorts({ root });
    const marker = path.join(root, 'x');
    const policy = createPolicy({
      user: { allow, deny },
      workspaceFolders: [root],
      home: homedir(),
      tools: declaredToolFacts(),
    });
    const gate = { policy: () => policy, rememberRule: async () => {} };
    const judged = await judgeCall(gate, { tool: 'bash', kind: 'execute', input: { command } }, ports.workspace);
    assert.notEqual(judged.decision, 'allow', `${name}: ${judged.reason}`);
    if (judged.decision === 'allow') await bashTool.execute({ command }, makeContext(ports));
    assert.equal(existsSync(marker), false, `${name}: the marker appeared`);
  }
});

test('issue 20 cases are real: run without the policy, bash does create the marker', { skip: !posix }, async () => {
  // The cases that need only bash builtins and git (npm, node and sed may be missing elsewhere).
  for (const [name, command] of CASES.slice(0, 4)) {
    const root = await makeTempWorkspace();
    const ports = createNodePorts({ root });
    await bashTool.execute({ command: command.replaceAll('git status', 'true') }, makeContext(ports));
    assert.ok(existsSync(path.join(root, 'x')), `${name}: bash did not run touch, so the case proves nothing`);
  }
});
