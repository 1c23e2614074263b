// Maps Sextant's neutral ModelMessages onto the Anthropic messages wire format, with prompt-caching
// breakpoints on the system prompt (after the tools, so both are cached), on the last message and on
// the user turn before it (the conversation prefix then stays cached across the steps of an agent
// turn). Only SDK types are imported here.
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { ContentBlock, ModelMessage, ToolSpec } from './types';
import { toolInput } from './sdk-stream';

type ImageMediaType = ImageBlockParam extends { source: infer S }
  ? S extends { media_type: infer M }
    ? M
    : never
  : never;

const EPHEMERAL = { type: 'ephemeral' } as const;

function image(block: Extract<ContentBlock, { type: 'image' }>): ImageBlockParam {
  return {
    type: 'image',
    source: { type: 'base64', media_type: block.mediaType as ImageMediaType, data: block.dataBase64 },
  };
}

function blocks(content: string | ContentBlock[]): Array<TextBlockParam | ImageBlockParam> {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  return content.map((b) => (b.type === 'text' ? { type: 'text', text: b.text } : image(b)));
}

/**
 * The reasoning blocks to replay, exactly as they came: every signed thinking block and every
 * redacted_thinking block, in order. A block without a signature (another provider's reasoning, a
 * stream cut short) cannot be replayed and is left out.
 */
function thinkingParams(msg: Extract<ModelMessage, { role: 'assistant' }>): ContentBlockParam[] {
  const blocks =
    msg.thinkingBlocks ??
    (msg.thinking ? [{ type: 'thinking' as const, text: msg.thinking, signature: msg.thinkingSignature }] : []);
  const out: ContentBlockParam[] = [];
  for (const b of blocks) {
    if (b.type === 'redacted') out.push({ type: 'redacted_thinking', data: b.data });
    else if (b.signature) out.push({ type: 'thinking', thinking: b.text, signature: b.signature });
  }
  return out;
}

function assistantBlocks(msg: Extract<ModelMessage, { role: 'assistant' }>): ContentBlockParam[] {
  const out: ContentBlockParam[] = thinkingParams(msg);
  if (msg.text) out.push({ type: 'text', text: msg.text });
  for (const c of msg.toolCalls ?? [])
    out.push({ type: 'tool_use', id: c.id, name: c.name, input: toolInput(c.argumentsJson) });
  return out;
}

function toolResult(msg: Extract<ModelMessage, { role: 'tool' }>): ToolResultBlockParam {
  return {
    type: 'tool_result',
    tool_use_id: msg.toolCallId,
    content: blocks(msg.content),
    ...(msg.isError ? { is_error: true } : {}),
  };
}

/** Marks the last block that may carry `cache_control` (thinking blocks may not). */
function markLastCacheable(content: ContentBlockParam[]): void {
  for (let i = content.length - 1; i >= 0; i--) {
    const b = content[i];
    if (b && b.type !== 'thinking' && b.type !== 'redacted_thinking') {
      (b as { cache_control?: typeof EPHEMERAL }).cache_control = EPHEMERAL;
      return;
    }
  }
}

export function toAnthropicMessages(messages: ModelMessage[]): MessageParam[] {
  const out: Array<{ role: 'user' | 'assistant'; content: ContentBlockParam[] }> = [];
  const push = (role: 'user' | 'assistant', content: ContentBlockParam[]): void => {
    if (content.length === 0) return;
    const last = out[out.length - 1];
    // Tool results of one step must share a single user turn; merging same-role neighbours also
    // keeps the strict user/assistant alternation older endpoints require.
    if (last && last.role === role) last.content.push(...content);
    else out.push({ role, content: [...content] });
  };
  for (const msg of messages) {
    if (msg.role === 'user') push('user', blocks(msg.content));
    else if (msg.role === 'assistant') push('assistant', assistantBlocks(msg));
    else push('user', [toolResult(msg)]);
  }
  const last = out[out.length - 1];
  if (last) markLastCacheable(last.content);
  // A second breakpoint where the previous request ended (the user turn before the last one): the
  // API looks back only about 20 blocks from a breakpoint for a cached prefix, and one step of many
  // tool calls adds more than that, so the new request still finds the old prefix here.
  for (let i = out.length - 2; i >= 0; i--) {
    const m = out[i];
    if (m?.role === 'user') {
      markLastCacheable(m.content);
      break;
    }
  }
  return out;
}

/** What stands between a step's tool results and the user's next message when thinking is on. */
export const RESULTS_RECEIVED = '(Tool results received.)';

/**
 * With thinking on, a user message that follows tool results (an approved plan after `submit_plan`, a
 * "continue" after a stopped run) starts a new assistant turn only if an assistant message closes the
 * earlier tool loop first; otherwise the API counts it as the same loop and wants that loop's assistant
 * message to start with a thinking block it may not have (it ran without thinking, or on another model).
 * A short assistant note goes in between, at every such place in the history, so the prefix stays the
 * same from one request to the next.
 */
export function closeAnsweredToolLoops(messages: ModelMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const m of messages) {
    if (m.role === 'user' && out.at(-1)?.role === 'tool') out.push({ role: 'assistant', text: RESULTS_RECEIVED });
    out.push(m);
  }
  return out;
}

/**
 * Whether extended thinking may be switched on for a request over these messages. Anthropic keeps one
 * thinking configuration per assistant turn, and a tool-use loop is one turn: when the history ends in
 * a loop whose assistant message carries no reasoning block (it ran without thinking, on another model,
 * or a plan's `submit_plan` call is answered by the approved plan), the API refuses thinking ("a final
 * assistant message must start with a thinking block"). Such a request goes out without thinking.
 */
export function thinkingAllowed(messages: ModelMessage[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'assistant') continue;
    if (!m.toolCalls?.length) return true;
    // The loop is still open only if tool results follow this assistant message.
    if (!messages.slice(i + 1).some((n) => n.role === 'tool')) return true;
    return thinkingParams(m).length > 0;
  }
  return true;
}

export function toAnthropicSystem(system: string): TextBlockParam[] | undefined {
  return system ? [{ type: 'text', text: system, cache_control: EPHEMERAL }] : undefined;
}

export function toAnthropicTools(tools: ToolSpec[] | undefined): Tool[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.inputSchema as Tool['input_schema'],
  }));
}
