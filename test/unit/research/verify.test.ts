// Verified citations: invented citations, unfetched URLs and unsupported claims are each caught,
// removed or marked, and counted in the notes; the source list is ours, numbered by first use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  claimJudgeFrom,
  parseVerdict,
  UNSUPPORTED_MARK,
  verifyReport,
  type FetchedSource,
} from '../../../extension/core/research/verify';
import { citedSentences } from '../../../extension/core/research/verify/citations';

const AT = Date.UTC(2026, 10, 23);

const PAGES: FetchedSource[] = [
  {
    n: 1,
    url: 'http://127.0.0.1:9/rust-2024',
    title: 'Rust 2024 edition',
    text:
      'The Rust 2024 edition was released with Rust 1.85 in February 2025. It changes the capture rules of ' +
      'impl Trait in return position and reserves the gen keyword.',
    accessedAt: AT,
  },
  {
    n: 2,
    url: 'http://127.0.0.1:9/survey',
    finalUrl: 'http://127.0.0.1:9/survey-2024',
    title: 'Developer survey 2024',
    text: 'In the 2024 survey, 45% of respondents said they use Rust at work, up from 34% a year earlier.',
    accessedAt: AT,
  },
  {
    n: 3,
    url: 'http://127.0.0.1:9/async',
    title: 'Async closures',
    text: 'Async closures were stabilised in Rust 1.85. They can borrow from their captured environment.',
    accessedAt: AT,
  },
];

const DRAFT = [
  '# Summary',
  '',
  'The Rust 2024 edition shipped with Rust 1.85 in February 2025 [1]. Async closures were stabilised in the',
  'same release [3]. Rust use at work reached 45% of respondents [2].',
  '',
  '## Key findings',
  '',
  '- Rust use at work grew to 60% of developers in 2024 [2].',
  '- The edition also adds a garbage collector [4].',
  '- See the announcement at https://blog.example.org/rust-2024 and the [survey](http://127.0.0.1:9/survey-2024).',
  '',
  'Code such as `v[1]` is not a citation:',
  '',
  '```rust',
  'let x = v[2];',
  '```',
  '',
  '## Sources',
  '',
  '1. Something the model made up — https://made-up.example.com',
].join('\n');

