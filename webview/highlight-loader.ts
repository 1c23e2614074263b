// Finds code blocks that name a language and highlights them once the highlighter chunk has loaded
// (webview/highlight.ts, imported on first need). Until then, and if it fails to load, the code stays
// plain monospace: highlighting never holds up or breaks the answer.
type Highlighter = typeof import('./highlight');

let loading: Promise<Highlighter | undefined> | undefined;

function highlighter(): Promise<Highlighter | undefined> {
  loading ??= import('./highlight').catch((err: unknown) => {
    console.warn(`syntax highlighting is unavailable: ${String(err)}`);
    return undefined;
  });
  return loading;
}

const DONE = 'highlighted';

/** Highlights the not yet highlighted `<pre><code class="language-…">` blocks inside `roots`. */
export function highlightCodeIn(roots: readonly Element[]): void {
  const pending: Array<{ code: HTMLElement; language: string }> = [];
  for (const root of roots)
    for (const code of root.querySelectorAll<HTMLElement>('pre > code[class*="language-"]')) {
      if (code.dataset[DONE]) continue;
      const language = /(?:^|\s)language-([\w+#.-]+)/.exec(code.className)?.[1]?.toLowerCase();
      if (language) pending.push({ code, language });
    }
  if (!pending.length) return;
  void highlighter().then((h) => {
    if (!h) return;
    for (const { code, language } of pending) {
      // Re-rendered or removed meanwhile: the new element gets its own turn.
      if (!code.isConnected || code.dataset[DONE]) continue;
      code.dataset[DONE] = h.highlightElement(code, language) ? 'yes' : 'plain';
    }
    window.dispatchEvent(new CustomEvent('sextant-highlighted', { detail: pending.length }));
  });
}
