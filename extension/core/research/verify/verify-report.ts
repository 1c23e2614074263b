// Verified citations: before a report is shown, every `[n]` must resolve to a page fetched in this
// run, every URL in the text must have been fetched, and every cited sentence is checked against the
// page it cites — a lexical floor first (lexical.ts: a claim pinned word for word to one sentence is
// verified there, one unrelated to the page is rejected), then, when a judge is given, a fast model
// reading the best-matching passages; without a judge the rest stay unchecked. Each verified claim
// records what verified it and the passage it rests on (quote and offsets in the page's text, or a
// file's lines). Invented citations and unfetched URLs are removed; unsupported claims stay, visibly
// marked, and are counted in the report's notes.
import type { Source } from '../../web/types';
import {
  citedNumbers,
  citedSentences,
  dropUnknownUrls,
  normaliseUrl,
  rewriteMarkers,
  withoutSourceSection,
} from './citations';
import { bestPassages, floorCheck, indexPage, type FloorDecision, type FloorResult, type PageIndex } from './lexical';
import { floorNote, summaryNote } from './verify-notes';
import type { ClaimPassage, Usage } from '../../../protocol';
import type { StoredResearch } from '../../ports';

/**
 * A page (or workspace section) fetched in this run, as the verifier needs it: the same record a report's
 * sources are stored as (core/ports.ts `StoredResearch`), so a follow-up after a restart verifies alike.
 * `n` is the run's own source number; `text` what citations' quote offsets point into.
 */
export type FetchedSource = StoredResearch['sources'][number];

export interface JudgeInput {
  claim: string;
  /** The best-matching passages of each cited page that passed the lexical floor. */
  evidence: Array<{ title: string; url: string; passages: string[] }>;
}

/** A fast-model check: does the evidence support the claim? */
export type ClaimJudge = (
  input: JudgeInput,
  signal: AbortSignal,
) => Promise<{ supported: boolean; reason?: string; spent?: { usage: Usage; costUsd: number | undefined } }>;

export type Verdict = 'supported' | 'unsupported' | 'unchecked';

export interface ClaimVerdict {
  claim: string;
  /** Source numbers as the final report numbers them. */
  cites: number[];
  verdict: Verdict;
  /** What decided: the lexical floor alone, or the model after the floor. */
  by: 'lexical' | 'model';
  /** A supported claim: what verified it — pinned word for word to a passage, or the model judge. */
  verifiedBy?: 'passage-match' | 'judge';
  /** The passage the claim rests on (a supported claim: always; otherwise the closest one, if any). */
  passage?: ClaimPassage;
  /** Share of the claim's content words and figures in the best-matching passage of its cited pages, 0..1. */
  coverage: number;
  /** The lexical floor's decision and its score (the best passage's share, 0..1). */
  floor: { decision: FloorDecision; score: number };
  reason?: string;
}

export interface VerificationStats {
  citations: number;
  inventedRemoved: number;
  unfetchedUrlsRemoved: number;
  claims: number;
  supported: number;
  unsupported: number;
  unchecked: number;
  /** The lexical floor's decisions: pinned to a passage, sent to the judge, rejected as unrelated. */
  floor: Record<FloorDecision, number>;
}

export interface VerifiedReport {
  /** The report with invented citations and unfetched URLs removed, markers renumbered 1..k in order
   *  of first use, unsupported claims marked, and a numbered "Sources" section. */
  markdown: string;
  /** The cited sources, numbered as in the report. */
  sources: Source[];
  verdicts: ClaimVerdict[];
  notes: string[];
  stats: VerificationStats;
}

export const UNSUPPORTED_MARK = '*(not supported by the cited source)*';
export const INVENTED_MARK = '*(cited a source that was not fetched)*';
/** Stands for INVENTED_MARK while markers are rewritten (a number no source can have). */
const INVENTED_MARK_TOKEN = -1;

export interface VerifyOptions {
  judge?: ClaimJudge;
  signal?: AbortSignal;
  /** Judge calls in flight at once. */
  concurrency?: number;
  /** Keep the sources' own numbers instead of renumbering by first use (a follow-up cites as its report did). */
  keepNumbers?: boolean;
}

