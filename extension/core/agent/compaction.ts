// Compaction: when a conversation nears the model's context window, the older turns are summarised
// into a structured brief by one model call, and the model is sent [brief] + the recent turns instead
// of the whole history. The originals are never deleted (model history and chat stay in the store and
// memory search finds them); the brief travels as a chat part, so the user can open and read exactly
// what the model now sees, and a reload or a rewind restores the compacted state with the chat.
import { planBrief, type Compaction, type Todo } from '../../protocol';
import compactionPrompt from '../../../prompts/compaction.md';
import type { ContentBlock, ModelMessage, Provider, ToolSpec } from '../providers/types';
import { collectText } from '../research/loop/llm-text';
import { CHARS_PER_TOKEN, estimateTextTokens } from '../util/tokens';

/** Compact when the estimated prompt reaches this share of the context window. */
export const COMPACT_AT = 0.8;
/** The recent turns kept verbatim may take up to this share of the window. */
export const KEEP_RECENT = 0.25;
/** Without a known context window (custom models), assume this. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** An image costs roughly this many tokens on the common APIs. */
const IMAGE_TOKENS = 1_600;
/** Per message overhead (role markers, separators). */
const MESSAGE_TOKENS = 4;
/** What the summariser is shown of one tool result, and of one message. */
const TOOL_RESULT_CHARS = 2_000;
const MESSAGE_CHARS = 12_000;
/** The user's own messages are kept verbatim up to this much each and in total. */
const USER_MESSAGE_CHARS = 4_000;
const USER_WORDS_CHARS = 24_000;

/** The first words of the model-facing brief; also how tests and the bench recognise it. */
export const BRIEF_HEADER =
  '[Summary of the earlier conversation. The older turns were compacted to fit the context window; the ' +
  'original messages are kept in the session history and memory_search finds them.]';
/** The assistant's fixed reply to the brief, so the history alternates and the prefix stays stable. */
export const BRIEF_ACK = 'Understood. I will continue from this summary and the messages that follow.';

export { estimateTextTokens };

function blocksTokens(content: string | ContentBlock[]): number {
  if (typeof content === 'string') return estimateTextTokens(content);
  let n = 0;
  for (const b of content) n += b.type === 'text' ? estimateTextTokens(b.text) : IMAGE_TOKENS;
  return n;
}

export function estimateMessageTokens(m: ModelMessage): number {
  if (m.role === 'user') return MESSAGE_TOKENS + blocksTokens(m.content);
  if (m.role === 'tool') return MESSAGE_TOKENS + blocksTokens(m.content);
  let n = MESSAGE_TOKENS + estimateTextTokens(m.text) + estimateTextTokens(m.thinking ?? '');
  for (const c of m.toolCalls ?? []) n += estimateTextTokens(c.name) + estimateTextTokens(c.argumentsJson);
  return n;
}

export function estimateMessagesTokens(messages: readonly ModelMessage[]): number {
  let n = 0;
  for (const m of messages) n += estimateMessageTokens(m);
  return n;
}

/** The prompt's size in tokens: system prompt, tool definitions and messages, estimated from characters. */
export function estimatePromptTokens(system: string, tools: readonly ToolSpec[], messages: readonly ModelMessage[]) {
  return estimateTextTokens(system) + estimateTextTokens(JSON.stringify(tools)) + estimateMessagesTokens(messages);
}

/** The model-facing pair that stands for the compacted turns. Deterministic: the same brief, the same bytes. */
export function briefMessages(compaction: Pick<Compaction, 'brief'>): ModelMessage[] {
  return [
    { role: 'user', content: `${BRIEF_HEADER}\n\n${compaction.brief}` },
    { role: 'assistant', text: BRIEF_ACK },
  ];
}

/** What the model is sent from the full history: after a compaction, its brief and the turns since. */
export function modelFacingHistory(history: readonly ModelMessage[], compaction?: Compaction): ModelMessage[] {
  if (!compaction) return [...history];
  return [...briefMessages(compaction), ...history.slice(compaction.replaces)];
}

