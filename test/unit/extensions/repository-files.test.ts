// Issue 35 item 3: a repository's symbolic links must not put the user's secrets in the prompt. Rules
// files and their `@` imports, skills, commands and agent files are read through the real reader
// (projectFilesOver → repository-file.ts) on a real disk with real links; the last test sends a turn
// through the real controller and OpenAI SDK to the fake LLM and looks at the request itself.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as openai from '../../../extension/core/providers/openai';
import { discoverRules, nestedRulesFor } from '../../../extension/core/extensions/rules';
import { discoverSkills } from '../../../extension/core/extensions/skills';
import { commandDirs, markdownCommandSource } from '../../../extension/core/extensions/slash-commands';
import { discoverAgents } from '../../../extension/core/extensions/agent-definitions';
import { ProjectContext } from '../../../extension/core/extensions/project-context';
import { projectFilesOver } from '../../../extension/core/extensions/project-files';
import { readRepositoryFile } from '../../../extension/core/extensions/repository-file';
import { localFiles } from '../../../extension/core/local-files';
import { readMcpJson } from '../../../extension/core/mcp/config';
import { startFakeLlm } from '../../fixtures/fake-llm';
import { createNodePorts, makeTempWorkspace } from '../../fixtures/node-ports';
import { createHarness } from '../agent/harness';
import { projectOnDisk, write } from './helpers';

const fakePromise = startFakeLlm();
after(async () => (await fakePromise).close());

/** What a private key file outside the workspace holds: recognisable, and no shape the redactor knows. */
const FAKE_KEY = 'FAKE-PRIVATE-KEY-MATERIAL-7c1e9a42';
/** A variable in this process's environment, so /proc/self/environ holds it. */
const ENV_MARKER_NAME = 'SEXTANT_TEST_ENV_MARKER';
const ENV_MARKER = 'ENV-MARKER-VALUE-5b8d3f17';
process.env[ENV_MARKER_NAME] = ENV_MARKER;

/** A folder outside both the workspace and the home folder, holding a "key". */
async function keyOutside(): Promise<string> {
  const dir = await makeTempWorkspace({ id_rsa: `${FAKE_KEY}\n` });
  return path.join(dir, 'id_rsa');
}

test('CLAUDE.md linked to a key outside the workspace is not read, and says why', async () => {
  const key = await keyOutside();
  const p = await projectOnDisk({ 'AGENTS.md': 'Project rule.' });
  await fs.symlink(key, path.join(p.root, 'CLAUDE.md'));
  const rules = await discoverRules(p.files);
  const claude = rules.find((r) => r.label === 'CLAUDE.md');
  assert.ok(claude, 'the file is named');
  assert.equal(claude.text, '');
  assert.equal(claude.refused, true);
  assert.match(claude.note ?? '', /is a link to .*id_rsa.*: a workspace file must stay inside the workspace folders/);
  assert.ok(!JSON.stringify(rules).includes(FAKE_KEY));
});

test('CLAUDE.md linked into ~/.ssh is refused as read_file refuses it', async () => {
  const p = await projectOnDisk({}, { '.ssh/id_ed25519': `${FAKE_KEY}\n` });
  await fs.symlink(path.join(p.home, '.ssh/id_ed25519'), path.join(p.root, 'CLAUDE.md'));
  const rules = await discoverRules(p.files);
  assert.match(rules[0]?.note ?? '', /reads of ~\/\.ssh\/ are refused: it holds your SSH private keys/);
  assert.ok(!JSON.stringify(rules).includes(FAKE_KEY));
});

