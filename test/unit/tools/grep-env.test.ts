// Issue 35 item 12 for grep: a search of the workspace does not show a .env file's lines unasked (it
// names the file instead); a user rule that allows reading it shows them; templates are searched.
// The context's mayRead is the loop's own (judgeCall over the real policy), as tool-step.ts builds it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { grepTool } from '../../../extension/core/tools/grep';
import { judgeCall, type PermissionGate } from '../../../extension/core/agent/permission-gate';
import { createPolicy } from '../../../extension/core/permissions';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import { createNodePorts, makeContext, makeTempWorkspace, textOf } from '../../fixtures/node-ports';

const SECRET = 'DOTENV-SECRET-VALUE-88aa';

async function grepWith(allow: string[]) {
  const root = await makeTempWorkspace({
    '.env': `API_TOKEN=${SECRET}\n`,
    'config/.env.local': `API_TOKEN=${SECRET}\n`,
    '.env.example': 'API_TOKEN=put-yours-here\n',
    'src/app.ts': 'const t = process.env.API_TOKEN;\n',
  });
  const ports = createNodePorts({ root });
  const policy = createPolicy({
    user: { allow },
    workspaceFolders: [root],
    home: homedir(),
    tools: declaredToolFacts(),
  });
  const gate: PermissionGate = { policy: () => policy, rememberRule: async () => undefined };
  const ctx = {
    ...makeContext(ports),
    mayRead: async (abs: string) =>
      (await judgeCall(gate, { tool: 'read_file', kind: 'read', input: { file_path: abs } }, ports.workspace))
        .decision === 'allow',
  };
  return grepTool.execute({ pattern: 'API_TOKEN', output_mode: 'content' }, ctx);
}

test('a workspace grep leaves .env lines out and names the files; templates and code are searched', async () => {
  const r = await grepWith([]);
  const text = textOf(r);
  assert.ok(!text.includes(SECRET), text);
  assert.match(text, /Matches in .*\.env.* are not shown: \.env files hold secrets/);
  assert.match(text, /config\/\.env\.local/);
  assert.match(text, /put-yours-here/);
  assert.match(text, /process\.env\.API_TOKEN/);
});

test("a user's rule allowing .env reads shows their lines", async () => {
  const text = textOf(await grepWith(['read(**/.env*)']));
  assert.ok(text.includes(SECRET));
  assert.ok(!/are not shown/.test(text));
});
