// Precision first: a claim is verified without the judge only when it is pinned word for word to a
// passage; every distortion that reuses the page's words (negation, swapped roles, reversed order,
// changed numbers, dropped hedges) goes to the judge, and without a judge it stays unchecked. Each
// verified claim says what verified it and keeps the passage it rests on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verifyReport, type ClaimJudge, type FetchedSource } from '../../../extension/core/research/verify';
import { floorCheck, indexPage } from '../../../extension/core/research/verify/lexical';
import type { AdversarialSet } from '../../fixtures/research/adversarial-set';
import { ownAdversarialSet, sharedAdversarialSet } from '../../fixtures/research/adversarial-set';

const AT = Date.UTC(2026, 10, 25);
const PAGE =
  'Acme bought Globex in 2019, two years after the merger talks began. The regulator did not approve the deal ' +
  'before March. Analysts said profits may rise by 12% next year. Sales of the X1 model, launched in Oslo, ' +
  'fell by 3,400 units. Smith, the chief executive, resigned after the vote.';
const pinned = (claim: string) => floorCheck(claim, [indexPage(PAGE)]).decision === 'pinned';

test('pinned: the sentence word for word, or with whole segments that hold no guard word left out', () => {
  assert.ok(pinned('Acme bought Globex in 2019, two years after the merger talks began.'));
  assert.ok(pinned('acme bought globex in 2019, 2 years after the merger talks began'), 'case and number words');
  assert.ok(pinned('Sales of the X1 model fell by 3400 units.'), 'a segment without guards left out');
  assert.ok(pinned('Smith resigned after the vote.'));
});

test('not pinned: every distortion that reuses the sentence’s own words', () => {
  const distortions: Array<[kind: string, claim: string]> = [
    ['negation dropped', 'The regulator did approve the deal before March.'],
    ['negation added', 'Acme did not buy Globex in 2019, two years after the merger talks began.'],
    ['actor and object swapped', 'Globex bought Acme in 2019, two years after the merger talks began.'],
    ['passive with the roles swapped', 'Acme was bought by Globex in 2019, two years after the merger talks began.'],
    ['order word reversed', 'Acme bought Globex in 2019, two years before the merger talks began.'],
    ['year changed', 'Acme bought Globex in 2018, two years after the merger talks began.'],
    ['count changed', 'Sales of the X1 model fell by 3,500 units.'],
    ['unit changed', 'Sales of the X1 model fell by 3,400 euros.'],
    ['hedge dropped', 'Analysts said profits rise by 12% next year.'],
    ['attribution dropped', 'Profits may rise by 12% next year.'],
    ['a segment with a year left out', 'Acme bought Globex.'],
    ['a time segment left out', 'The regulator did not approve the deal.'],
    ['another segment’s entity', 'Smith, the chief executive, resigned in Oslo.'],
  ];
  for (const [kind, claim] of distortions) assert.equal(pinned(claim), false, `${kind}: ${claim}`);
});

function check(set: AdversarialSet): { falseVerified: string[]; trueRejected: string[]; trues: number } {
  const falseVerified: string[] = [];
  const trueRejected: string[] = [];
  let trues = 0;
  const indexed = new Map([...set.pages].map(([name, page]) => [name, indexPage(page.text)]));
  for (const c of set.claims) {
    const f = floorCheck(c.claim, [indexed.get(c.page) as ReturnType<typeof indexPage>]);
    if (c.supported) {
      trues++;
      if (f.decision === 'rejected') trueRejected.push(c.claim);
    } else if (f.decision === 'pinned') falseVerified.push(`${c.kind}: ${c.claim}`);
  }
  return { falseVerified, trueRejected, trues };
}

test('the committed adversarial set: no false claim pinned, no true claim refused', () => {
  const set = ownAdversarialSet();
  assert.ok(set.claims.length >= 100, `${set.claims.length} claims`);
  const r = check(set);
  assert.deepEqual(r.falseVerified, [], 'no false claim is verified without the judge');
  assert.ok(r.trueRejected.length <= r.trues / 100, `true claims refused: ${r.trueRejected.join(' | ')}`);
});

test('the adversarial set over the shared Readability corpus (when present)', (t) => {
  const set = sharedAdversarialSet();
  if (!set) {
    t.skip('the shared Readability corpus (../shared/testdata/readability/pages) is absent');
    return;
  }
  assert.ok(set.claims.length >= 100, `${set.claims.length} claims`);
  const r = check(set);
  assert.deepEqual(r.falseVerified, [], 'no false claim is verified without the judge');
  assert.ok(r.trueRejected.length <= r.trues / 100, `true claims refused: ${r.trueRejected.join(' | ')}`);
});

const SOURCE: FetchedSource = { n: 1, url: 'https://corpus.test/acme', title: 'Acme', text: PAGE, accessedAt: AT };

test('without a judge, only a pinned claim is verified; a paraphrase or distortion stays unchecked', async () => {
  const r = await verifyReport(
    'Smith resigned after the vote [1]. Acme purchased Globex in 2019 [1]. Globex bought Acme in 2019 [1].',
    [SOURCE],
  );
  assert.deepEqual(
    r.verdicts.map((v) => [v.verdict, v.verifiedBy]),
    [
      ['supported', 'passage-match'],
      ['unchecked', undefined],
      ['unchecked', undefined],
    ],
  );
  assert.match(r.notes.join('\n'), /1 pinned word for word to a passage, 2 left unchecked/);
});

test('with a judge: pinned claims save its call, the rest are its to decide and say so', async () => {
  const asked: string[] = [];
  const judge: ClaimJudge = async ({ claim }) => {
    asked.push(claim);
    return { supported: claim.includes('purchased') };
  };
  const r = await verifyReport(
    'Smith resigned after the vote [1]. Acme purchased Globex in 2019 [1]. Globex bought Acme in 2019 [1].',
    [SOURCE],
    { judge },
  );
  assert.deepEqual(asked, ['Acme purchased Globex in 2019.', 'Globex bought Acme in 2019.']);
  assert.deepEqual(
    r.verdicts.map((v) => [v.verdict, v.verifiedBy, v.floor.decision]),
    [
      ['supported', 'passage-match', 'pinned'],
      ['supported', 'judge', 'judge'],
      ['unsupported', undefined, 'judge'],
    ],
  );
});
