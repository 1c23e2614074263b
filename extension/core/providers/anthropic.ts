// The `anthropic` provider kind: @anthropic-ai/sdk with streaming, thinking blocks (with their
// signatures, so they can be replayed) and prompt caching. Its own esbuild entry
// (dist/provider-anthropic.js), loaded lazily by the registry: nothing else in extension/ may
// value-import this file.
import {
  Anthropic,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import {
  closeAnsweredToolLoops,
  thinkingAllowed,
  toAnthropicMessages,
  toAnthropicSystem,
  toAnthropicTools,
} from './anthropic-messages';
import { abortedError, toProviderError, truncatedError, type SdkErrorClasses } from './errors';
import { boundedRetryFetch, SDK_MAX_RETRIES } from './retry';
import type { Provider, ProviderConfig, ProviderEvent, ProviderRequest, ReasoningEffort, StopReason } from './types';
import { onRequestSignal } from './request-signal';
import { openSdkStream } from './sdk-stream';

const SDK_ERRORS: SdkErrorClasses = { APIError, APIUserAbortError, APIConnectionError, APIConnectionTimeoutError };
export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const DEFAULT_MAX_TOKENS = 8192;
/**
 * A keyless anthropic-kind endpoint (a local proxy) still gets some key: without one the SDK
 * would go looking for credentials in the environment and in config files on disk.
 */
const KEYLESS_PLACEHOLDER = 'sextant-keyless';

function stopReason(reason: string | null | undefined): StopReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'end';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
      return 'max_tokens';
    default:
      return 'other';
  }
}

/** Extended thinking's token budget per reasoning level (the API's minimum is 1024). */
export const THINKING_BUDGET: Record<ReasoningEffort, number> = { low: 2048, medium: 8192, high: 24_576 };

export function buildAnthropicBody(request: ProviderRequest): MessageCreateParamsStreaming {
  const answerTokens = request.maxTokens ?? DEFAULT_MAX_TOKENS;
  const messages = request.reasoning ? closeAnsweredToolLoops(request.messages) : request.messages;
  const thinking = request.reasoning && thinkingAllowed(messages) ? THINKING_BUDGET[request.reasoning] : 0;
  const body: MessageCreateParamsStreaming = {
    model: request.model,
    // The thinking budget is part of max_tokens, which must exceed it: the answer keeps its own room.
    max_tokens: answerTokens + thinking,
    messages: toAnthropicMessages(messages),
    stream: true,
  };
  if (thinking) body.thinking = { type: 'enabled', budget_tokens: thinking };
  const system = toAnthropicSystem(request.system);
  if (system) body.system = system;
  const tools = toAnthropicTools(request.tools);
  if (tools) body.tools = tools;
  // The SDK's types no longer list `temperature` (newer models fix it), but the API still takes it —
  // except with thinking on, which refuses any temperature but the default.
  if (request.temperature !== undefined && !thinking)
    (body as unknown as Record<string, unknown>).temperature = request.temperature;
  return body;
}

interface OpenBlock {
  kind: 'text' | 'thinking' | 'tool' | 'other';
  id: string;
  name: string;
  json: string;
}

