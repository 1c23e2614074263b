// An MCP tool result as the model and the card get it: text as text, images as images for models that
// see them (else named), resource links and embedded resources named with their URI, structured
// content as JSON when the server sent no text, the whole capped with a note. Redaction is the tool
// registry's, as for every tool.
import type { ContentBlock } from '../providers/types';
import type { ToolResult } from '../tools/types';
import type { McpCallResult, McpContent } from './session-port';

export const MAX_RESULT_CHARS = 40_000;

function describe(part: McpContent, supportsImages: boolean): ContentBlock {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: String((part as { text: unknown }).text ?? '') };
    case 'image': {
      const { data, mimeType } = part as { data: string; mimeType: string };
      if (supportsImages && /^image\/(png|jpeg|gif|webp)$/.test(mimeType))
        return { type: 'image', mediaType: mimeType, dataBase64: data };
      return { type: 'text', text: `[image ${mimeType}, ${Math.round((data.length * 3) / 4)} bytes: not shown]` };
    }
    case 'audio': {
      const { mimeType } = part as { mimeType: string };
      return { type: 'text', text: `[audio ${mimeType}: not shown]` };
    }
    case 'resource_link': {
      const l = part as { uri: string; name?: string; description?: string };
      return {
        type: 'text',
        text: `Resource link: ${l.name ?? l.uri} <${l.uri}>${l.description ? ` — ${l.description}` : ''}`,
      };
    }
    case 'resource': {
      const r = (part as { resource: { uri: string; mimeType?: string; text?: string; blob?: string } }).resource;
      if (typeof r.text === 'string') return { type: 'text', text: `Resource ${r.uri}:\n${r.text}` };
      return { type: 'text', text: `[resource ${r.uri} (${r.mimeType ?? 'binary'}): not shown]` };
    }
    default:
      return { type: 'text', text: `[${part.type} content: not shown]` };
  }
}

/** Caps the text parts at `max` characters in all, with a note saying how much was left out. */
function capText(blocks: ContentBlock[], max: number): ContentBlock[] {
  let left = max;
  let cut = 0;
  const out: ContentBlock[] = [];
  for (const b of blocks) {
    if (b.type !== 'text') {
      out.push(b);
      continue;
    }
    if (left <= 0) {
      cut += b.text.length;
      continue;
    }
    if (b.text.length > left) {
      out.push({ type: 'text', text: b.text.slice(0, left) });
      cut += b.text.length - left;
      left = 0;
    } else {
      out.push(b);
      left -= b.text.length;
    }
  }
  if (cut > 0)
    out.push({
      type: 'text',
      text: `[truncated: ${cut} more characters left out; ask the tool for less (a filter, a page)]`,
    });
  return out;
}

export function toToolResult(result: McpCallResult, supportsImages: boolean, max = MAX_RESULT_CHARS): ToolResult {
  const blocks = result.content.map((p) => describe(p, supportsImages));
  if (result.structuredContent && !result.content.some((p) => p.type === 'text'))
    blocks.push({ type: 'text', text: JSON.stringify(result.structuredContent, null, 2) });
  if (blocks.length === 0) blocks.push({ type: 'text', text: '(the tool returned no content)' });
  const capped = capText(blocks, max);
  const forUi = capped
    .map((b) => (b.type === 'text' ? b.text : `[image ${b.mediaType}]`))
    .join('\n')
    .trim();
  const isError = result.isError === true;
  const onlyText = capped.every((b) => b.type === 'text');
  return {
    forModel: onlyText ? capped.map((b) => (b as { text: string }).text).join('\n') : capped,
    forUi,
    isError,
    ...(isError ? { summary: forUi.split('\n')[0].slice(0, 200) } : {}),
  };
}
