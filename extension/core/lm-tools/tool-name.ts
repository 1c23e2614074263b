// `lm__<tool>`: the name a language-model tool of another extension has in Sextant — in the model's tool
// list, on the approval card and in rules (`lm__<tool>`, `lm__*` for all of them), mirroring MCP's
// `mcp__<server>__<tool>` (core/mcp/tool-name.ts). Providers accept [A-Za-z0-9_-] up to 64 characters: a
// name that needed changing (other characters, too long) keeps a readable part and gains a hash of the
// name as written, so two tools never share a Sextant name.
import { sha256 } from '../mcp/server-spec';

export const LM_PREFIX = 'lm__';
const SAFE = /^[A-Za-z0-9_-]+$/;
const MAX = 64;

export function lmToolName(tool: string): string {
  if (SAFE.test(tool) && LM_PREFIX.length + tool.length <= MAX) return LM_PREFIX + tool;
  const readable = tool.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX - LM_PREFIX.length - 9);
  return `${LM_PREFIX}${readable}_${sha256(tool).slice(0, 8)}`;
}
