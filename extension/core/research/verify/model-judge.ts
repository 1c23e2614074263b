// The fast-model half of claim checking: one short request per claim with the passages that passed
// the lexical floor, answered as a small JSON verdict. The model is reached through `complete`, so the
// verifier does not depend on a provider; the research loop gives it the configured fast model.
import claimCheckPrompt from '../../../../prompts/claim-check.md';
import type { Usage } from '../../../protocol';
import { costOf } from '../../usage/cost';
import type { ProviderConfig } from '../../providers/types';
import type { ClaimJudge, JudgeInput } from './verify-report';

/** One non-streamed completion: system prompt and user text in, the reply's text (and its usage) out. */
export type CompleteText = (
  req: { system: string; user: string; maxTokens: number },
  signal: AbortSignal,
) => Promise<{ text: string; usage?: Usage }>;

/**
 * A claim judge on a model reached through `complete`. Each verdict carries what its call spent, costed
 * at `price` (the fast model's; unknown when unset), so the research run counts it with its own calls.
 */
export function claimJudgeFrom(complete: CompleteText, price?: ProviderConfig['price']): ClaimJudge {
  return async (input, signal) => {
    const reply = await complete(
      { system: claimCheckPrompt.trim(), user: judgeRequestText(input), maxTokens: 200 },
      signal,
    );
    const verdict = parseVerdict(reply.text);
    return reply.usage ? { ...verdict, spent: { usage: reply.usage, costUsd: costOf(reply.usage, price) } } : verdict;
  };
}

export function judgeRequestText(input: JudgeInput): string {
  const evidence = input.evidence
    .map(
      (e, i) =>
        `Source ${i + 1}: ${e.title} (${e.url})\n${e.passages.map((p) => `> ${p.replace(/\n/g, ' ')}`).join('\n')}`,
    )
    .join('\n\n');
  return `Claim: ${input.claim}\n\nPassages from the cited page(s):\n\n${evidence}`;
}

/** Reads the verdict from a reply: the JSON object when there is one, else a clear leading word. */
export function parseVerdict(reply: string): { supported: boolean; reason?: string } {
  const json = /\{[\s\S]*\}/.exec(reply)?.[0];
  if (json) {
    try {
      const v = JSON.parse(json) as { verdict?: unknown; reason?: unknown };
      if (v.verdict === 'supported' || v.verdict === 'unsupported')
        return { supported: v.verdict === 'supported', ...(typeof v.reason === 'string' ? { reason: v.reason } : {}) };
    } catch {
      // fall through to the plain-word reading
    }
  }
  const word = /\b(unsupported|supported)\b/i.exec(reply)?.[1]?.toLowerCase();
  if (word) return { supported: word === 'supported' };
  throw new Error(`the claim checker's reply had no verdict: ${reply.slice(0, 120)}`);
}
