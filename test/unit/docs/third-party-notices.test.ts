// The VSIX's third-party notices (scripts/third-party-notices.mjs): built from what esbuild bundled, each
// package once with its licence's name, a web address for its source and the licence text it ships —
// elkjs (EPL-2.0, in the Mermaid bundles) included, since its licence asks that the source be named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { repoFile } from '../../fixtures/node-ports';
// @ts-expect-error: a plain .mjs build script, without types
import { bundledPackages, noticesText, repositoryOf } from '../../../scripts/third-party-notices.mjs';

const root = path.dirname(repoFile('package.json'));

test('the bundled packages are read from the metafiles: scoped, nested, each folder once; ours none', () => {
  const dirs = bundledPackages([
    {
      inputs: {
        'extension/vscode/extension.ts': {},
        'node_modules/elkjs/lib/elk.bundled.js': {},
        'node_modules/@lit/reactive-element/css-tag.js': {},
        'node_modules/beautiful-mermaid/node_modules/entities/dist/esm/decode.js': {},
      },
    },
    { inputs: { 'node_modules/elkjs/lib/main.js': {} } },
  ]);
  assert.deepEqual(dirs, [
    'node_modules/@lit/reactive-element',
    'node_modules/beautiful-mermaid/node_modules/entities',
    'node_modules/elkjs',
  ]);
});

test('each package is listed with its licence, a source address and its licence text', () => {
  const text: string = noticesText(root, ['node_modules/elkjs', 'node_modules/katex', 'node_modules/elkjs']);
  assert.equal(text.split('## elkjs ').length - 1, 1, 'once');
  assert.match(text, /## elkjs [\d.]+\n\nLicence: EPL-2\.0\. Source: https:\/\/github\.com\/kieler\/elkjs/);
  assert.match(text, /Eclipse Public License - v 2\.0/, "elkjs's own licence text");
  assert.match(text, /## katex [\d.]+\n\nLicence: MIT\./);
  assert.ok(text.indexOf('## elkjs') < text.indexOf('## katex'), 'sorted by name');
});

test("npm's repository shorthands and git URLs become web addresses", () => {
  assert.equal(
    repositoryOf({ name: 'a', repository: 'github:openai/openai-node' }),
    'https://github.com/openai/openai-node',
  );
  assert.equal(repositoryOf({ name: 'a', repository: 'panva/jose' }), 'https://github.com/panva/jose');
  assert.equal(
    repositoryOf({ name: 'a', repository: { url: 'git+ssh://git@github.com/rexxars/x.git' } }),
    'https://github.com/rexxars/x',
  );
  assert.equal(repositoryOf({ name: 'a' }), 'https://www.npmjs.com/package/a');
});
