// One model call without tools, its text collected (and optionally streamed out as it comes), with
// the usage it reported: what the research planner, the gap check and the report writer each make.
import type { Usage } from '../../../protocol';
import type { Provider, ReasoningEffort } from '../../providers/types';

export interface LlmTarget {
  provider: Provider;
  model: string;
  /** The model picker's reasoning level for this model. */
  reasoning?: ReasoningEffort;
}

export async function collectText(
  llm: LlmTarget,
  req: { system: string; user: string; maxTokens?: number },
  signal: AbortSignal,
  onDelta?: (text: string) => void,
): Promise<{ text: string; usage: Usage }> {
  let text = '';
  const usage: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
  const stream = llm.provider.stream(
    {
      model: llm.model,
      system: req.system,
      messages: [{ role: 'user', content: req.user }],
      ...(req.maxTokens ? { maxTokens: req.maxTokens } : {}),
      ...(llm.reasoning ? { reasoning: llm.reasoning } : {}),
    },
    signal,
  );
  for await (const ev of stream) {
    if (ev.type === 'text') {
      text += ev.text;
      onDelta?.(ev.text);
    } else if (ev.type === 'usage') {
      usage.inputTokens += ev.usage.inputTokens;
      usage.outputTokens += ev.usage.outputTokens;
      usage.cachedTokens += ev.usage.cachedTokens;
      if (ev.usage.cacheWriteTokens) usage.cacheWriteTokens = (usage.cacheWriteTokens ?? 0) + ev.usage.cacheWriteTokens;
    }
  }
  return { text, usage };
}

/** The first JSON object in a reply (models wrap it in prose or fences), or undefined. */
export function jsonObjectIn(reply: string): unknown {
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  try {
    return JSON.parse(reply.slice(start, end + 1));
  } catch {
    return undefined;
  }
}
