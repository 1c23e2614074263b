// The settings reference (docs/guide/settings.md) is generated from package.json; these tests fail
// when a setting was added, removed or re-described without regenerating the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  REGENERATE,
  SETTINGS_PAGE,
  expectedSettingsPage,
  renderSettingsReference,
} from '../../../scripts/docs/settings-reference.mjs';

const root = process.cwd();
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

test('docs/guide/settings.md is what package.json generates', () => {
  const current = readFileSync(join(root, SETTINGS_PAGE), 'utf8');
  const expected = expectedSettingsPage(root);
  // Not assert.equal on the whole page: the first differing line and the command to run say more.
  if (current === expected) return;
  const a = current.split('\n');
  const b = expected.split('\n');
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  // The lines are long (a setting's description): show where they part, not the whole line.
  const [was, is] = [a[i] ?? '(end of file)', b[i] ?? '(end of file)'];
  let c = 0;
  while (c < was.length && was[c] === is[c]) c++;
  const near = (t: string) => JSON.stringify(`${c > 30 ? '…' : ''}${t.slice(Math.max(0, c - 30), c + 50)}`);
  assert.fail(
    `${SETTINGS_PAGE} is stale: run \`${REGENERATE}\` and commit the page.\n` +
      `  line ${i + 1}, column ${c + 1}, the page has: ${near(was)}\n` +
      `  package.json gives:              ${near(is)}`,
  );
});

test('every setting is on the page with its description, default and scope', () => {
  const page = renderSettingsReference(pkg);
  for (const [key, schema] of Object.entries(pkg.contributes.configuration.properties) as Array<
    [string, { scope?: string }]
  >) {
    const at = page.indexOf(`### ${key}\n`);
    assert.ok(at >= 0, `${key} has no heading`);
    const next = page.indexOf('\n### ', at + 1);
    const entry = page.slice(at, next === -1 ? page.length : next);
    assert.match(entry, /- Default:/, key);
    assert.ok(entry.includes(`(scope \`${schema.scope ?? 'window'}\`)`), `${key}: scope`);
  }
});

test('a setting added to package.json changes the page (the staleness check would catch it)', () => {
  const planted = structuredClone(pkg);
  planted.contributes.configuration.properties['sextant.example.newSetting'] = {
    type: 'boolean',
    default: true,
    scope: 'application',
    description: 'A setting that is not in the committed page.',
  };
  const page = renderSettingsReference(planted);
  assert.notEqual(page, expectedSettingsPage(root));
  assert.match(page, /\n## Example\n/, 'a new area gets a section titled by its name');
  assert.match(page, /### sextant\.example\.newSetting\n\nA setting that is not in the committed page\./);
  assert.match(page, /- Set in: user settings only — a workspace cannot change it \(scope `application`\)/);
});

test('a setting without a description is refused, naming it', () => {
  const planted = structuredClone(pkg);
  planted.contributes.configuration.properties['sextant.example.bare'] = { type: 'string', default: '' };
  assert.throws(() => renderSettingsReference(planted), /sextant\.example\.bare has no description/);
});
