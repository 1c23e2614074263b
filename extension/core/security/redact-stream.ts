// Redaction of streamed text (a command's live output): chunks arrive cut anywhere, so a key may be
// split between two of them, where neither half matches. Complete lines are redacted and passed on
// at once; the unfinished last line waits for its end (or `holdMs`, or `maxHold` characters), and a
// private key block that spans chunks is dropped until its END line.
import type { Redactor } from './redact';

const PEM_BEGIN = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g;

export interface StreamRedactor {
  /** Takes a chunk; passes on what can be judged now. */
  write(chunk: string): void;
  /** Passes on everything held back (end of the stream, or before a result is shown). */
  flush(): void;
}

export interface StreamRedactorOptions {
  /** How long an unfinished line waits for more (default 250 ms). */
  holdMs?: number;
  /** An unfinished line longer than this is passed on without waiting (default 16 K characters). */
  maxHold?: number;
}

function lastIndex(re: RegExp, text: string): number {
  let last = -1;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) last = m.index;
  return last;
}

export function createStreamRedactor(
  redact: Redactor,
  emit: (text: string) => void,
  opts: StreamRedactorOptions = {},
): StreamRedactor {
  const holdMs = opts.holdMs ?? 250;
  const maxHold = opts.maxHold ?? 16 * 1024;
  let held = '';
  let inKeyBlock = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  /** Redacts a run of text that ends where a chunk may be cut (a line end, or the stream's end). */
  const pass = (raw: string) => {
    let text = raw;
    if (inKeyBlock) {
      PEM_END.lastIndex = 0;
      const end = PEM_END.exec(text);
      if (!end) return; // still inside the key: nothing of it is shown
      text = text.slice(end.index + end[0].length);
      inKeyBlock = false;
    }
    // A BEGIN without its END in this run: the rest of the block comes in later runs.
    if (lastIndex(PEM_BEGIN, text) > lastIndex(PEM_END, text)) inKeyBlock = true;
    const out = redact(text);
    if (out) emit(out);
  };

  const release = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const text = held;
    held = '';
    if (text) pass(text);
  };

  return {
    write(chunk) {
      if (!chunk) return;
      held += chunk;
      const cut = Math.max(held.lastIndexOf('\n'), held.lastIndexOf('\r'));
      if (cut >= 0) {
        const ready = held.slice(0, cut + 1);
        held = held.slice(cut + 1);
        pass(ready);
      }
      if (held.length > maxHold) release();
      else if (held && !timer) {
        timer = setTimeout(release, holdMs);
        timer.unref?.();
      }
    },
    flush: release,
  };
}