/**
 * Where to cut the history: the brief replaces `history[0..cut)`. Only at the start of a user turn (or
 * the end), so a tool call is never separated from its result; past the previous compaction's cut; and
 * as early as keeps the turns after it within `keepTokens`. Undefined when there is nothing to compact.
 * `maxCut` bounds it: in the middle of a turn the cut is at most that turn's start (its tool calls and
 * results stay, and the request still ends on them); that latest allowed cut is taken even when what it
 * keeps is over `keepTokens` — the earlier turns are still summarised.
 */
export function chooseCut(
  history: readonly ModelMessage[],
  from: number,
  keepTokens: number,
  maxCut = history.length,
): number | undefined {
  const candidates: number[] = [];
  for (let i = from + 1; i < history.length && i <= maxCut; i++) {
    const m = history[i];
    if (m.role === 'user' && typeof m.content === 'string') candidates.push(i);
  }
  if (history.length > from && maxCut >= history.length) candidates.push(history.length);
  let suffix = 0;
  let next = history.length;
  // Walk back over the candidates while the kept suffix still fits (the end itself always does).
  let best: number | undefined;
  for (let k = candidates.length - 1; k >= 0; k--) {
    const cut = candidates[k];
    suffix += estimateMessagesTokens(history.slice(cut, next));
    next = cut;
    if (suffix > keepTokens && best !== undefined) break;
    best = cut;
    if (suffix > keepTokens) break;
  }
  return best;
}

/** The latest approved-plan brief the user sent in the compacted turns (it is carried over verbatim). */
function approvedPlanText(history: readonly ModelMessage[]): string | undefined {
  const head = planBrief('').trim();
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    if (m.role === 'user' && typeof m.content === 'string' && m.content.startsWith(head)) return m.content;
  }
  return undefined;
}

function userWords(history: readonly ModelMessage[], skip: string | undefined): string[] {
  const out: string[] = [];
  let total = 0;
  let left = 0;
  for (const m of history) {
    if (m.role !== 'user' || typeof m.content !== 'string' || m.content === skip) continue;
    if (m.content.startsWith(BRIEF_HEADER)) continue;
    const text =
      m.content.length > USER_MESSAGE_CHARS
        ? `${m.content.slice(0, USER_MESSAGE_CHARS)} […${m.content.length - USER_MESSAGE_CHARS} more characters]`
        : m.content;
    if (total + text.length > USER_WORDS_CHARS) {
      left++;
      continue;
    }
    total += text.length;
    out.push(text);
  }
  if (left) out.push(`(${left} more of the user's messages are left out here for length; memory_search finds them.)`);
  return out;
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((l) => (l ? `> ${l}` : '>'))
    .join('\n');
}

function todoLine(t: Todo): string {
  const box = t.status === 'completed' ? '[x]' : t.status === 'in_progress' ? '[~]' : '[ ]';
  return `- ${box} ${t.content}`;
}

/**
 * The brief: the model's summary, then what must survive word for word — the todo list, the approved
 * plan and the user's own messages (facts the user gave are never left to the summariser alone).
 */
export function composeBrief(summary: string, replaced: readonly ModelMessage[], todos: readonly Todo[]): string {
  const out = [summary.trim() || '## Goal\n- (the summary came back empty; see the sections below)'];
  if (todos.length) out.push('', '## Todo list (verbatim)', '', ...todos.map(todoLine));
  const plan = approvedPlanText(replaced);
  if (plan) out.push('', '## Approved plan (verbatim)', '', quote(plan));
  const words = userWords(replaced, plan);
  if (words.length) {
    out.push('', "## The user's messages (verbatim, oldest first)", '');
    for (const w of words) out.push(quote(w), '');
  }
  return out.join('\n').trimEnd();
}

function blockText(content: string | ContentBlock[]): string {
  if (typeof content === 'string') return content;
  return content.map((b) => (b.type === 'text' ? b.text : `[image ${b.mediaType}]`)).join('\n');
}

