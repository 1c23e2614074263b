// Writes docs/guide/settings.md, the settings reference, from package.json (scripts/docs/settings-reference.mjs).
//   node scripts/settings-reference.mjs           write the page (also: npm run docs:settings)
//   node scripts/settings-reference.mjs --check   exit 1 when the committed page is stale
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REGENERATE, SETTINGS_PAGE, expectedSettingsPage } from './docs/settings-reference.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const page = join(root, SETTINGS_PAGE);
const expected = expectedSettingsPage(root);
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(page, 'utf8');
  } catch {}
  if (current !== expected) {
    console.error(`${SETTINGS_PAGE} is stale: run \`${REGENERATE}\``);
    process.exit(1);
  }
} else {
  writeFileSync(page, expected);
  console.log(`wrote ${SETTINGS_PAGE}`);
}
