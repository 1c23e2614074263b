// Renders docs/guide/settings.md from package.json's `contributes.configuration`: each setting's
// description, type, default, scope and allowed values. The page is generated so it cannot drift from
// what VS Code's Settings editor shows: scripts/settings-reference.mjs writes it, and a unit test
// (test/unit/docs/settings-reference.test.ts) fails when the committed page differs from this render.
// No import.meta here: the unit tests bundle this file as CommonJS.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SETTINGS_PAGE = 'docs/guide/settings.md';
export const REGENERATE = 'npm run docs:settings';

// VS Code's scopes, said as where a user can set the value (its default is `window`).
const SCOPES = {
  application: 'user settings only — a workspace cannot change it',
  machine: 'user settings only (this machine)',
  'machine-overridable': 'user settings, or a workspace',
  window: 'user or workspace settings',
  resource: 'user, workspace or folder settings',
  'language-overridable': 'user, workspace or folder settings, per language',
};

// Sections in the order a reader meets the topics; a setting's section is its second name segment.
const SECTIONS = [
  ['', 'Models and providers'],
  ['agent', 'Agent runs'],
  ['budget', 'Spending caps'],
  ['agents', 'Sub-agents and parallel chats'],
  ['goal', 'Goals'],
  ['permissions', 'Permissions'],
  ['autoMode', 'Auto mode'],
  ['sandbox', 'The sandbox'],
  ['web', 'Web access'],
  ['browser', 'The browser'],
  ['research', 'Research'],
  ['review', 'Diff review'],
  ['diagnostics', 'Language diagnostics'],
  ['history', 'History'],
  ['memory', 'Memory'],
  ['hooks', 'Hooks'],
  ['mcp', 'MCP servers'],
];

function sectionOf(key) {
  const parts = key.split('.');
  if (parts.length > 2) return parts[1];
  // `sextant.hooks` has a section of its own; `sextant.providers`, `sextant.defaultModel` … are general.
  return SECTIONS.some(([id]) => id === parts[1]) ? parts[1] : '';
}

/** `autoMode` → `Auto mode`. */
function titleOf(id) {
  const words = id.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** GitHub's anchor for a heading's text (the link check computes anchors the same way). */
function anchor(text) {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** A description as Markdown: VS Code's `#setting.id#` links and `command:` links made readable here. */
function describe(text) {
  return text
    .replace(/`?#(sextant\.[\w.]+)#`?/g, (_, id) => `[\`${id}\`](#${anchor(id)})`)
    .replace(/\[([^\]]+)\]\(command:[^)]*\)/g, '**$1**');
}

function typeOf(schema) {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any'];
  const shown = types
    .filter((t) => t !== 'null')
    .map((t) => (t === 'array' && schema.items?.type ? `array of ${schema.items.type}s` : t));
  const optional = types.includes('null') ? ' (or empty)' : '';
  const range =
    schema.minimum !== undefined || schema.maximum !== undefined
      ? `, ${schema.minimum ?? '…'}–${schema.maximum ?? '…'}`
      : '';
  return `${shown.join(' or ')}${optional}${range}`;
}

function defaultOf(schema) {
  if (schema.default === undefined || schema.default === null) return ' empty';
  const text = JSON.stringify(schema.default);
  if (text.length <= 80) return ` \`${text}\``;
  return `\n\n  \`\`\`json\n${JSON.stringify(schema.default, null, 2)
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n')}\n  \`\`\``;
}

function renderSetting(key, schema) {
  const lines = [`### ${key}`, ''];
  const text = schema.markdownDescription ?? schema.description;
  if (!text) throw new Error(`${key} has no description in package.json`);
  lines.push(describe(text), '');
  lines.push(`- Type: ${typeOf(schema)}`);
  lines.push(`- Default:${defaultOf(schema)}`);
  const scope = schema.scope ?? 'window';
  if (!SCOPES[scope]) throw new Error(`${key}: unknown scope ${scope}`);
  lines.push(`- Set in: ${SCOPES[scope]} (scope \`${scope}\`)`);
  if (schema.enum) {
    lines.push('- Values:');
    schema.enum.forEach((value, i) => {
      const said = schema.enumDescriptions?.[i];
      lines.push(`  - \`${JSON.stringify(value)}\`${said ? ` — ${describe(said)}` : ''}`);
    });
  }
  return lines.join('\n');
}

/** The whole page for a parsed package.json. */
export function renderSettingsReference(pkg) {
  const properties = pkg.contributes?.configuration?.properties;
  if (!properties) throw new Error('package.json has no contributes.configuration.properties');
  // A section not listed in SECTIONS (a new area's settings) follows the listed ones, titled by its name.
  const sections = [...SECTIONS];
  for (const key of Object.keys(properties)) {
    const id = sectionOf(key);
    if (!sections.some(([known]) => known === id)) sections.push([id, titleOf(id)]);
  }
  const out = [
    '# Settings reference',
    '',
    `<!-- Generated from package.json by \`${REGENERATE}\` (scripts/settings-reference.mjs): do not edit. -->`,
    '',
    '**Change a setting:** open the Settings editor (**File → Preferences → Settings**) and search `sextant`,',
    'or write the full name in your user `settings.json`: `"sextant.permissions.defaultMode": "auto"`.',
    '',
    'Settings marked "user settings only" are read from your user settings whatever a workspace says, so a',
    "cloned repository's `.vscode/settings.json` cannot loosen them. The command line reads the same names from",
    '`~/.sextant/settings.json` ([Command line](command-line.md)).',
    '',
  ];
  for (const [id, title] of sections) {
    const keys = Object.keys(properties).filter((k) => sectionOf(k) === id);
    if (keys.length === 0) continue;
    out.push(`## ${title}`, '');
    for (const key of keys) out.push(renderSetting(key, properties[key]), '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** The page as it should be for the package.json in `root`. */
export function expectedSettingsPage(root) {
  return renderSettingsReference(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));
}
