// The fetch pipeline over real web pages: the 130 pages of Mozilla Readability's own test suite
// (shared/testdata/readability, beside the repository), each served from the local corpus server and
// read through the whole pipeline. The text we hand the model is compared with the article
// Readability's reference extraction expects (bag-of-words recall / precision / F1, see
// text-similarity.ts), the title with the expected title. Skipped, saying so, when the corpus is absent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import * as html from '../../../extension/core/web/fetch/html-to-markdown';
import { createPageFetcher } from '../../../extension/core/web/fetch/page-fetcher';
import { sharedCorpusDir, sharedCorpusPages, startWebCorpus, type WebCorpus } from '../../fixtures/research/web-corpus';
import { bagOfWordsSimilarity, type Similarity } from './text-similarity';

const dir = sharedCorpusDir();
const pages = sharedCorpusPages();

let web: WebCorpus;
before(async () => {
  web = await startWebCorpus();
});
after(async () => web.close());

const normTitle = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

test('text similarity: identical texts score 1, unrelated 0, boilerplate lowers precision only', () => {
  assert.deepEqual(bagOfWordsSimilarity('The cat sat.', 'the  CAT sat'), { recall: 1, precision: 1, f1: 1 });
  assert.equal(bagOfWordsSimilarity('dogs bark', 'cats purr').f1, 0);
  const s = bagOfWordsSimilarity('menu home login the cat sat', 'the cat sat');
  assert.equal(s.recall, 1);
  assert.equal(s.precision, 0.5);
});

test('the shared Readability corpus: every page is read, its article text recovered', {
  skip: dir ? false : 'shared/testdata/readability is absent beside the repository',
}, async () => {
  const fetcher = createPageFetcher({
    allowPrivateHosts: () => ['corpus.test'],
    loadHtmlConverter: async () => html,
    resolve: async () => [{ address: '127.0.0.1', family: 4 }],
  });
  const scores: Array<Similarity & { name: string; titleOk: boolean }> = [];
  const failures: string[] = [];
  for (const name of pages) {
    const expectedHtml = readFileSync(join(dir as string, name, 'expected.html'), 'utf8');
    const expectedText = parseHTML(`<!doctype html><html><body>${expectedHtml}</body></html>`).document.body
      .textContent;
    const meta = JSON.parse(readFileSync(join(dir as string, name, 'expected-metadata.json'), 'utf8')) as {
      title?: string;
    };
    try {
      const { page } = await fetcher.fetch(`http://corpus.test:${web.port}/shared/${name}/`);
      const s = bagOfWordsSimilarity(page.text, expectedText ?? '');
      const titleOk = !meta.title || normTitle(page.title) === normTitle(meta.title);
      scores.push({ name, ...s, titleOk });
    } catch (e) {
      failures.push(`${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const f1 = scores.map((s) => s.f1);
  const recall = scores.map((s) => s.recall);
  const precision = scores.map((s) => s.precision);
  const titles = scores.filter((s) => s.titleOk).length;
  const weak = scores.filter((s) => s.f1 < 0.8).sort((a, b) => a.f1 - b.f1);
  console.log(
    `readability corpus: ${scores.length}/${pages.length} pages read; F1 mean ${mean(f1).toFixed(3)}, ` +
      `median ${median(f1).toFixed(3)}; recall mean ${mean(recall).toFixed(3)}; precision mean ` +
      `${mean(precision).toFixed(3)}; F1 ≥ 0.9 on ${f1.filter((x) => x >= 0.9).length} pages; ` +
      `titles equal on ${titles}/${scores.length}`,
  );
  if (weak.length) console.log(`  below 0.8: ${weak.map((s) => `${s.name} ${s.f1.toFixed(2)}`).join(', ')}`);
  assert.deepEqual(failures, [], 'every page is read');
  assert.ok(median(f1) >= 0.98, `median F1 ${median(f1)}`);
  assert.ok(mean(f1) >= 0.95, `mean F1 ${mean(f1)}`);
  assert.ok(mean(recall) >= 0.95, `mean recall ${mean(recall)}`);
  assert.ok(titles >= pages.length * 0.95, `titles equal on ${titles}`);
});

test('without the shared corpus, say so', { skip: dir !== undefined }, () => {
  console.log('readability corpus: skipped — shared/testdata/readability/pages was not found beside the repository');
});
