// README.md is the extension's page in VS Code, and `npm run package` keeps its relative links as they
// are: every file it links to, and every guide page and image those pages lead to, must be in the VSIX
// (.vscodeignore), or the page shows broken links and images. `vsce ls` lists what the VSIX would hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { linksOf } from '../../../scripts/docs/links.mjs';

const root = process.cwd();
const GUIDE = 'docs/guide/';
const SHOWN = /\.(md|webp|png|svg|jpe?g|gif)$/i;

/** The files a VSIX page links to: README's own links, then the guide's pages and images, followed. */
function filesTheExtensionPageReaches(): Map<string, string> {
  const needed = new Map<string, string>(); // file → the page that links it
  const queue = ['README.md'];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const page = queue.shift() as string;
    for (const { target } of linksOf(readFileSync(join(root, page), 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:|^\/\/|^#/i.test(target)) continue;
      const path = decodeURIComponent(target.replace(/[#?].*$/, ''));
      const file = relative(root, join(root, dirname(page), path))
        .split(sep)
        .join(posix.sep);
      if (!existsSync(join(root, file)) || statSync(join(root, file)).isDirectory()) continue; // the link check's part
      if (page !== 'README.md' && !SHOWN.test(file)) continue; // a guide page's link to a source file
      if (!needed.has(file)) needed.set(file, page);
      if (file.startsWith(GUIDE) && file.endsWith('.md') && !seen.has(file)) {
        seen.add(file);
        queue.push(file);
      }
    }
  }
  return needed;
}

test("the VSIX holds every page and image the extension's README leads to", () => {
  const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  const listed = execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8' });
  const inVsix = new Set(listed.split('\n').map((l) => l.trim()));
  const needed = filesTheExtensionPageReaches();
  assert.ok(needed.has('docs/guide/README.md') && needed.has('docs/guide/settings.md'), 'the walk reached the guide');
  const missing = [...needed]
    .filter(([file]) => !inVsix.has(file))
    .map(([file, page]) => `${file} (linked from ${page})`);
  assert.deepEqual(missing, [], `add these to .vscodeignore as !<path>:\n${missing.join('\n')}`);
});
