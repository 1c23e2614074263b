// Where a streaming Markdown text can be cut: blocks before the cut are rendered once and only the
// tail is re-rendered each frame. Appending can still change an earlier block in two rare cases (a
// list that turns loose, a reference-style link defined later); the view renders the whole text
// once more when the answer ends, so the final result is always exact.

/** Length of the prefix of `text` that later appends cannot change: up to the last blank line outside a fence. */
export function stablePrefixLength(text: string): number {
  let inFence = false;
  let fenceMarker = '';
  let stable = 0;
  let lineStart = 0;
  let previousBlank = false;
  while (lineStart < text.length) {
    const nl = text.indexOf('\n', lineStart);
    if (nl < 0) break; // the last line is still being written
    const line = text.slice(lineStart, nl);
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (!inFence) {
        inFence = true;
        fenceMarker = fence[1];
      } else if (fence[1][0] === fenceMarker[0] && fence[1].length >= fenceMarker.length && line.trim() === fence[1]) {
        inFence = false;
      }
    }
    const blank = line.trim() === '';
    // A blank line ends a block. (A loose list split here renders as two lists until the answer
    // completes; the final render is always of the whole text.)
    if (!inFence && blank && !previousBlank) stable = nl + 1;
    previousBlank = blank;
    lineStart = nl + 1;
  }
  return stable;
}