test('an @ import of a link to /proc/self/environ is refused; the environment stays out', async () => {
  const p = await projectOnDisk({ 'AGENTS.md': 'Read @docs/env.md first.' });
  await fs.mkdir(path.join(p.root, 'docs'));
  await fs.symlink('/proc/self/environ', path.join(p.root, 'docs/env.md'));
  const rules = await discoverRules(p.files);
  const env = rules.find((r) => r.label === 'docs/env.md');
  assert.ok(env?.refused, JSON.stringify(rules.map((r) => r.note)));
  assert.match(env.note ?? '', /\/proc\/…\/environ are refused: a process's environment holds keys/);
  assert.ok(!JSON.stringify(rules).includes(ENV_MARKER));
});

test('an @ import of /proc/self/environ named directly, or of .env, is refused', async () => {
  const p = await projectOnDisk({ 'AGENTS.md': 'See @/proc/self/environ and @.env', '.env': 'API_KEY=abc123' });
  // An absolute import is outside the folders a workspace's rules may read (checked before the reader).
  const rules = await discoverRules(p.files);
  assert.ok(!JSON.stringify(rules).includes(ENV_MARKER));
  const dotenv = rules.find((r) => r.label === '.env');
  assert.ok(dotenv?.refused);
  assert.match(dotenv.note ?? '', /\.env files hold secrets and never go into the prompt/);
  assert.ok(!JSON.stringify(rules).includes('abc123'));
});

test('a link inside the workspace is still read at its real path (CLAUDE.md -> AGENTS.md)', async () => {
  const p = await projectOnDisk({ 'docs/rules.md': 'Linked rule.' });
  await fs.symlink('docs/rules.md', path.join(p.root, 'CLAUDE.md'));
  const rules = await discoverRules(p.files);
  assert.equal(rules.find((r) => r.label === 'CLAUDE.md')?.text, 'Linked rule.');
});

test("the user's own files may link within their home (a dotfiles repository), not out of it", async () => {
  const key = await keyOutside();
  const p = await projectOnDisk({}, { 'dotfiles/claude.md': 'My own rule.' });
  await fs.mkdir(path.join(p.home, '.claude'));
  await fs.symlink(path.join(p.home, 'dotfiles/claude.md'), path.join(p.home, '.claude/CLAUDE.md'));
  await fs.mkdir(path.join(p.home, '.sextant'));
  await fs.symlink(key, path.join(p.home, '.sextant/AGENTS.md'));
  const rules = await discoverRules(p.files);
  assert.equal(rules.find((r) => r.label === '~/.claude/CLAUDE.md')?.text, 'My own rule.');
  const outside = rules.find((r) => r.label === '~/.sextant/AGENTS.md');
  assert.match(outside?.note ?? '', /a file of yours must stay inside your home folder/);
  assert.ok(!JSON.stringify(rules).includes(FAKE_KEY));
});

test('a subfolder AGENTS.md linked out of the workspace is not given with a tool result', async () => {
  const key = await keyOutside();
  const p = await projectOnDisk({ 'src/a.ts': 'x' });
  await fs.symlink(key, path.join(p.root, 'src/AGENTS.md'));
  const nested = await nestedRulesFor(p.files, path.join(p.root, 'src/a.ts'), new Set());
  assert.deepEqual(nested, []);
});

test('skills, commands and agent files linked out of the workspace are not read', async () => {
  const key = await keyOutside();
  const outsideDir = path.dirname(key);
  await write(path.join(outsideDir, 'skill/SKILL.md'), `---\nname: leak\ndescription: ${FAKE_KEY}\n---\nbody`);
  await write(path.join(outsideDir, 'cmds/leak.md'), `${FAKE_KEY}\n`);
  const p = await projectOnDisk({ '.claude/agents/x.md': 'placeholder' });
  await fs.mkdir(path.join(p.root, '.claude/skills'), { recursive: true });
  await fs.symlink(path.join(outsideDir, 'skill'), path.join(p.root, '.claude/skills/leak'));
  await fs.symlink(path.join(outsideDir, 'cmds'), path.join(p.root, '.claude/commands'));
  await fs.rm(path.join(p.root, '.claude/agents/x.md'));
  await fs.symlink(key, path.join(p.root, '.claude/agents/x.md'));

  assert.deepEqual(await discoverSkills(p.files), []);
  assert.deepEqual(await markdownCommandSource(p.files, () => commandDirs(p.files)).list(), []);
  const agents = await discoverAgents(p.files);
  assert.ok(!JSON.stringify(agents).includes(FAKE_KEY));
  assert.match(agents.problems[0]?.message ?? '', /\.claude\/agents\/x\.md: not read .*must stay inside the workspace/);
});

test('only regular files are read: a FIFO named CLAUDE.md is refused, not waited on', async () => {
  const p = await projectOnDisk({});
  const { execFileSync } = await import('node:child_process');
  execFileSync('mkfifo', [path.join(p.root, 'CLAUDE.md')]);
  const read = await readRepositoryFile(
    localFiles,
    path.join(p.root, 'CLAUDE.md'),
    { roots: [p.root], home: p.home },
    1000,
  );
  assert.deepEqual(read, { kind: 'refused', reason: 'not read: it is not a regular file' });
});

test('the request carries neither the key nor the environment; a notice says why; keys in rules redacted', async () => {
  const fake = await fakePromise;
  const key = await keyOutside();
  const apiKey = `sk-proj-${'A1b2C3d4'.repeat(4)}`;
  const p = await projectOnDisk({ 'AGENTS.md': `Follow @docs/env.md\nDeploy with token ${apiKey}.` });
  await fs.symlink(key, path.join(p.root, 'CLAUDE.md'));
  await fs.mkdir(path.join(p.root, 'docs'));
  await fs.symlink('/proc/self/environ', path.join(p.root, 'docs/env.md'));
  const ports = createNodePorts({ root: p.root });
  const project = new ProjectContext(projectFilesOver(ports.workspace, p.home));
  const provider = openai.createProvider({ name: 'fake', kind: 'openai', baseUrl: `${fake.baseUrl}/v1` }, 'k');
  const h = createHarness({ provider, project, workspace: ports.workspace, systemPrompt: () => 'BASE' });
  const first = fake.requests.length;
  fake.enqueue({ text: 'Hello.' });
  await h.controller.send('r1', 'hi', 'chat');
  const bodies = fake.requests.slice(first).map((r) => JSON.stringify(r.body));
  assert.equal(bodies.length, 1);
  assert.ok(!bodies[0].includes(FAKE_KEY), 'the linked key is not sent');
  assert.ok(!bodies[0].includes(ENV_MARKER), 'the environment is not sent');
  assert.ok(!bodies[0].includes(apiKey), 'a key in a rules file is redacted');
  assert.match(bodies[0], /Deploy with token \[REDACTED\]/);
  const notices = h
    .envelopes('r1')
    .flatMap((e) => (e.event.type === 'notice' ? [e.event.text] : []))
    .join('\n');
  assert.match(notices, /Rules file CLAUDE\.md skipped: not read \(it is a link to .*id_rsa\)/);
  assert.match(notices, /Rules file docs\/env\.md skipped: not read .*environ are refused/);

  // Said once per chat, not on every message.
  fake.enqueue({ text: 'Again.' });
  await h.controller.send('r2', 'and again', 'chat');
  assert.ok(!h.envelopes('r2').some((e) => e.event.type === 'notice' && /skipped/.test(e.event.text)));
});

test('.mcp.json linked out of the workspace is named as a problem, not read (its text never echoed)', async () => {
  const key = await keyOutside();
  const p = await projectOnDisk({});
  await fs.symlink(key, path.join(p.root, '.mcp.json'));
  const source = await readMcpJson(localFiles, p.root, p.home);
  assert.deepEqual(source.servers, {});
  assert.match(source.problems[0] ?? '', /^\.mcp\.json: not read \(it is a link to .*\): a workspace file must stay/);
  assert.ok(!JSON.stringify(source).includes(FAKE_KEY));

  const ok = await projectOnDisk({ '.mcp.json': '{"mcpServers": {"x": {"command": "node"}}}' });
  assert.deepEqual(Object.keys((await readMcpJson(localFiles, ok.root, ok.home)).servers), ['x']);
});
