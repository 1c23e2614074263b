// The token estimate every part uses (compaction, the context meter, rules and skills): no tokenizer
// dependency, and a little on the safe side.
export const CHARS_PER_TOKEN = 3.5;

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
