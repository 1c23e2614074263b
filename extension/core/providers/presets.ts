// Built-in provider instances. Users override any field by adding an entry with the same `name`
// to `sextant.providers`, or add their own. Prices are USD per million tokens as
// published by each vendor (checked November 2026); they only drive the cost estimate shown in the
// chat, so a stale price never breaks anything. Aggregators (OpenRouter) price per routed model and
// have no table here.
import type { ModelInfo, ProviderConfig } from './types';

function info(
  contextWindow: number,
  input?: number,
  output?: number,
  cachedInput?: number,
  cacheWrite?: number,
): ModelInfo {
  return {
    contextWindow,
    ...(input !== undefined && output !== undefined
      ? {
          price: {
            input,
            output,
            ...(cachedInput !== undefined ? { cachedInput } : {}),
            ...(cacheWrite !== undefined ? { cacheWrite } : {}),
          },
        }
      : {}),
  };
}

export const PRESETS: readonly ProviderConfig[] = [
  {
    name: 'minimax',
    label: 'MiniMax',
    kind: 'openai',
    baseUrl: 'https://api.minimax.io/v1',
    models: ['MiniMax-M2.1', 'MiniMax-M2.1-highspeed', 'MiniMax-M2'],
    default: 'MiniMax-M2.1',
    apiKeyEnv: 'MINIMAX_API_KEY',
    contextWindow: 204_800,
    price: { input: 0.3, output: 1.2, cachedInput: 0.03 },
    modelInfo: {
      'MiniMax-M2.1': info(204_800, 0.3, 1.2, 0.03),
      'MiniMax-M2.1-highspeed': info(204_800, 0.3, 2.4, 0.03),
      'MiniMax-M2': info(204_800, 0.3, 1.2, 0.03),
    },
    // Without reasoning_split MiniMax puts <think>…</think> inside the answer text; with it the
    // reasoning arrives as `reasoning_details`, which MiniMax wants back in later turns.
    extraBody: { reasoning_split: true },
    reasoningReplay: 'reasoning_details',
  },
  {
    name: 'openrouter',
    label: 'OpenRouter',
    kind: 'openai',
    baseUrl: 'https://openrouter.ai/api/v1',
    models: [
      'anthropic/claude-sonnet-4.5',
      'openai/gpt-5',
      'google/gemini-2.5-pro',
      'minimax/minimax-m2.1',
      'deepseek/deepseek-v4-flash',
    ],
    default: 'anthropic/claude-sonnet-4.5',
    apiKeyEnv: 'OPENROUTER_API_KEY',
    headers: { 'X-Title': 'Sextant' },
    // Images go only to the vision models of the list; other ids get none (see acceptsImages).
    modelInfo: {
      'anthropic/claude-sonnet-4.5': { images: true },
      'openai/gpt-5': { images: true },
      'google/gemini-2.5-pro': { images: true },
    },
  },
  {
    name: 'openai',
    label: 'OpenAI',
    kind: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    models: ['gpt-5', 'gpt-5-mini', 'gpt-4.1'],
    default: 'gpt-5',
    apiKeyEnv: 'OPENAI_API_KEY',
    contextWindow: 400_000,
    images: true,
    modelInfo: {
      'gpt-5': info(400_000, 1.25, 10, 0.125),
      'gpt-5-mini': info(400_000, 0.25, 2, 0.025),
      'gpt-4.1': info(1_047_576, 2, 8, 0.5),
    },
    // OpenAI's reasoning models refuse `max_tokens`.
    maxTokensParam: 'max_completion_tokens',
    reasoning: true,
  },
  {
    name: 'anthropic',
    label: 'Anthropic',
    kind: 'anthropic',
    baseUrl: 'https://api.anthropic.com',
    models: ['claude-sonnet-4-5', 'claude-opus-4-5', 'claude-haiku-4-5'],
    default: 'claude-sonnet-4-5',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    contextWindow: 200_000,
    modelInfo: {
      // Cache writes (5-minute cache) cost 1.25× input, reads 0.1×.
      'claude-sonnet-4-5': info(200_000, 3, 15, 0.3, 3.75),
      'claude-opus-4-5': info(200_000, 5, 25, 0.5, 6.25),
      'claude-haiku-4-5': info(200_000, 1, 5, 0.1, 1.25),
    },
  },
  {
    name: 'gemini',
    label: 'Google Gemini',
    kind: 'openai',
    // Gemini's OpenAI-compatible endpoint.
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai/',
    models: ['gemini-2.5-pro', 'gemini-2.5-flash'],
    default: 'gemini-2.5-pro',
    apiKeyEnv: 'GEMINI_API_KEY',
    contextWindow: 1_048_576,
    images: true,
    // Gemini's OpenAI-compatible endpoint maps reasoning_effort onto its thinking budget.
    reasoning: true,
    modelInfo: {
      'gemini-2.5-pro': info(1_048_576, 1.25, 10, 0.31),
      'gemini-2.5-flash': info(1_048_576, 0.3, 2.5, 0.075),
    },
  },
  {
    name: 'moonshot',
    label: 'Moonshot (Kimi)',
    kind: 'openai',
    baseUrl: 'https://api.moonshot.ai/v1',
    models: ['kimi-k2-0905-preview', 'kimi-k2-thinking', 'kimi-k2-turbo-preview'],
    default: 'kimi-k2-0905-preview',
    apiKeyEnv: 'MOONSHOT_API_KEY',
    contextWindow: 262_144,
    modelInfo: {
      'kimi-k2-0905-preview': info(262_144, 0.6, 2.5, 0.15),
      'kimi-k2-thinking': info(262_144, 0.6, 2.5, 0.15),
      'kimi-k2-turbo-preview': info(262_144, 1.15, 8, 0.15),
    },
    // Kimi's thinking models, like DeepSeek's, want earlier reasoning back on tool-call turns.
    reasoningReplay: 'reasoning_content',
  },
  {
    name: 'deepseek',
    label: 'DeepSeek',
    kind: 'openai',
    baseUrl: 'https://api.deepseek.com',
    models: ['deepseek-v4-flash', 'deepseek-v4-pro'],
    default: 'deepseek-v4-flash',
    apiKeyEnv: 'DEEPSEEK_API_KEY',
    contextWindow: 1_000_000,
    modelInfo: {
      'deepseek-v4-flash': info(1_000_000, 0.14, 0.28, 0.0028),
      'deepseek-v4-pro': info(1_000_000, 0.435, 0.87, 0.003625),
    },
    // In thinking mode DeepSeek answers 400 when a tool-call turn comes back without its reasoning_content.
    reasoningReplay: 'reasoning_content',
  },
  {
    name: 'ollama',
    label: 'Ollama (local)',
    kind: 'openai',
    baseUrl: 'http://localhost:11434/v1',
    models: ['llama3.2', 'qwen3', 'gpt-oss:20b'],
    default: 'llama3.2',
    keyless: true,
    price: { input: 0, output: 0 },
  },
  {
    name: 'lmstudio',
    label: 'LM Studio (local)',
    kind: 'openai',
    baseUrl: 'http://localhost:1234/v1',
    // LM Studio answers with whichever model is loaded; the id only has to be accepted.
    models: ['local-model'],
    default: 'local-model',
    keyless: true,
    price: { input: 0, output: 0 },
  },
  {
    // VS Code's Language Model API: the models come from the editor (GitHub Copilot Chat or another
    // extension), listed when VS Code has some; a reference is `vscode-lm/<model id>`. No key, no price.
    name: 'vscode-lm',
    label: 'VS Code',
    kind: 'vscode-lm',
    keyless: true,
  },
];

/** Fresh copies, so callers may mutate what they get. */
export function presetConfigs(): ProviderConfig[] {
  return PRESETS.map((p) => structuredClone(p));
}