export async function verifyReport(
  draft: string,
  fetched: readonly FetchedSource[],
  opts: VerifyOptions = {},
): Promise<VerifiedReport> {
  const signal = opts.signal ?? new AbortController().signal;
  const byN = new Map(fetched.map((s) => [s.n, s]));
  const fetchedUrls = new Set(fetched.flatMap((s) => [s.url, s.finalUrl ?? s.url].map(normaliseUrl)));
  const notes: string[] = [];

  // 1. Our own source list replaces whatever the model wrote; URLs not fetched in this run go.
  const body = withoutSourceSection(draft);
  const { text: urlsChecked, removed } = dropUnknownUrls(body, (u) => fetchedUrls.has(normaliseUrl(u)));
  for (const u of [...new Set(removed)]) notes.push(`Removed a URL that was not fetched in this run: ${u}`);

  // 2. Citations of nothing fetched are invented: removed. The rest are renumbered by first use.
  const invented = new Set<number>();
  let citations = 0;
  let inventedRemoved = 0;
  const resolved = rewriteMarkers(urlsChecked, (ns) => {
    citations += ns.length;
    const kept = ns.filter((n) => {
      if (byN.has(n)) return true;
      invented.add(n);
      inventedRemoved++;
      return false;
    });
    // A claim left with no citation at all says so rather than reading as an unsourced statement.
    return kept.length === 0 ? [INVENTED_MARK_TOKEN] : kept;
  });
  for (const n of [...invented].sort((a, b) => a - b))
    notes.push(`Removed citation [${n}]: no source with that number was fetched in this run.`);
  const order = opts.keepNumbers ? [...new Set(citedNumbers(resolved))].sort((a, b) => a - b) : citedNumbers(resolved);
  const renumber = new Map(order.map((n, i) => [n, opts.keepNumbers ? n : i + 1]));
  let markdown = rewriteMarkers(resolved, (ns) => [...new Set(ns.map((n) => renumber.get(n) ?? n))]).replace(
    /[ \t]*\[-1\]/g,
    ` ${INVENTED_MARK}`,
  );
  const sources: Source[] = order.map((n) => {
    const s = byN.get(n) as FetchedSource;
    return {
      n: renumber.get(n) as number,
      url: s.finalUrl ?? s.url,
      title: s.title,
      accessedAt: s.accessedAt,
      ...(s.path ? { path: s.path } : {}),
      ...(s.lines ? { lines: s.lines } : {}),
    };
  });
  const pageOf = new Map<number, { src: FetchedSource; index: PageIndex }>(
    order.map((n) => [
      renumber.get(n) as number,
      { src: byN.get(n) as FetchedSource, index: indexPage((byN.get(n) as FetchedSource).text) },
    ]),
  );

  // 3. Each cited sentence against its pages.
  const sentences = citedSentences(markdown);
  const verdicts = new Array<ClaimVerdict>(sentences.length);
  let next = 0;
  const worker = async () => {
    while (next < sentences.length) {
      const k = next++;
      verdicts[k] = await judgeSentence(sentences[k].claim, sentences[k].numbers, pageOf, opts.judge, signal);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 4) }, worker));

  // 4. Unsupported claims are marked where they stand.
  sentences.forEach((s, k) => {
    if (verdicts[k].verdict !== 'unsupported') return;
    const at = findSentence(markdown, s.sentence);
    if (at) markdown = `${markdown.slice(0, at.end)} ${UNSUPPORTED_MARK}${markdown.slice(at.end)}`;
  });

  const stats: VerificationStats = {
    citations,
    inventedRemoved,
    unfetchedUrlsRemoved: removed.length,
    claims: verdicts.length,
    supported: verdicts.filter((v) => v.verdict === 'supported').length,
    unsupported: verdicts.filter((v) => v.verdict === 'unsupported').length,
    unchecked: verdicts.filter((v) => v.verdict === 'unchecked').length,
    floor: {
      pinned: verdicts.filter((v) => v.floor.decision === 'pinned').length,
      judge: verdicts.filter((v) => v.floor.decision === 'judge').length,
      rejected: verdicts.filter((v) => v.floor.decision === 'rejected').length,
    },
  };
  notes.unshift(summaryNote(stats, Boolean(opts.judge)));
  if (stats.claims) notes.splice(1, 0, floorNote(stats.floor, Boolean(opts.judge)));
  markdown = `${markdown.trimEnd()}\n\n${sourcesSection(sources)}`;
  return { markdown, sources, verdicts, notes, stats };
}

