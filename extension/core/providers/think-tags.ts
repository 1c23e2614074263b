// Some OpenAI-compatible servers put reasoning inside the answer as `<think>…</think>` (MiniMax
// without reasoning_split, several models behind Ollama / LM Studio / vLLM). This splits such a
// stream into thinking and text, even when a tag is cut across chunks. Only a reply that *starts*
// with `<think>` (after whitespace) is split, so an answer that merely mentions the tag is untouched.

export type ThinkPiece = { type: 'text' | 'thinking'; text: string };

const OPEN = '<think>';
const CLOSE = '</think>';

export class ThinkTagSplitter {
  private state: 'start' | 'thinking' | 'gap' | 'text' = 'start';
  private buffer = '';

  push(chunk: string): ThinkPiece[] {
    this.buffer += chunk;
    const out: ThinkPiece[] = [];
    for (;;) {
      if (this.state === 'start') {
        const lead = this.buffer.trimStart();
        if (lead.startsWith(OPEN)) {
          this.buffer = lead.slice(OPEN.length);
          this.state = 'thinking';
          continue;
        }
        if (lead.length === 0 || OPEN.startsWith(lead)) return out; // could still become <think>
        this.state = 'text';
        continue;
      }
      if (this.state === 'thinking') {
        const end = this.buffer.indexOf(CLOSE);
        if (end >= 0) {
          if (end > 0) out.push({ type: 'thinking', text: this.buffer.slice(0, end) });
          this.buffer = this.buffer.slice(end + CLOSE.length);
          this.state = 'gap';
          continue;
        }
        // Hold back a tail that might be the start of "</think>".
        const keep = partialSuffix(this.buffer, CLOSE);
        const emit = this.buffer.slice(0, this.buffer.length - keep);
        if (emit) out.push({ type: 'thinking', text: emit });
        this.buffer = this.buffer.slice(this.buffer.length - keep);
        return out;
      }
      if (this.state === 'gap') {
        // The blank line models put after the closing tag is not part of the answer.
        this.buffer = this.buffer.replace(/^\s+/, '');
        if (!this.buffer) return out;
        this.state = 'text';
      }
      if (this.buffer) out.push({ type: 'text', text: this.buffer });
      this.buffer = '';
      return out;
    }
  }

  /** Whatever is still held back when the stream ends. */
  flush(): ThinkPiece[] {
    const rest = this.buffer;
    this.buffer = '';
    if (!rest || this.state === 'gap') return [];
    return [{ type: this.state === 'thinking' ? 'thinking' : 'text', text: rest }];
  }
}

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}
