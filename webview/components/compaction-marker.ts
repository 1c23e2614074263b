// The compaction marker: a closed disclosure in the chat saying older turns were compacted, which
// opens to the brief exactly as the model now receives it. The original messages stay in the chat
// above it (and in the store, where memory_search finds them); only the model's view is shortened.
import { html, type TemplateResult } from 'lit';
import { usageLine, type Compaction } from '../../extension/protocol';
import type { ViewContext } from './base';
import './markdown-view';

const thousands = (n: number) => `${n >= 10_000 ? `${Math.round(n / 1000)}k` : n.toLocaleString('en-US')}`;

export function compactionSummary(c: Compaction): string {
  const how = c.trigger === 'manual' ? 'Compacted on request' : 'Compacted near the context window';
  const tokens = `~${thousands(c.tokensBefore)} → ~${thousands(c.tokensAfter)} tokens`;
  const cost = c.usage ? ` · summary: ${usageLine(c.usage)}` : '';
  return `${how}: ${c.replaces} earlier messages → a brief (${tokens})${cost}`;
}

export function renderCompactionMarker(c: Compaction, ctx: ViewContext | undefined): TemplateResult {
  return html`<details class="compaction-marker" data-compaction=${c.id}>
    <summary>${compactionSummary(c)}</summary>
    <p class="compaction-note">
      The model now gets this brief instead of the earlier messages. They are still here above and in
      History, and memory_search finds them.
    </p>
    <sx-markdown .ctx=${ctx} .text=${c.brief} .streaming=${false}></sx-markdown>
  </details>`;
}
