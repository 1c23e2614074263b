// The lexical floor rejects only what is clearly unrelated to the cited page. Table tests: figures
// written every way people write them, inflections and synonyms, and the labelled claim set over our
// own corpus pages (test/fixtures/research/claim-set.ts) — every true paraphrase reaches the judge,
// every claim about a different subject is rejected without one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as html from '../../../extension/core/web/fetch/html-to-markdown';
import { figureOnPage, figuresIn, pageValues } from '../../../extension/core/research/verify/numbers';
import { contentWords, stem } from '../../../extension/core/research/verify/words';
import { floorCheck, indexPage } from '../../../extension/core/research/verify/lexical';
import { sharedCorpusDir } from '../../fixtures/research/web-corpus';
import { CLAIM_PAGES, CLAIMS, claimPageHtml, type ClaimPage } from '../../fixtures/research/claim-set';

const pageText = (name: ClaimPage) => html.htmlToMarkdown(claimPageHtml(name), `https://corpus.test/${name}.html`).text;

const matches = (claim: string, page: string) => {
  const values = pageValues(figuresIn(page));
  return figuresIn(claim).map((f) => figureOnPage(f, values));
};

test('figures: one value however it is written', () => {
  const table: Array<[claim: string, page: string]> = [
    ['about 30 million', 'a population of 30,000,000'],
    ['30m people', '30 000 000 people'],
    ['$30M', 'thirty million dollars'],
    ['1.2bn dollars', '1.2 billion dollars'],
    ['1,200,000,000', '1.2 billion'],
    ['5k runners', '5,000 runners'],
    ['half of them', '50% of them'],
    ['fifty percent', '50 %'],
    ['50 per cent', 'half'],
    ['a quarter', '25 percent'],
    ['two thirds', '66.7%'],
    ['three quarters', '75 per cent'],
    ['twenty-five', '25'],
    ['two hundred and fifty thousand', '250,000'],
    ['one and a half million', '1.5 million'],
    ['almost half', '47 percent'],
    ['roughly 800 thousand euros', '€800,000'],
    ['11 weeks', 'eleven weeks'],
    ['about 9%', 'roughly nine per cent'],
    ['30 million', '29.7 million'],
    ['20%', 'one in five'],
    ['30 percent', '3 out of 10'],
    ['11 GWh', '11.4 GWh'],
  ];
  for (const [claim, page] of table) assert.deepEqual(matches(claim, page), [true], `${claim} ~ ${page}`);
  // …and a different value is a different figure.
  const differ: Array<[string, string]> = [
    ['60%', '45%'],
    ['2029', '2028'],
    ['14 GWh', '11.4 GWh'],
    ['30 million', '300 million'],
    ['three quarters', 'half'],
    ['1.8 million', '18 million'],
  ];
  for (const [claim, page] of differ) assert.deepEqual(matches(claim, page), [false], `${claim} ≠ ${page}`);
  // Years are exact, and a comma after a number ends it.
  assert.deepEqual(
    figuresIn('by 2029, subject to 1,200 units').map((f) => [f.values[0], f.year]),
    [
      [2029, true],
      [1200, false],
    ],
  );
});

test('words: inflections, derivations, spellings and common synonyms meet', () => {
  const same: Array<[string, string]> = [
    ['generated', 'generation'],
    ['generating', 'generates'],
    ['stopped', 'stops'],
    ['studies', 'study'],
    ['organised', 'organized'],
    ['rose', 'increased'],
    ['fell', 'declined'],
    ['bought', 'purchased'],
    ['megawatts', 'MW'],
    ['kilometres', 'km'],
  ];
  for (const [a, b] of same) assert.deepEqual(contentWords(a), contentWords(b), `${a} ~ ${b}`);
  assert.equal(stem('turbines'), stem('turbine'));
  assert.deepEqual(contentWords('the number of the riders'), ['number', 'rider']);
  assert.notDeepEqual(contentWords('increase'), contentWords('decrease'));
});

