// The citation checker on the labelled claim set (test/fixtures/research/claim-set.ts) and on the
// adversarial set (test/fixtures/research/adversarial-claims.ts: verbatim sentences, synonym
// paraphrases and distortions that reuse the page's words): each claim is cited to its page and
// verified as a one-sentence report, first by the lexical floor alone, then by the floor with a fake
// judge that answers from the labels (a perfect judge: the figures show what the floor itself pins,
// rejects and saves). Prints figures; asserts nothing.
import * as html from '../../extension/core/web/fetch/html-to-markdown';
import { verifyReport, type ClaimJudge, type FetchedSource } from '../../extension/core/research/verify';
import { CLAIM_PAGES, CLAIMS, claimPageHtml, type LabelledClaim } from '../../test/fixtures/research/claim-set';
import { adversarialBench } from './claims-adversarial';

const AT = Date.UTC(2026, 10, 25);

const pages = new Map(
  CLAIM_PAGES.map((name, i): [string, FetchedSource] => {
    const url = `https://corpus.test/pages/${name}.html`;
    const r = html.htmlToMarkdown(claimPageHtml(name), url);
    return [name, { n: i + 1, url, title: r.title, text: r.text, accessedAt: AT }];
  }),
);

interface Outcome {
  claim: LabelledClaim;
  verdict: string;
  floor: string;
  score: number;
  judged: boolean;
}

async function run(withJudge: boolean): Promise<{ outcomes: Outcome[]; ms: number }> {
  const outcomes: Outcome[] = [];
  const started = performance.now();
  for (const claim of CLAIMS) {
    const page = pages.get(claim.page) as FetchedSource;
    let judged = false;
    const judge: ClaimJudge = async () => {
      judged = true;
      return { supported: claim.supported };
    };
    const r = await verifyReport(`${claim.claim.replace(/\.$/, '')} [${page.n}].`, [page], withJudge ? { judge } : {});
    const v = r.verdicts[0];
    outcomes.push({ claim, verdict: v.verdict, floor: v.floor.decision, score: v.floor.score, judged });
  }
  return { outcomes, ms: performance.now() - started };
}

const pct = (a: number, b: number) => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)} %`);

async function main(): Promise<void> {
  const trues = CLAIMS.filter((c) => c.supported).length;
  const falses = CLAIMS.length - trues;
  const distortions = CLAIMS.filter((c) => c.kind === 'distortion').length;
  console.log(
    `claim set: ${CLAIMS.length} claims over ${CLAIM_PAGES.length} pages — ${trues} true paraphrases, ` +
      `${distortions} distortions of the page, ${falses - distortions} about a different subject`,
  );

  const alone = await run(false);
  const kept = alone.outcomes.filter((o) => o.claim.supported && o.floor !== 'rejected').length;
  const keptStrong = alone.outcomes.filter((o) => o.claim.supported && o.floor === 'pinned').length;
  const caught = alone.outcomes.filter((o) => !o.claim.supported && o.floor === 'rejected').length;
  const caughtOther = alone.outcomes.filter((o) => o.claim.kind === 'different-subject' && o.floor === 'rejected');
  console.log('\nfloor alone (no model):');
  console.log(`  true claims kept (not refused):   ${kept}/${trues} = ${pct(kept, trues)}`);
  console.log(`    of them pinned to a passage (verified): ${keptStrong}; sent to the judge: ${kept - keptStrong}`);
  console.log(`  false claims caught (rejected):  ${caught}/${falses} = ${pct(caught, falses)}`);
  console.log(
    `    different subject: ${caughtOther.length}/${falses - distortions}; distortions: ` +
      `${caught - caughtOther.length}/${distortions} (the judge's job)`,
  );
  console.log(`  time: ${(alone.ms / CLAIMS.length).toFixed(2)} ms per claim`);

  const judged = await run(true);
  const calls = judged.outcomes.filter((o) => o.judged).length;
  const supportedTrue = judged.outcomes.filter((o) => o.claim.supported && o.verdict === 'supported').length;
  const caughtFalse = judged.outcomes.filter((o) => !o.claim.supported && o.verdict === 'unsupported').length;
  console.log('\nfloor + fake judge (answers from the labels):');
  console.log(`  true claims supported:  ${supportedTrue}/${trues} = ${pct(supportedTrue, trues)}`);
  console.log(`  false claims caught:    ${caughtFalse}/${falses} = ${pct(caughtFalse, falses)}`);
  console.log(
    `  judge calls: ${calls} of ${CLAIMS.length} claims; saved ${CLAIMS.length - calls} = ` +
      `${pct(CLAIMS.length - calls, CLAIMS.length)}`,
  );
  const refused = alone.outcomes.filter((o) => o.claim.supported && o.floor === 'rejected');
  for (const o of refused) console.log(`  REFUSED TRUE CLAIM (${o.score}): ${o.claim.claim}`);
  const scores = (pred: (o: Outcome) => boolean) =>
    alone.outcomes
      .filter(pred)
      .map((o) => o.score)
      .sort((a, b) => a - b);
  const t = scores((o) => o.claim.supported);
  const x = scores((o) => o.claim.kind === 'different-subject');
  console.log(
    `\nfloor scores (best passage): true paraphrases ${t[0]}–${t[t.length - 1]}, different subject ` +
      `${x[0]}–${x[x.length - 1]}; rejected below 0.34 (passage) and 0.45 (page)`,
  );
}

void main().then(adversarialBench);