test('a report citing [4] of 3 sources, an unfetched URL and an unsupported sentence: each caught', async () => {
  // The judge here refuses the one claim whose figure is not on its page (the floor sends it on).
  const r = await verifyReport(DRAFT, PAGES, { judge: async (input) => ({ supported: !input.claim.includes('60%') }) });
  // [4] was never fetched: removed and named in the notes.
  assert.doesNotMatch(r.markdown, /\[4\]/);
  assert.ok(
    r.notes.some((n) => n.includes('Removed citation [4]')),
    r.notes.join('\n'),
  );
  assert.equal(r.stats.inventedRemoved, 1);
  assert.match(r.markdown, /adds a garbage collector \*\(cited a source that was not fetched\)\*\./);
  // A URL not fetched in this run goes; a fetched one (by its final URL) stays as a link.
  assert.doesNotMatch(r.markdown, /blog\.example\.org|made-up\.example\.com/);
  assert.match(r.markdown, /See the announcement at \*\(link removed: not fetched in this run\)\* and the/);
  assert.ok(r.notes.some((n) => n.includes('https://blog.example.org/rust-2024')));
  assert.match(r.markdown, /\[survey\]\(http:\/\/127\.0\.0\.1:9\/survey-2024\)/);
  // "60%" is not on the cited page: marked where it stands, counted.
  assert.match(r.markdown, /grew to 60% of developers in 2024 \[3\]\. \*\(not supported/);
  const bad = r.verdicts.find((v) => v.claim.includes('60%'));
  assert.equal(bad?.verdict, 'unsupported');
  assert.match(bad?.reason ?? '', /does not contain 60/);
  // Supported sentences are not marked; the unsupported mark appears once.
  assert.equal(r.markdown.split(UNSUPPORTED_MARK).length - 1, 1);
  assert.deepEqual(
    r.verdicts.map((v) => v.verdict),
    ['supported', 'supported', 'supported', 'unsupported'],
  );
  // Renumbered by first use: 1 → 1, 3 → 2, 2 → 3; our source list replaces the model's.
  assert.match(r.markdown, /same release \[2\]\. Rust use at work reached 45% of respondents \[3\]\./);
  assert.deepEqual(
    r.sources.map((s) => [s.n, s.url]),
    [
      [1, 'http://127.0.0.1:9/rust-2024'],
      [2, 'http://127.0.0.1:9/async'],
      [3, 'http://127.0.0.1:9/survey-2024'],
    ],
  );
  assert.match(
    r.markdown,
    /## Sources\n\n1\. \[Rust 2024 edition\]\(http:\/\/127\.0\.0\.1:9\/rust-2024\) — accessed 2026-11-23/,
  );
  assert.equal((r.markdown.match(/^## Sources/gm) ?? []).length, 1);
  // Code is left alone.
  assert.match(r.markdown, /`v\[1\]`/);
  assert.match(r.markdown, /let x = v\[2\];/);
  assert.match(r.notes[0], /^3 of 4 cited claims supported.*1 marked as not supported.*1 citation\(s\) of unfetched/);
  // Every marker left in the text resolves to a listed source.
  for (const m of r.markdown.matchAll(/\[(\d+)\](?!\()/g))
    if (!r.markdown.slice(0, m.index).includes('```'))
      assert.ok(
        r.sources.some((s) => s.n === Number(m[1])),
        `[${m[1]}] resolves`,
      );
});

test('a claim whose words are not on the cited page fails the lexical floor without asking the model', async () => {
  let asked = 0;
  const judge = async () => {
    asked++;
    return { supported: true };
  };
  const r = await verifyReport('Quantum annealing beats classical solvers on logistics problems [1].', PAGES, {
    judge,
  });
  assert.equal(asked, 0);
  assert.equal(r.verdicts[0].verdict, 'unsupported');
  assert.equal(r.verdicts[0].by, 'lexical');
  assert.equal(r.verdicts[0].floor.decision, 'rejected');
  assert.match(r.verdicts[0].reason ?? '', /unrelated to the cited page: its best passage holds \d+ % of the claim/);
  assert.match(r.notes[1], /1 rejected as unrelated to the cited page \(1 model call saved\)/);
});

test('without a model, a weaker match is left unchecked — never refused by the floor', async () => {
  const r = await verifyReport('Rust use at work grew to 60% of developers in 2024 [2].', PAGES);
  assert.equal(r.verdicts[0].verdict, 'unchecked');
  assert.equal(r.verdicts[0].floor.decision, 'judge');
  assert.match(r.verdicts[0].reason ?? '', /does not contain 60%; no model was available/);
});

test('past the floor the model decides; a failing model leaves the claim unchecked, not supported', async () => {
  const seen: string[] = [];
  const judge = async (input: { claim: string; evidence: Array<{ passages: string[] }> }) => {
    seen.push(input.evidence[0].passages.join(' '));
    if (input.claim.includes('borrow')) throw new Error('503 from the fast model');
    return { supported: !input.claim.includes('gen keyword'), reason: 'checked' };
  };
  const draft =
    'The 2024 edition reserves the gen keyword for generators in Rust 1.85 [1]. ' +
    'Async closures can borrow from their captured environment [3]. The edition shipped in February 2025 [1].';
  const r = await verifyReport(draft, PAGES, { judge });
  assert.deepEqual(
    r.verdicts.map((v) => [v.verdict, v.by]),
    [
      ['unsupported', 'model'],
      ['unchecked', 'lexical'],
      ['supported', 'model'],
    ],
  );
  assert.ok(
    seen.every((p) => p.length > 0),
    'the model sees passages of the page',
  );
  assert.match(r.notes[0], /1 of 3 cited claims supported.*1 marked as not supported; 1 not checked/);
});

test('markers: lists and ranges resolve, duplicates collapse, footnotes and links are not markers', async () => {
  const r = await verifyReport(
    'Rust 1.85 shipped the 2024 edition and async closures [1, 3]. Both in Rust 1.85 [1-3][3]. ' +
      'A [link](http://127.0.0.1:9/async).',
    PAGES,
  );
  assert.match(r.markdown, /async closures \[1\]\[2\]\. Both in Rust 1\.85 \[1\]\[3\]\[2\]\./);
  assert.equal(r.sources.length, 3);
});

test('sentences that span lines and list items are each judged and marked in place', () => {
  const found = citedSentences('First claim spans\ntwo lines [1]. Second [2].\n\n- item claim [3]\n- no cite');
  assert.deepEqual(
    found.map((f) => [f.claim, f.numbers]),
    [
      ['First claim spans two lines.', [1]],
      ['Second.', [2]],
      ['item claim', [3]],
    ],
  );
});

test('the model verdict is read from JSON, or from a plain word, and a reply without one is an error', async () => {
  assert.deepEqual(parseVerdict('{"verdict": "supported", "reason": "same figure"}'), {
    supported: true,
    reason: 'same figure',
  });
  assert.deepEqual(parseVerdict('Sure! ```json\n{"verdict":"unsupported"}\n```'), { supported: false });
  assert.deepEqual(parseVerdict('UNSUPPORTED — the page says 34%'), { supported: false });
  assert.throws(() => parseVerdict('I cannot tell.'), /no verdict/);
  let request = '';
  const judge = claimJudgeFrom(async (req) => {
    request = `${req.system}\n---\n${req.user}`;
    return { text: '{"verdict":"supported","reason":"ok"}' };
  });
  const v = await judge(
    { claim: 'X is 45%.', evidence: [{ title: 'T', url: 'http://h/p', passages: ['X is 45%.'] }] },
    new AbortController().signal,
  );
  assert.equal(v.supported, true);
  assert.match(request, /strict and literal[\s\S]*Claim: X is 45%\.[\s\S]*Source 1: T \(http:\/\/h\/p\)\n> X is 45%\./);
});

test('no citations at all: the notes say so and the source list says none were cited', async () => {
  const r = await verifyReport('Nothing cited here.', PAGES);
  assert.equal(r.notes[0], 'No sentence of this report cites a source.');
  assert.match(r.markdown, /## Sources\n\nNo sources were cited\./);
});
