// An ACP prompt (content blocks) as the one text the engine takes: text as written, embedded context
// (a file the editor attached) below it in a <context> block named by its URI, a resource link as its
// URI. Images and audio are not offered in the capabilities, so a client does not send them.
import type * as acp from '@agentclientprotocol/sdk';

export function promptText(blocks: acp.ContentBlock[]): string {
  const parts: string[] = [];
  for (const b of blocks) {
    if (b.type === 'text') parts.push(b.text);
    else if (b.type === 'resource_link') parts.push(`@${b.uri}`);
    else if (b.type === 'resource' && 'text' in b.resource)
      parts.push(`<context uri="${b.resource.uri}">\n${b.resource.text}\n</context>`);
  }
  return parts.join('\n\n');
}
