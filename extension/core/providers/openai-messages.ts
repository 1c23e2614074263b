// Maps Sextant's neutral ModelMessages onto the OpenAI chat-completions wire format.
// Only types come from the SDK here, so this mapping is testable without a server.
import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ContentBlock, ModelMessage, ProviderConfig, ToolSpec } from './types';

function dataUrl(block: Extract<ContentBlock, { type: 'image' }>): string {
  return `data:${block.mediaType};base64,${block.dataBase64}`;
}

function userParts(content: string | ContentBlock[]): string | ChatCompletionContentPart[] {
  if (typeof content === 'string') return content;
  return content.map(
    (b): ChatCompletionContentPart =>
      b.type === 'text' ? { type: 'text', text: b.text } : { type: 'image_url', image_url: { url: dataUrl(b) } },
  );
}

function toolText(msg: Extract<ModelMessage, { role: 'tool' }>): string {
  const text = msg.content
    .map((b) => (b.type === 'text' ? b.text : `[image: ${b.mediaType}, attached in the next message]`))
    .join('\n');
  // The chat-completions format has no error flag on tool results; say it in words.
  return msg.isError ? `Error: ${text}` : text;
}

export function toOpenAiMessages(
  system: string,
  messages: ModelMessage[],
  replay: ProviderConfig['reasoningReplay'] = 'none',
): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (system) out.push({ role: 'system', content: system });
  // Tool messages cannot carry images, and nothing may sit between an assistant's tool calls and
  // their results, so images from a run of tool results follow as one user message after the run.
  let pendingImages: ChatCompletionContentPart[] = [];
  const flushImages = (): void => {
    if (pendingImages.length === 0) return;
    out.push({
      role: 'user',
      content: [{ type: 'text', text: 'Images returned by the tool calls above:' }, ...pendingImages],
    });
    pendingImages = [];
  };
  for (const msg of messages) {
    if (msg.role !== 'tool') flushImages();
    if (msg.role === 'user') {
      out.push({ role: 'user', content: userParts(msg.content) });
    } else if (msg.role === 'assistant') {
      const calls = msg.toolCalls ?? [];
      const param: ChatCompletionMessageParam & Record<string, unknown> = {
        role: 'assistant',
        content: msg.text || (calls.length > 0 ? null : ''),
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: c.argumentsJson || '{}' },
              })),
            }
          : {}),
      };
      if (replay === 'reasoning_content' && (msg.thinking !== undefined || calls.length > 0))
        param.reasoning_content = msg.thinking ?? '';
      if (replay === 'reasoning_details' && msg.thinking)
        param.reasoning_details = [{ type: 'reasoning.text', text: msg.thinking }];
      out.push(param);
    } else {
      out.push({ role: 'tool', tool_call_id: msg.toolCallId, content: toolText(msg) });
      for (const b of msg.content)
        if (b.type === 'image') pendingImages.push({ type: 'image_url', image_url: { url: dataUrl(b) } });
    }
  }
  flushImages();
  return out;
}

export function toOpenAiTools(tools: ToolSpec[] | undefined): ChatCompletionTool[] | undefined {
  if (!tools || tools.length === 0) return undefined;
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }));
}
