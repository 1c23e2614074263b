// The manifest is what the Marketplace shows and what VS Code wires up: it may claim nothing the code
// contradicts. Modes named in the description are the modes the protocol has (and no more); every
// contributed command is registered by activation; every contributed setting is read by the code;
// the walkthrough's buttons run commands that exist and its steps complete on context keys the code
// sets; the icon and the files the walkthrough shows ship in the VSIX.
import './fake-vscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MODES } from '../../../extension/protocol/model';
import { WALKTHROUGH_CONTEXT, WALKTHROUGH_ID } from '../../../extension/vscode/walkthrough';
import { fakeContext, recorded } from './fake-vscode';

const root = process.cwd();
interface Contributed {
  commands: Array<{ command: string; title: string }>;
  configuration: { properties: Record<string, unknown> };
  walkthroughs: Array<{
    id: string;
    steps: Array<{ id: string; description: string; media: { image?: string }; completionEvents: string[] }>;
  }>;
}
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  publisher: string;
  description: string;
  displayName: string;
  icon: string;
  keywords: string[];
  categories: string[];
  activationEvents: string[];
  contributes: Contributed;
  repository?: unknown;
  bugs?: unknown;
  homepage?: unknown;
  scripts: Record<string, string>;
};

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) sourceFiles(full, out);
    else if (name.endsWith('.ts')) out.push(full);
  }
  return out;
}
const source = sourceFiles(join(root, 'extension'))
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n');
const quoted = (s: string) => source.includes(`'${s}'`) || source.includes(`"${s}"`) || source.includes(`\`${s}\``);

test('the description names exactly the modes the code has, and says none is missing', () => {
  const named = ['Chat', 'Plan', 'Research', 'Agent', 'Debug', 'Edit', 'Ask', 'Review'].filter((m) =>
    new RegExp(`\\b${m}\\b`).test(pkg.description),
  );
  const modes = MODES.map((m) => m[0].toUpperCase() + m.slice(1));
  assert.deepEqual([...named].sort(), [...modes].sort());
  assert.doesNotMatch(pkg.description, /not (yet )?available|coming soon|not available yet/i);
});

test('every contributed command is registered at activation, and every registered one is contributed', async () => {
  const { activate } = await import('../../../extension/vscode/extension');
  activate(fakeContext() as never);
  const contributed = pkg.contributes.commands.map((c) => c.command).sort();
  assert.deepEqual([...new Set(recorded.commands)].sort(), contributed);
  for (const id of contributed) assert.ok(pkg.activationEvents.includes(`onCommand:${id}`), `onCommand:${id}`);
  // First activation after install opens the walkthrough (and only then: the flag is now set).
  const opened = () => recorded.executed.filter((e) => e.command === 'workbench.action.openWalkthrough');
  await new Promise((r) => setImmediate(r));
  assert.equal(opened().length, 1);
  assert.equal(opened()[0].args[0], WALKTHROUGH_ID);
  activate(fakeContext() as never);
  await new Promise((r) => setImmediate(r));
  assert.equal(opened().length, 1, 'opened again unasked');
});

test('every contributed setting is read by the code', () => {
  const unread = Object.keys(pkg.contributes.configuration.properties).filter((key) => {
    const parts = key.split('.');
    // getConfiguration('<section>') then get/inspect('<rest>'), for every way of splitting the key.
    for (let i = 1; i <= parts.length; i++) {
      const section = parts.slice(0, i).join('.');
      const rest = parts.slice(i).join('.');
      if (quoted(section) && (rest === '' || quoted(rest))) return false;
    }
    return true;
  });
  assert.deepEqual(unread, []);
});

test('the walkthrough runs real commands and completes on context keys the code sets', () => {
  const [walkthrough] = pkg.contributes.walkthroughs;
  assert.equal(`${pkg.publisher}.${pkg.name}#${walkthrough.id}`, WALKTHROUGH_ID);
  const ours = new Set(pkg.contributes.commands.map((c) => c.command));
  const keys = new Set<string>(Object.values(WALKTHROUGH_CONTEXT));
  const setKeys = new Set<string>();
  for (const step of walkthrough.steps) {
    const buttons = [...step.description.matchAll(/\]\(command:([\w.]+)/g)].map((m) => m[1]);
    assert.ok(buttons.length > 0, `${step.id} has no button`);
    for (const b of buttons) assert.ok(ours.has(b) || b.startsWith('workbench.'), `${step.id}: unknown ${b}`);
    assert.ok(step.completionEvents.length > 0, `${step.id} never completes`);
    for (const e of step.completionEvents) {
      const [kind, arg] = e.split(/:(.*)/);
      if (kind === 'onContext') {
        assert.ok(keys.has(arg), `${step.id}: context key ${arg} is never set`);
        setKeys.add(arg);
      } else if (kind === 'onCommand') assert.ok(ours.has(arg), `${step.id}: ${arg}`);
      else if (kind === 'onSettingChanged') assert.ok(arg in pkg.contributes.configuration.properties, arg);
      else assert.fail(`${step.id}: unexpected completion event ${e}`);
    }
    if (step.media.image) assert.ok(existsSync(join(root, step.media.image)), step.media.image);
  }
  assert.deepEqual([...setKeys].sort(), [...keys].sort(), 'a context key no step waits for');
});

test('the Marketplace page: icon, changelog, and no invented links', () => {
  const icon = readFileSync(join(root, pkg.icon));
  assert.equal(icon.subarray(1, 4).toString(), 'PNG');
  assert.equal(icon.readUInt32BE(16), 128);
  assert.equal(icon.readUInt32BE(20), 128);
  assert.ok(pkg.keywords.length > 0 && pkg.keywords.length <= 30);
  assert.ok(!pkg.categories.includes('Programming Languages'), 'Sextant adds no language support');
  // There is no public repository: a placeholder URL would be a false claim.
  for (const field of ['repository', 'bugs', 'homepage'] as const)
    assert.equal(pkg[field], undefined, `${field} names a URL that does not exist`);
  const ignore = readFileSync(join(root, '.vscodeignore'), 'utf8').split('\n');
  for (const kept of ['!CHANGELOG.md', '!README.md', '!LICENSE', '!media/**']) assert.ok(ignore.includes(kept), kept);
  for (const step of pkg.contributes.walkthroughs[0].steps)
    if (step.media.image) assert.ok(ignore.includes(`!${step.media.image}`), `${step.media.image} not in the VSIX`);
  assert.match(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), /^## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/m);
});