function capped(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n[… ${text.length - max} characters left out …]\n${text.slice(-half)}`;
}

/** The compacted turns as a plain transcript for the summariser, within `maxChars`. */
export function transcriptOf(messages: readonly ModelMessage[], maxChars: number): string {
  const parts: string[] = [];
  for (const m of messages) {
    if (m.role === 'user') parts.push(`### User\n${capped(blockText(m.content), MESSAGE_CHARS)}`);
    else if (m.role === 'assistant') {
      const calls = (m.toolCalls ?? []).map((c) => `[tool call ${c.name} ${capped(c.argumentsJson, 1_000)}]`);
      parts.push(`### Assistant\n${[capped(m.text, MESSAGE_CHARS), ...calls].filter(Boolean).join('\n')}`);
    } else {
      const status = m.isError ? ' (error)' : '';
      parts.push(`### Tool result of ${m.toolName}${status}\n${capped(blockText(m.content), TOOL_RESULT_CHARS)}`);
    }
  }
  return capped(parts.join('\n\n'), maxChars);
}

export interface CompactInput {
  provider: Provider;
  model: string;
  /** The full model history (never shortened) and the compaction in force, if any. */
  history: readonly ModelMessage[];
  previous?: Compaction;
  todos: readonly Todo[];
  contextWindow: number;
  /** The prompt's size before compacting (for the marker). */
  tokensBefore: number;
  /** Tokens of what is sent besides the history (system prompt, tool definitions), for tokensAfter. */
  fixedTokens: number;
  /** How much of the recent history to keep verbatim, in tokens. */
  keepTokens: number;
  /** The latest index the cut may take (in the middle of a turn: that turn's start). */
  maxCut?: number;
  trigger: Compaction['trigger'];
  signal: AbortSignal;
  id: string;
  now(): number;
}

export type CompactResult =
  | { ok: true; compaction: Compaction; usage: { inputTokens: number; outputTokens: number; cachedTokens: number } }
  | { ok: false; reason: string };

/** Summarises the turns before the cut with one model call and returns the compaction (nothing is saved here). */
export async function compact(input: CompactInput): Promise<CompactResult> {
  const from = input.previous?.replaces ?? 0;
  const cut = chooseCut(input.history, from, input.keepTokens, input.maxCut);
  if (cut === undefined || cut <= from) return { ok: false, reason: 'There is nothing older to compact yet.' };
  const replaced = input.history.slice(0, cut);
  // The summariser sees the previous brief and the turns after it; it may use at most half the window.
  const budget = Math.floor(input.contextWindow * 0.5 * CHARS_PER_TOKEN);
  const earlier = input.previous ? `## Earlier brief\n\n${input.previous.brief}\n\n` : '';
  const user =
    `${earlier}## Conversation to summarise\n\n${transcriptOf(input.history.slice(from, cut), budget)}\n\n` +
    'Write the brief now, with the headings given.';
  const { text, usage } = await collectText(
    { provider: input.provider, model: input.model },
    { system: compactionPrompt.trim(), user },
    input.signal,
  );
  if (input.signal.aborted) return { ok: false, reason: 'Stopped.' };
  if (!text.trim()) return { ok: false, reason: 'The model returned an empty summary.' };
  const brief = composeBrief(stripThinking(text), replaced, input.todos);
  const compaction: Compaction = {
    id: input.id,
    replaces: cut,
    brief,
    trigger: input.trigger,
    tokensBefore: input.tokensBefore,
    tokensAfter: 0,
    contextWindow: input.contextWindow,
    at: input.now(),
  };
  compaction.tokensAfter = input.fixedTokens + estimateMessagesTokens(modelFacingHistory(input.history, compaction));
  return { ok: true, compaction, usage };
}

/** Some models put their reasoning in <think> tags inside the text; it does not belong in the brief. */
function stripThinking(text: string): string {
  return text.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
}
