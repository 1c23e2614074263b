// Shared by the search tests: an in-memory SecretStorage, a virtual clock (waits are recorded and take
// no real time), and a SearchClient wired to fake servers with a log that tests can inspect.
import type { Logger, SecretsPort } from '../../../extension/core/ports';
import type { KeyDestinationAnswer, KeyDestinationQuestion } from '../../../extension/core/providers/key-binding';
import { VirtualClock } from '../../fixtures/virtual-clock';
import { SearchClient, type SearchClientOptions } from '../../../extension/core/web/search/client';
import type { SearchProviderId } from '../../../extension/core/web/types';

export { VirtualClock };

export function memorySecrets(initial: Record<string, string> = {}): SecretsPort & { map: Map<string, string> } {
  const map = new Map(Object.entries(initial));
  return {
    map,
    get: async (k) => map.get(k),
    set: async (k, v) => void map.set(k, v),
    delete: async (k) => void map.delete(k),
  };
}

export interface TestClient {
  client: SearchClient;
  clock: VirtualClock;
  logs: string[];
  asked: KeyDestinationQuestion[];
}

export function testClient(o: {
  providers: SearchProviderId[];
  endpoints: Partial<Record<SearchProviderId, string>>;
  secrets?: SecretsPort;
  env?: Record<string, string>;
  answer?: KeyDestinationAnswer;
  extra?: Partial<SearchClientOptions>;
}): TestClient {
  const clock = new VirtualClock();
  const logs: string[] = [];
  const asked: KeyDestinationQuestion[] = [];
  const log: Logger = {
    info: (m) => logs.push(`info ${m}`),
    warn: (m) => logs.push(`warn ${m}`),
    error: (m) => logs.push(`error ${m}`),
  };
  const client = new SearchClient({
    settings: () => ({ providers: o.providers, endpoints: o.endpoints }),
    secrets: o.secrets ?? memorySecrets(),
    env: o.env ?? {},
    confirmKeyDestination: async (q) => {
      asked.push(q);
      return o.answer ?? 'once';
    },
    clock,
    random: () => 0.5,
    log,
    timeoutMs: 5_000,
    ...o.extra,
  });
  return { client, clock, logs, asked };
}

export const signal = () => new AbortController().signal;
