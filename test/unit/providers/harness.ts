// Shared by the provider tests: both provider kinds pointed at one fake LLM server, and a collector
// that drains a stream into its events and the error it ended with.
import { createProvider as createAnthropic } from '../../../extension/core/providers/anthropic';
import { createProvider as createOpenAi } from '../../../extension/core/providers/openai';
import {
  ProviderError,
  type Provider,
  type ProviderEvent,
  type ProviderRequest,
} from '../../../extension/core/providers/types';
import type { FakeLlm } from '../../fixtures/fake-llm';

export interface KindCase {
  kind: 'openai' | 'anthropic';
  make(fake: FakeLlm | { baseUrl: string }, apiKey?: string): Provider;
  /** The base URL the provider was configured with (what error messages must name). */
  baseUrlOf(fake: { baseUrl: string }): string;
}

export const KINDS: KindCase[] = [
  {
    kind: 'openai',
    baseUrlOf: (fake) => `${fake.baseUrl}/v1`,
    make: (fake, apiKey = 'sk-test-openai') =>
      createOpenAi({ name: 'fakeai', kind: 'openai', baseUrl: `${fake.baseUrl}/v1`, apiKeyEnv: 'FAKE_KEY' }, apiKey),
  },
  {
    kind: 'anthropic',
    baseUrlOf: (fake) => fake.baseUrl,
    make: (fake, apiKey = 'sk-test-anthropic') =>
      createAnthropic({ name: 'fakeai', kind: 'anthropic', baseUrl: fake.baseUrl, apiKeyEnv: 'FAKE_KEY' }, apiKey),
  },
];

export function request(text = 'Hello', extra: Partial<ProviderRequest> = {}): ProviderRequest {
  return { model: 'fake-model', system: 'You are terse.', messages: [{ role: 'user', content: text }], ...extra };
}

export interface Collected {
  events: ProviderEvent[];
  error?: ProviderError;
  text: string;
  thinking: string;
}

export async function collect(
  stream: AsyncIterable<ProviderEvent>,
  onEvent?: (e: ProviderEvent, events: ProviderEvent[]) => void,
): Promise<Collected> {
  const events: ProviderEvent[] = [];
  let error: ProviderError | undefined;
  try {
    for await (const e of stream) {
      events.push(e);
      onEvent?.(e, events);
    }
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    error = err;
  }
  return {
    events,
    error,
    text: events.map((e) => (e.type === 'text' ? e.text : '')).join(''),
    thinking: events.map((e) => (e.type === 'thinking' ? e.text : '')).join(''),
  };
}
