// The `openai` provider kind: the official openai SDK against any OpenAI-compatible base URL
// (OpenAI, MiniMax, OpenRouter, Gemini, Moonshot, DeepSeek, Ollama, LM Studio…).
// Its own esbuild entry (dist/provider-openai.js), loaded lazily by the registry: nothing else in
// extension/ may value-import this file.
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, OpenAI } from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { abortedError, toProviderError, truncatedError, type SdkErrorClasses } from './errors';
import { toOpenAiMessages, toOpenAiTools } from './openai-messages';
import { ThinkTagSplitter } from './think-tags';
import { boundedRetryFetch, SDK_MAX_RETRIES } from './retry';
import type {
  Provider,
  ProviderConfig,
  ProviderEvent,
  ProviderRequest,
  StopReason,
  ToolCall,
  UsageReport,
} from './types';
import { onRequestSignal } from './request-signal';
import { openSdkStream } from './sdk-stream';

const SDK_ERRORS: SdkErrorClasses = { APIError, APIUserAbortError, APIConnectionError, APIConnectionTimeoutError };
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** Sent when a keyless local server (Ollama, LM Studio) is used: the SDK insists on some key. */
const KEYLESS_PLACEHOLDER = 'sextant-keyless';

/** Non-standard delta fields that OpenAI-compatible servers use for reasoning. */
interface ReasoningDelta {
  reasoning_content?: string | null;
  reasoning?: string | null;
  reasoning_details?: Array<{ type?: string; text?: string; summary?: string }> | null;
}

function reasoningText(delta: ReasoningDelta): string {
  if (typeof delta.reasoning_content === 'string' && delta.reasoning_content) return delta.reasoning_content;
  if (typeof delta.reasoning === 'string' && delta.reasoning) return delta.reasoning;
  // MiniMax (reasoning_split) and OpenRouter send structured details; OpenRouter also mirrors them
  // in `reasoning`, which is why details are only read when neither string field is present.
  if (Array.isArray(delta.reasoning_details)) {
    return delta.reasoning_details
      .map((d) => (d.type === 'reasoning.text' ? d.text : d.type === 'reasoning.summary' ? d.summary : '') ?? '')
      .join('');
  }
  return '';
}

function stopReason(finish: string | null): StopReason {
  switch (finish) {
    case 'stop':
      return 'end';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'length':
      return 'max_tokens';
    default:
      return 'other';
  }
}

function usageOf(usage: NonNullable<ChatCompletionChunk['usage']>): UsageReport {
  const extra = usage as { prompt_cache_hit_tokens?: number };
  return {
    // prompt_tokens already includes the cached part (UsageReport's convention too).
    inputTokens: usage.prompt_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
    cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? extra.prompt_cache_hit_tokens ?? 0,
    // OpenAI's reasoning models (and some compatible servers) say how much of the output was reasoning.
    ...(usage.completion_tokens_details?.reasoning_tokens
      ? { reasoningTokens: usage.completion_tokens_details.reasoning_tokens }
      : {}),
  };
}

interface PartialCall {
  id: string;
  name: string;
  args: string;
}

export function buildOpenAiBody(config: ProviderConfig, request: ProviderRequest): ChatCompletionCreateParamsStreaming {
  const body: ChatCompletionCreateParamsStreaming & Record<string, unknown> = {
    ...(config.extraBody ?? {}),
    model: request.model,
    messages: toOpenAiMessages(request.system, request.messages, config.reasoningReplay),
    stream: true,
    stream_options: { include_usage: true },
  };
  const tools = toOpenAiTools(request.tools);
  if (tools) body.tools = tools;
  if (request.maxTokens !== undefined) body[config.maxTokensParam ?? 'max_tokens'] = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  // The picker's reasoning level; `off` sends nothing, so the model keeps its own default.
  if (request.reasoning) body.reasoning_effort = request.reasoning;
  return body;
}

export function createProvider(config: ProviderConfig, apiKey: string | undefined): Provider {
  const baseUrl = config.baseUrl ?? DEFAULT_OPENAI_BASE_URL;
  const client = new OpenAI({
    apiKey: apiKey ?? KEYLESS_PLACEHOLDER,
    baseURL: baseUrl,
    // Explicit nulls so OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment never leak into
    // requests to a different provider.
    organization: null,
    project: null,
    maxRetries: SDK_MAX_RETRIES,
    fetch: boundedRetryFetch(),
    defaultHeaders: config.headers,
    logLevel: 'off',
  });

  // A child signal per request (request-signal.ts): the SDK's listener goes on it, not on the turn's.
  const stream = onRequestSignal(streamOnce);

  async function* streamOnce(request: ProviderRequest, signal: AbortSignal): AsyncGenerator<ProviderEvent> {
    const { ctx, events: chunks } = await openSdkStream(config, baseUrl, signal, SDK_ERRORS, () =>
      client.chat.completions.create(buildOpenAiBody(config, request), { signal }),
    );

    const tags = new ThinkTagSplitter();
    const calls = new Map<number, PartialCall>();
    let emittedCalls = false;
    let finish: string | null = null;
    let usage: UsageReport | undefined;
    const completeCalls = (): ToolCall[] =>
      [...calls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, c]) => ({ id: c.id || `call_${index}`, name: c.name, argumentsJson: c.args }));

    try {
      for await (const chunk of chunks) {
        if (chunk.usage) usage = usageOf(chunk.usage);
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const delta = (choice.delta ?? {}) as NonNullable<typeof choice.delta> & ReasoningDelta;
        const thinking = reasoningText(delta);
        if (thinking) {
          ctx.afterFirstToken = true;
          yield { type: 'thinking', text: thinking };
        }
        if (typeof delta.content === 'string' && delta.content) {
          for (const piece of tags.push(delta.content)) {
            ctx.afterFirstToken = true;
            yield piece;
          }
        }
        for (const tc of delta.tool_calls ?? []) {
          const index = tc.index ?? 0;
          const entry = calls.get(index) ?? { id: '', name: '', args: '' };
          calls.set(index, entry);
          if (tc.id) entry.id = tc.id;
          if (tc.function?.name)
            entry.name =
              entry.name && entry.name !== tc.function.name ? entry.name + tc.function.name : tc.function.name;
          if (tc.function?.arguments) entry.args += tc.function.arguments;
        }
        if (choice.finish_reason) {
          finish = choice.finish_reason;
          for (const piece of tags.flush()) yield piece;
          // Calls are complete once the choice finishes; emit them before the trailing usage chunk.
          if (!emittedCalls && calls.size > 0) {
            emittedCalls = true;
            ctx.afterFirstToken = true;
            for (const call of completeCalls()) yield { type: 'tool_call', call };
          }
        }
      }
    } catch (err) {
      throw toProviderError(err, ctx, SDK_ERRORS);
    }
    // The SDK ends the iteration quietly when the signal aborts it.
    if (signal.aborted) throw abortedError(ctx);
    if (finish === null) throw truncatedError(ctx);
    if (usage) yield { type: 'usage', usage };
    yield { type: 'done', stopReason: calls.size > 0 && finish === 'stop' ? 'tool_calls' : stopReason(finish) };
  }

  return { name: config.name, kind: 'openai', stream };
}
