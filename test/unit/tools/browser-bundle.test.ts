// playwright-core lives in its own bundle, loaded on the first browser call: it must not be in
// extension.js (activation) or runtime.js (the runtime's start). The bundle sits in a folder laid out
// like the package, because playwright-core reads package.json and browsers.json beside its code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { repoFile } from '../../fixtures/node-ports';

const MARKER = 'PLAYWRIGHT_BROWSERS_PATH';

function dist(name: string): string {
  const file = repoFile(`dist/${name}`);
  assert.ok(existsSync(file), `dist/${name} is missing: build first (node esbuild.mjs)`);
  return file;
}

test('playwright-core is in browser-driver/lib/browser.js only, which loads and exports the backend', () => {
  const bundle = dist('browser-driver/lib/browser.js');
  assert.ok(readFileSync(bundle, 'utf8').includes(MARKER));
  for (const startup of ['extension.js', 'runtime.js'])
    assert.ok(!readFileSync(dist(startup), 'utf8').includes(MARKER), `playwright-core is in ${startup}`);
  assert.match(readFileSync(dist('runtime.js'), 'utf8'), /browser-driver/);
  for (const beside of ['package.json', 'browsers.json']) dist(`browser-driver/${beside}`);
  const mod = require(bundle) as { createBrowserBackend?: unknown };
  assert.equal(typeof mod.createBrowserBackend, 'function');
  console.log(`dist/browser-driver/lib/browser.js: ${(statSync(bundle).size / 1024).toFixed(0)} KB (this build)`);
});
