// The search client's own cost per web search, against the fake provider APIs on 127.0.0.1 (so the
// figure is Sextant's overhead plus a loopback HTTP round trip, not a provider's latency): a direct
// answer, a failover after the first provider's three 500s, and a search while that provider's circuit
// breaker is open. Rate limits and backoff are set to zero so only work is timed. Prints, asserts nothing.
import { SearchClient } from '../../extension/core/web/search/client';
import { startFakeExa } from '../../test/fixtures/research/fake-exa';
import { startFakeTavily } from '../../test/fixtures/research/fake-tavily';

const N = Number(process.env.SEARCH_ITERATIONS ?? 300);
const EXA = 'exa-bench-key-0123456789';
const TAVILY = 'tvly-bench-key-0123456789';

function stats(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(2);
  return `median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${s[s.length - 1].toFixed(2)} ms (${s.length} searches)`;
}

async function main(): Promise<void> {
  const [exa, tavily] = await Promise.all([startFakeExa({ key: EXA }), startFakeTavily({ key: TAVILY })]);
  const client = (breaker: number) =>
    new SearchClient({
      settings: () => ({ providers: ['exa', 'tavily'], endpoints: { exa: exa.baseUrl, tavily: tavily.baseUrl } }),
      secrets: { get: async () => undefined, set: async () => undefined, delete: async () => undefined },
      env: { EXA_API_KEY: EXA, TAVILY_API_KEY: TAVILY },
      confirmKeyDestination: async () => 'once',
      minIntervalMs: { exa: 0, tavily: 0 },
      retry: { baseDelayMs: 0, maxDelayMs: 0 },
      breaker: { failureThreshold: breaker },
    });
  const signal = new AbortController().signal;
  const time = async (c: SearchClient, before?: () => void) => {
    const ms: number[] = [];
    for (let i = 0; i < N; i++) {
      before?.();
      const t = performance.now();
      await c.search({ query: 'javascript flatten array', allowedDomains: ['developer.mozilla.org'] }, signal);
      ms.push(performance.now() - t);
    }
    return ms;
  };
  const direct = client(1_000);
  await time(direct); // warm-up
  console.log(`direct answer (Exa):           ${stats(await time(direct))}`);
  const failing = client(1_000_000);
  const exaDown = () => exa.script({ error: 'server' }, { error: 'server' }, { error: 'server' });
  console.log(`failover (Exa 3× 500 → Tavily): ${stats(await time(failing, exaDown))}`);
  const open = client(1);
  exa.script({ error: 'server' }, { error: 'server' }, { error: 'server' });
  await open.search({ query: 'javascript' }, signal);
  console.log(`Exa's breaker open → Tavily:    ${stats(await time(open))}`);
  await Promise.all([exa.close(), tavily.close()]);
}

void main();
