// The documentation's link check: every relative link, `#anchor` and image in README.md, CHANGELOG.md,
// CONTRIBUTING.md, docs/** and the parts' README.md files resolves. External links are not fetched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brokenLinks, documentationFiles, formatProblems, slug } from '../../../scripts/docs/links.mjs';

const root = process.cwd();

test("the repository's documentation has no broken relative link, anchor or image", () => {
  const files = documentationFiles(root);
  for (const page of ['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md', 'docs/guide/README.md'])
    assert.ok(files.includes(page), `${page} is checked`);
  const problems = brokenLinks(root, files);
  assert.equal(
    problems.length,
    0,
    `broken links (node scripts/check-links.mjs lists them):\n${formatProblems(problems)}`,
  );
});

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'sextant links '));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

test('planted: a missing file, a missing anchor and a missing image are each reported with file and line', () => {
  const dir = tree({
    'README.md': [
      '# Title',
      'See [the guide](docs/guide/README.md) and [modes](docs/guide/modes.md#plan-mode).',
      '![shot](docs/missing.webp)',
      '[gone](docs/guide/gone.md)',
      '[bad anchor](docs/guide/modes.md#no-such-heading)',
      '[here](#title) [nowhere](#nowhere)',
    ].join('\n'),
    'docs/guide/README.md': '# Guide\n\n[back](../../README.md#title)\n',
    'docs/guide/modes.md': '# Modes\n\n## Plan mode\n',
    'extension/core/x/README.md': '# x\n\n[design](../../../docs/missing-design.md)\n',
  });
  try {
    const files = documentationFiles(dir);
    assert.deepEqual(files, ['README.md', 'docs/guide/README.md', 'docs/guide/modes.md', 'extension/core/x/README.md']);
    const lines = formatProblems(brokenLinks(dir, files)).split('\n');
    assert.deepEqual(lines, [
      'README.md:3: docs/missing.webp — image not found',
      'README.md:4: docs/guide/gone.md — file not found',
      'README.md:5: docs/guide/modes.md#no-such-heading — no heading for #no-such-heading in docs/guide/modes.md',
      'README.md:6: #nowhere — no heading for #nowhere in README.md',
      'extension/core/x/README.md:3: ../../../docs/missing-design.md — file not found',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('not links: code blocks and spans, external URLs, footnotes; anchors: repeats, explicit ids, folders', () => {
  const dir = tree({
    'README.md': [
      '# Same',
      '## Same',
      '## `/review` and `@` references',
      '[code heading](#review-and--references)',
      '<a id="custom"></a>',
      '```md',
      '[example](not/here.md)',
      '```',
      'Inline `[x](nope.md)` and [site](https://example.com/a#b) and [mail](mailto:a@b.c).',
      '[first](#same) [second](#same-1) [custom](#custom) [folder](docs/) <img src="docs/a.png">',
      '[spaces](docs/a%20b.md#a-b)',
      'A quoted claim [1][^q1].',
      '[^q1]: “The quote itself” — [1] [the page](docs/a%20b.md)',
    ].join('\n'),
    'docs/a.png': 'png',
    'docs/a b.md': '# A B\n',
  });
  try {
    assert.deepEqual(brokenLinks(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("anchors are GitHub's slugs", () => {
  assert.equal(slug('`@` references'), '-references');
  assert.equal(
    slug("Fewer questions in one run: an approved plan's grant, batch review"),
    'fewer-questions-in-one-run-an-approved-plans-grant-batch-review',
  );
  assert.equal(slug('Keep working until a check passes: `/goal`'), 'keep-working-until-a-check-passes-goal');
  assert.equal(slug('sextant.sandbox.mode'), 'sextantsandboxmode');
  assert.equal(slug('Sub-agents and /review'), 'sub-agents-and-review');
  assert.equal(slug('The [sandbox](sandbox.md) and you'), 'the-sandbox-and-you');
});
