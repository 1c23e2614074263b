// Issue 35 item 12 for `@`: attaching a .env file asks (the card says why) through the real resolver
// and policy; declined, nothing is sent; a template attaches; a user rule naming the file allows it.
// And the attached file is the real path that was judged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import type { Reference } from '../../../extension/protocol';
import { createPolicy } from '../../../extension/core/permissions';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import type { PermissionGate } from '../../../extension/core/agent/permission-gate';
import { resolveReferences } from '../../../extension/core/extensions/references/resolve';
import type { ReferenceServices } from '../../../extension/core/extensions/references/types';
import { createNodePorts, makeTempWorkspace } from '../../fixtures/node-ports';

const SECRET = 'DOTENV-SECRET-VALUE-31f0';

function gate(root: string, allow: string[] = []): PermissionGate {
  const policy = createPolicy({
    user: { allow },
    workspaceFolders: [root],
    home: homedir(),
    tools: declaredToolFacts(),
  });
  return { policy: () => policy, rememberRule: async () => undefined };
}

async function setup(allow: string[] = [], answer = false) {
  const root = await makeTempWorkspace({
    '.env': `API_TOKEN=${SECRET}\n`,
    '.env.example': 'API_TOKEN=\n',
  });
  const asked: Array<{ path: string; reason: string }> = [];
  const services: ReferenceServices = {
    workspace: createNodePorts({ root }).workspace,
    ripgrepPath: () => undefined,
    permissions: gate(root, allow),
    editor: { selection: async () => undefined, problems: async () => '', terminalOutput: async () => undefined },
    confirmRead: async (q) => {
      asked.push(q);
      return answer;
    },
  };
  return { root, services, asked };
}

const file = (value: string): Reference => ({ kind: 'file', value, label: `@${value}` });

test('@.env asks, saying why; declined, the message is not sent', async () => {
  const { services, asked } = await setup();
  const r = await resolveReferences([file('.env')], services);
  assert.equal(asked.length, 1);
  assert.match(asked[0].reason, /\.env files hold the project.s secrets/);
  assert.equal(r.ok, false);
  assert.ok(!JSON.stringify(r).includes(SECRET));
});

test('@.env attaches when the user says yes, or a rule of theirs names it; @.env.example never asks', async () => {
  const yes = await setup([], true);
  const r1 = await resolveReferences([file('.env')], yes.services);
  assert.ok(r1.ok && r1.attachments[0].content.includes(SECRET));

  const ruled = await setup(['read_file(.env)']);
  const r2 = await resolveReferences([file('.env')], ruled.services);
  assert.equal(ruled.asked.length, 0);
  assert.ok(r2.ok && r2.attachments[0].content.includes(SECRET));

  const template = await setup();
  const r3 = await resolveReferences([file('.env.example')], template.services);
  assert.equal(template.asked.length, 0);
  assert.ok(r3.ok);
});

test('@ a link to .env is judged (and asks) as the .env it is', async () => {
  const { root, services, asked } = await setup();
  await fs.symlink(path.join(root, '.env'), path.join(root, 'notes.txt'));
  const r = await resolveReferences([file('notes.txt')], services);
  assert.equal(asked.length, 1);
  assert.equal(r.ok, false);
});

test('without a permission gate, @.env still asks', async () => {
  const { services, asked } = await setup();
  const r = await resolveReferences([file('.env')], { ...services, permissions: undefined });
  assert.equal(asked.length, 1);
  assert.equal(r.ok, false);
});
