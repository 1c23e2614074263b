// Cost of a usage report from a provider's price table (USD per million tokens).
import type { Usage } from '../../protocol';
import type { ProviderConfig } from '../providers/types';

export function costOf(usage: Usage, price: ProviderConfig['price'] | undefined): number | undefined {
  if (!price) return undefined;
  const cached = Math.min(usage.cachedTokens, usage.inputTokens);
  const written = Math.min(usage.cacheWriteTokens ?? 0, usage.inputTokens - cached);
  const plain = usage.inputTokens - cached - written;
  const cachedPrice = price.cachedInput ?? price.input;
  const writePrice = price.cacheWrite ?? price.input;
  return (
    (plain * price.input + cached * cachedPrice + written * writePrice + usage.outputTokens * price.output) / 1_000_000
  );
}