async function judgeSentence(
  claim: string,
  cites: number[],
  pageOf: Map<number, { src: FetchedSource; index: PageIndex }>,
  judge: ClaimJudge | undefined,
  signal: AbortSignal,
): Promise<ClaimVerdict> {
  const cited = cites.flatMap((n) => {
    const p = pageOf.get(n);
    return p ? [{ n, ...p }] : [];
  });
  // A sentence citing several pages may draw on all of them: the floor looks at each page's passages
  // and at their union.
  const f = floorCheck(
    claim,
    cited.map((p) => p.index),
  );
  const passage = passageOf(f, cited);
  const base = {
    claim,
    cites,
    coverage: f.score,
    floor: { decision: f.decision, score: f.score },
    ...(passage ? { passage } : {}),
  };
  const pct = (x: number) => `${Math.round(x * 100)} %`;
  if (f.decision === 'pinned') return { ...base, verdict: 'supported', by: 'lexical', verifiedBy: 'passage-match' };
  if (f.decision === 'rejected')
    return {
      ...base,
      verdict: 'unsupported',
      by: 'lexical',
      reason:
        `unrelated to the cited page: its best passage holds ${pct(f.score)} of the claim's words and ` +
        `figures, the whole page ${pct(f.pageCoverage)}`,
    };
  const missing = f.missingFigures.length ? `the cited page does not contain ${f.missingFigures.join(', ')}` : '';
  if (!judge) {
    // Word overlap is what a distorted claim has too: only a reading of its meaning verifies it.
    const why = missing || 'not pinned word for word to a passage of the cited page';
    return { ...base, verdict: 'unchecked', by: 'lexical', reason: `${why}; no model was available to check it` };
  }
  try {
    const evidence = cited
      .map((p) => ({ title: p.src.title, url: p.src.finalUrl ?? p.src.url, passages: bestPassages(claim, p.index) }))
      .filter((e) => e.passages.length > 0);
    const r = await judge({ claim, evidence }, signal);
    const reason = r.reason ?? (r.supported ? undefined : missing || undefined);
    return {
      ...base,
      verdict: r.supported ? 'supported' : 'unsupported',
      by: 'model',
      ...(r.supported ? { verifiedBy: 'judge' as const } : {}),
      ...(reason ? { reason } : {}),
    };
  } catch (e) {
    if (signal.aborted) throw e;
    return { ...base, verdict: 'unchecked', by: 'lexical', reason: `the model check failed: ${(e as Error).message}` };
  }
}

/** The floor's passage as the report keeps it: the source's number, the quote and where it stands. */
function passageOf(
  f: FloorResult,
  cited: ReadonlyArray<{ n: number; src: FetchedSource; index: PageIndex }>,
): ClaimPassage | undefined {
  if (!f.passage) return undefined;
  const p = cited[f.passage.page];
  const s = p.index.sentences[f.passage.sentence];
  const out: ClaimPassage = { n: p.n, quote: s.text, start: s.start, end: s.end };
  const lines = p.src.lines;
  if (lines) {
    // A workspace section: its text starts at `lines.start`; the quote's lines follow from its offsets.
    const lineAt = (at: number) => lines.start + (p.src.text.slice(0, at).match(/\n/g)?.length ?? 0);
    out.lines = { start: lineAt(s.start), end: lineAt(s.end) };
  }
  return out;
}

/** Where a sentence (as extracted, whitespace collapsed) ends in the Markdown, whatever its line breaks. */
function findSentence(markdown: string, sentence: string): { end: number } | undefined {
  const pattern = sentence
    .split(/\s+/)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    // A sentence may run over lines of a block quote ("> ") or a list item's continuation.
    .join('\\s+(?:>\\s*)*');
  const m = new RegExp(pattern).exec(markdown);
  return m ? { end: m.index + m[0].length } : undefined;
}

/** The numbered source list: title, URL, accessed date. */
export function sourcesSection(sources: readonly Source[]): string {
  if (sources.length === 0) return '## Sources\n\nNo sources were cited.';
  const items = sources.map((s) => {
    if (s.path && s.lines) {
      // A workspace file: its relative path and lines, linked so an export opens it beside the report.
      const where = `${s.path} (lines ${s.lines.start}–${s.lines.end})`;
      const link = `${encodeURI(s.path)}#L${s.lines.start}-L${s.lines.end}`;
      const read = new Date(s.accessedAt).toISOString().slice(0, 10);
      return `${s.n}. [${where.replace(/[[\]]/g, '')}](${link}) — workspace file, read ${read}`;
    }
    const title = s.title.replace(/[[\]]/g, '').trim() || s.url;
    return `${s.n}. [${title}](${s.url}) — accessed ${new Date(s.accessedAt).toISOString().slice(0, 10)}`;
  });
  return `## Sources\n\n${items.join('\n')}`;
}