test('the claim set: every true paraphrase reaches the judge, every different-subject claim is rejected', () => {
  const pages = new Map(CLAIM_PAGES.map((p) => [p, indexPage(pageText(p))]));
  const refused: string[] = [];
  const missed: string[] = [];
  for (const c of CLAIMS) {
    const f = floorCheck(c.claim, [pages.get(c.page) as ReturnType<typeof indexPage>]);
    if (process.env.FLOOR_DEBUG)
      console.log(`${c.kind.padEnd(18)} ${f.decision.padEnd(8)} ${f.score} ${f.pageCoverage} ${c.claim}`);
    if (c.supported && f.decision === 'rejected') refused.push(`${c.claim} (${f.score}/${f.pageCoverage})`);
    if (c.kind === 'different-subject' && f.decision !== 'rejected')
      missed.push(`${c.claim} → ${f.decision} (${f.score}/${f.pageCoverage})`);
  }
  assert.deepEqual(refused, [], 'no true claim is refused by the floor');
  assert.deepEqual(missed, [], 'claims about another subject are rejected without a model call');
});

test('a claim citing two pages is judged on both; a short claim is never rejected on words alone', () => {
  const tidal = indexPage(pageText('tidal-energy'));
  const coral = indexPage(pageText('coral-survey'));
  const both = 'The turbines ran 96% of the time while half the coral bleached.';
  assert.notEqual(floorCheck(both, [tidal, coral]).decision, 'rejected');
  assert.equal(floorCheck('It rained.', [tidal]).decision, 'judge');
});

// Real pages (Mozilla Readability's test pages, shared/testdata beside the repository): fair
// paraphrases of what each says reach the judge; a fact from another page is rejected.
const REAL: Array<{ page: string; true: string[]; otherSubject: string[] }> = [
  {
    page: 'bbc-1',
    true: [
      'Obama told the BBC that failing to pass common-sense gun safety laws was the biggest frustration of his ' +
        'presidency.',
      'With 18 months left in office, Obama said gun control was where he had been most frustrated and stymied.',
      'Obama said fewer than one hundred Americans had been killed by terrorism since 9/11, against tens of ' +
        'thousands by guns.',
      'Obama argued that the UK has to remain in the EU to keep its influence in the world.',
    ],
    otherSubject: ['Sudan will be able to buy tractors and spare parts from American firms.'],
  },
  {
    page: 'ars-1',
    true: [
      'A Pakistan-based programmer, Ammar Askar, published proof-of-concept code that crashes Minecraft servers.',
      'Askar went public 21 months after he privately reported the bug to Mojang.',
      'The attack nests lists within lists five levels deep.',
    ],
    otherSubject: ['Finland tops a ranking of wealthy countries with welfare states.'],
  },
  {
    page: 'nytimes-1',
    true: [
      'After almost two decades of hostile relations, the US plans to lift its trade sanctions on Sudan.',
      'The executive order has a six-month review period, and the embargo can be reimposed if Sudan breaks ' +
        'its commitments.',
    ],
    otherSubject: ['Minecraft items can store arbitrary metadata in Named Binary Tag files.'],
  },
  {
    page: 'cnn',
    true: [
      "Stanford's Center on Poverty and Inequality compared poverty, inequality, mobility and unemployment in " +
        '10 rich countries.',
      'The United States came last of the ten countries, with Finland, Norway and Australia at the top.',
    ],
    otherSubject: ['A gunman opened fire at a cinema in Louisiana, killing two people.'],
  },
];

const shared = sharedCorpusDir();
test("real pages: fair paraphrases reach the judge, another page's facts are rejected", {
  skip: shared ? false : 'shared/testdata/readability is absent beside the repository',
}, () => {
  const wrong: string[] = [];
  for (const r of REAL) {
    const source = readFileSync(join(shared as string, r.page, 'source.html'), 'utf8');
    const page = indexPage(html.htmlToMarkdown(source, `https://corpus.test/${r.page}/`).text);
    for (const claim of r.true) {
      const f = floorCheck(claim, [page]);
      if (f.decision === 'rejected') wrong.push(`${r.page}: refused "${claim}" (${f.score}/${f.pageCoverage})`);
    }
    for (const claim of r.otherSubject) {
      const f = floorCheck(claim, [page]);
      if (f.decision !== 'rejected') wrong.push(`${r.page}: let "${claim}" through (${f.score}/${f.pageCoverage})`);
    }
  }
  assert.deepEqual(wrong, []);
});
