// Cost of a usage report from a provider's price table (USD per million tokens).
import type { Usage } from '../../protocol';
import type { ProviderConfig } from '../providers/types';

export function costOf(usage: Usage, price: ProviderConfig['price'] | undefined): number | undefined {
  if (!price) return undefined;
  const cached = Math.min(usage.cachedTokens, usage.inputTokens);
  const uncached = usage.inputTokens - cached;
  const cachedPrice = price.cachedInput ?? price.input;
  return (uncached * price.input + cached * cachedPrice + usage.outputTokens * price.output) / 1_000_000;
}