export function createProvider(config: ProviderConfig, apiKey: string | undefined): Provider {
  const baseUrl = config.baseUrl ?? DEFAULT_ANTHROPIC_BASE_URL;
  const client = new Anthropic({
    apiKey: apiKey ?? KEYLESS_PLACEHOLDER,
    baseURL: baseUrl,
    maxRetries: SDK_MAX_RETRIES,
    fetch: boundedRetryFetch(),
    defaultHeaders: config.headers,
    logLevel: 'off',
    openTelemetry: false,
  });

  // A child signal per request (request-signal.ts): the SDK's listener goes on it, not on the turn's.
  const stream = onRequestSignal(streamOnce);

  async function* streamOnce(request: ProviderRequest, signal: AbortSignal): AsyncGenerator<ProviderEvent> {
    const { ctx, events } = await openSdkStream(config, baseUrl, signal, SDK_ERRORS, () =>
      client.messages.create(buildAnthropicBody(request), { signal }),
    );

    const open = new Map<number, OpenBlock>();
    let input = 0;
    let cacheRead = 0;
    let cacheWrite = 0;
    let output = 0;
    let reason: string | null | undefined;
    let stopped = false;
    try {
      for await (const event of events) {
        switch (event.type) {
          case 'message_start': {
            const u = event.message.usage;
            input = u.input_tokens ?? 0;
            cacheRead = u.cache_read_input_tokens ?? 0;
            cacheWrite = u.cache_creation_input_tokens ?? 0;
            output = u.output_tokens ?? 0;
            break;
          }
          case 'content_block_start': {
            const b = event.content_block;
            if (b.type === 'text') {
              open.set(event.index, { kind: 'text', id: '', name: '', json: '' });
              if (b.text) {
                ctx.afterFirstToken = true;
                yield { type: 'text', text: b.text };
              }
            } else if (b.type === 'thinking') {
              open.set(event.index, { kind: 'thinking', id: '', name: '', json: '' });
              if (b.thinking) {
                ctx.afterFirstToken = true;
                yield { type: 'thinking', text: b.thinking, ...(b.signature ? { signature: b.signature } : {}) };
              }
            } else if (b.type === 'redacted_thinking') {
              // Nothing to show, but it must go back with the turn (encrypted reasoning).
              open.set(event.index, { kind: 'other', id: '', name: '', json: '' });
              ctx.afterFirstToken = true;
              yield { type: 'thinking', text: '', redacted: b.data };
            } else if (b.type === 'tool_use') {
              open.set(event.index, { kind: 'tool', id: b.id, name: b.name, json: '' });
            } else {
              open.set(event.index, { kind: 'other', id: '', name: '', json: '' });
            }
            break;
          }
          case 'content_block_delta': {
            const d = event.delta;
            if (d.type === 'text_delta' && d.text) {
              ctx.afterFirstToken = true;
              yield { type: 'text', text: d.text };
            } else if (d.type === 'thinking_delta' && d.thinking) {
              ctx.afterFirstToken = true;
              yield { type: 'thinking', text: d.thinking };
            } else if (d.type === 'signature_delta') {
              yield { type: 'thinking', text: '', signature: d.signature };
            } else if (d.type === 'input_json_delta') {
              const block = open.get(event.index);
              if (block) block.json += d.partial_json;
            }
            break;
          }
          case 'content_block_stop': {
            const block = open.get(event.index);
            open.delete(event.index);
            if (block?.kind === 'tool') {
              ctx.afterFirstToken = true;
              yield { type: 'tool_call', call: { id: block.id, name: block.name, argumentsJson: block.json || '{}' } };
            }
            break;
          }
          case 'message_delta': {
            reason = event.delta.stop_reason ?? reason;
            const u = event.usage;
            if (u) {
              output = u.output_tokens ?? output;
              // Some endpoints only report input usage here.
              if (typeof u.input_tokens === 'number' && u.input_tokens > 0) input = u.input_tokens;
              if (typeof u.cache_read_input_tokens === 'number') cacheRead = u.cache_read_input_tokens;
              if (typeof u.cache_creation_input_tokens === 'number') cacheWrite = u.cache_creation_input_tokens;
            }
            break;
          }
          case 'message_stop':
            stopped = true;
            break;
        }
      }
    } catch (err) {
      throw toProviderError(err, ctx, SDK_ERRORS);
    }
    if (signal.aborted) throw abortedError(ctx);
    if (!stopped) throw truncatedError(ctx);
    // Anthropic's input_tokens excludes cache reads and writes; UsageReport counts all prompt tokens.
    yield {
      type: 'usage',
      usage: {
        inputTokens: input + cacheRead + cacheWrite,
        outputTokens: output,
        cachedTokens: cacheRead,
        ...(cacheWrite ? { cacheWriteTokens: cacheWrite } : {}),
      },
    };
    yield { type: 'done', stopReason: stopReason(reason) };
  }

  return { name: config.name, kind: 'anthropic', stream };
}
