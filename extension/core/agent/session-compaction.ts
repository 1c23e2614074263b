// Compaction of a live chat session: how big its next prompt is, and summarising its older turns into
// a brief (`compaction.ts` does the summarising; this decides how much to keep and records the result
// on the session). The model history itself is kept whole — only the model's view is shortened.
import type { Compaction } from '../../protocol';
import { latestCompaction } from '../../protocol';
import type { Logger } from '../ports';
import type { Provider, ProviderConfig } from '../providers/types';
import { compact, DEFAULT_CONTEXT_WINDOW, estimateMessagesTokens, KEEP_RECENT, modelFacingHistory } from './compaction';
import { costOf } from '../usage/cost';
import { toErrorInfo } from './errors';
import type { LiveSession } from './live-session';

export type SessionCompaction = Awaited<ReturnType<typeof compact>> | { ok: false; reason: string };

/**
 * The next prompt's size in tokens: the provider's count for the last call plus estimates of what was
 * added since, when that call was sent the same compacted history; else estimated from characters.
 * The caller flushes its outbox first, so the chat (and its latest compaction) is up to date.
 */
export function nextPromptTokens(s: LiveSession, fixedTokens: number, extraTokens: number): number {
  const compaction = latestCompaction(s.chat);
  const estimated = fixedTokens + estimateMessagesTokens(modelFacingHistory(s.modelMessages, compaction));
  const last = s.lastPrompt;
  const reported =
    last && last.replaces === (compaction?.replaces ?? 0) && last.historyLength <= s.modelMessages.length
      ? last.tokens + estimateMessagesTokens(s.modelMessages.slice(last.historyLength))
      : 0;
  return Math.max(estimated, reported) + extraTokens;
}

/**
 * Summarises the older turns (one model call on `target`) into a brief; on success the compaction
 * carries what the summary cost. Never throws: a failure is `{ok: false, reason}` (the turn then goes
 * on with the full history, and says so).
 */
export async function compactSession(
  s: LiveSession,
  target: { provider: Provider; model: string; config: ProviderConfig },
  o: {
    trigger: Compaction['trigger'];
    tokensBefore: number;
    fixedTokens: number;
    signal: AbortSignal;
    /** Compacting in the middle of a turn: the cut stays at or before the running turn's start. */
    midTurn?: boolean;
  },
  deps: { log: Logger; now(): number; newId(): string },
): Promise<SessionCompaction> {
  const window = target.config.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  const previous = latestCompaction(s.chat);
  // "Compact now" keeps the last turn as it is; near the window, the recent quarter of it. When the
  // provider counted more tokens than the character estimate (dense code, other scripts), the budget
  // for the kept turns shrinks by the same factor, so the compacted prompt really fits.
  const lastTurn = s.checkpoints.at(-1)?.modelIndex ?? 0;
  const estimated = o.fixedTokens + estimateMessagesTokens(modelFacingHistory(s.modelMessages, previous));
  const scale = Math.max(1, o.tokensBefore / Math.max(1, estimated));
  const keepTokens =
    o.trigger === 'manual'
      ? Math.min(KEEP_RECENT * window, estimateMessagesTokens(s.modelMessages.slice(lastTurn)))
      : (KEEP_RECENT * window) / scale;
  const started = deps.now();
  try {
    const done = await compact({
      provider: target.provider,
      model: target.model,
      history: s.modelMessages,
      previous,
      todos: s.tools.todos,
      contextWindow: window,
      tokensBefore: o.tokensBefore,
      fixedTokens: o.fixedTokens,
      keepTokens,
      ...(o.midTurn ? { maxCut: lastTurn } : {}),
      trigger: o.trigger,
      signal: o.signal,
      id: `compaction-${deps.newId()}`,
      now: deps.now,
    });
    if (done.ok) {
      s.lastPrompt = undefined;
      const c = done.compaction;
      c.usage = { ...done.usage, costUsd: costOf(done.usage, target.config.price) };
      deps.log.info(
        `compacted ${c.replaces} messages: ~${c.tokensBefore} → ~${c.tokensAfter} tokens in ${deps.now() - started} ms`,
      );
    }
    return done;
  } catch (err) {
    const reason = toErrorInfo(err).message;
    deps.log.warn(`compaction failed: ${reason}`);
    return { ok: false, reason };
  }
}
