import type { ReasoningEffort } from '../../protocol/model';

// The Provider contract. Providers translate between this neutral shape and a wire
// format; tool-call deltas are accumulated inside the provider and only complete calls are emitted.

/** A block of content the model sees in a tool result or a user message. */
export type ContentBlock = { type: 'text'; text: string } | { type: 'image'; mediaType: string; dataBase64: string };

export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON text of the arguments as the model produced it (may be invalid JSON). */
  argumentsJson: string;
}

/**
 * One reasoning block of an assistant response as the API sent it: Anthropic wants every block of the
 * last tool-use turn back unmodified (a signed `thinking` block, or a `redacted_thinking` block's data).
 */
export type ThinkingBlock = { type: 'thinking'; text: string; signature?: string } | { type: 'redacted'; data: string };

export type ModelMessage =
  | { role: 'user'; content: string | ContentBlock[] }
  | {
      role: 'assistant';
      text: string;
      thinking?: string;
      thinkingSignature?: string;
      /** The blocks in the order they came (newer histories); `thinking` stays their joined text. */
      thinkingBlocks?: ThinkingBlock[];
      toolCalls?: ToolCall[];
    }
  | { role: 'tool'; toolCallId: string; toolName: string; content: ContentBlock[]; isError: boolean };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12) of the arguments object. */
  inputSchema: Record<string, unknown>;
}

export interface ProviderRequest {
  model: string;
  system: string;
  messages: ModelMessage[];
  tools?: ToolSpec[];
  maxTokens?: number;
  temperature?: number;
  /**
   * How hard the model should reason (the model picker's per-model option). Anthropic: extended
   * thinking with a token budget; OpenAI-compatible: `reasoning_effort`. Absent: nothing is sent.
   */
  reasoning?: ReasoningEffort;
}

export type { ReasoningEffort } from '../../protocol/model';

export interface UsageReport {
  /** All prompt tokens, the cached ones included. */
  inputTokens: number;
  /** All completion tokens, reasoning included. */
  outputTokens: number;
  /** Prompt tokens read from the provider's cache (a part of inputTokens). */
  cachedTokens: number;
  /** Reasoning tokens, when the API reports them separately (a part of outputTokens). */
  reasoningTokens?: number;
  /** Prompt tokens written to the provider's cache (Anthropic; a part of inputTokens), billed above input. */
  cacheWriteTokens?: number;
}

export type StopReason = 'end' | 'tool_calls' | 'max_tokens' | 'other';

export type ProviderEvent =
  | { type: 'text'; text: string }
  /** `signature` ends a thinking block; `redacted` is a whole redacted_thinking block (no text to show). */
  | { type: 'thinking'; text: string; signature?: string; redacted?: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; usage: UsageReport }
  | { type: 'done'; stopReason: StopReason }
  /**
   * Only from a failover provider (failover.ts): the primary model failed before any output and the
   * fallback answers from here on. `price` is the fallback's, so usage is costed at the model that answered.
   */
  | { type: 'failover'; from: string; to: string; reason: string; price?: ProviderConfig['price'] };

export type ProviderErrorCode = 'no_key' | 'auth' | 'rate_limit' | 'server' | 'unreachable' | 'bad_request' | 'aborted';

/** Every failure a provider reports is one of these, with a message written for the user. */
export class ProviderError extends Error {
  constructor(
    readonly code: ProviderErrorCode,
    message: string,
    readonly status?: number,
    /** True when text had already streamed before the failure (retrying would repeat it). */
    readonly afterFirstToken = false,
    /** For rate limits: how long the server asked us to wait (from `retry-after-ms` / `retry-after`). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export interface Provider {
  /** The instance name from settings, e.g. "minimax". */
  readonly name: string;
  readonly kind: ProviderKind;
  stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent>;
}

export type ProviderKind = 'openai' | 'anthropic' | 'vscode-lm';

/** A provider instance as configured in `sextant.providers`, merged over presets. */
export interface ProviderConfig {
  name: string;
  kind: ProviderKind;
  baseUrl?: string;
  model?: string;
  models?: string[];
  default?: string;
  apiKeyEnv?: string;
  headers?: Record<string, string>;
  contextWindow?: number;
  price?: { input: number; output: number; cachedInput?: number; cacheWrite?: number };
  /** Local servers (Ollama, LM Studio) need no key. */
  keyless?: boolean;
  /** Shown in the model picker. */
  label?: string;
  /** Per-model context window and price (presets); they override `contextWindow` / `price` for that model. */
  modelInfo?: Record<string, ModelInfo>;
  /** Whether the provider's models accept images; a model's own `modelInfo` wins. Default: Anthropic yes, others no. */
  images?: boolean;
  /** Extra fields merged into every request body (e.g. MiniMax `reasoning_split`). OpenAI kind only. */
  extraBody?: Record<string, unknown>;
  /**
   * How an OpenAI-compatible API wants earlier reasoning sent back in history: DeepSeek/Moonshot
   * reject tool-call turns without `reasoning_content`; MiniMax wants `reasoning_details`. Default none.
   */
  reasoningReplay?: 'reasoning_content' | 'reasoning_details' | 'none';
  /** OpenAI's reasoning models refuse `max_tokens`; default `max_tokens`. OpenAI kind only. */
  maxTokensParam?: 'max_tokens' | 'max_completion_tokens';
  /** Client-side rate limit: model requests to this provider start at most this often (guarded-provider.ts). */
  rateLimit?: { requestsPerMinute: number };
  /**
   * Whether the model picker offers the reasoning option for this provider's models. Default: Anthropic
   * yes (extended thinking); OpenAI-compatible only where the preset knows `reasoning_effort` is taken.
   */
  reasoning?: boolean;
}

export interface ModelInfo {
  contextWindow?: number;
  /** Whether the model accepts images (screenshots read by read_file). */
  images?: boolean;
  price?: { input: number; output: number; cachedInput?: number; cacheWrite?: number };
}
