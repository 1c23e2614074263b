// The chat view's HTML shell. Pure (no 'vscode' import) so the view provider and the Chromium
// tests build the very same document, and the tests exercise the real Content-Security-Policy.

export interface WebviewHtmlOptions {
  /** URI of dist/webview.js as the webview may load it (asWebviewUri). */
  scriptUri: string;
  /** URI of dist/webview.css. */
  styleUri: string;
  /** webview.cspSource: the origin local resources are served from. */
  cspSource: string;
  /** A fresh random nonce per render: the only way a script may run. */
  nonce: string;
  /** More stylesheets from cspSource (e.g. an icon font's CSS). */
  extraStyleUris?: readonly string[];
  /** Which view the bundle starts: the chat (default) or the Usage panel (it loads its own chunk). */
  view?: 'chat' | 'usage';
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The policy, directive by directive:
 * - default-src 'none': nothing loads unless a directive below allows it (no fetch/XHR, no frames,
 *   no media, no remote anything).
 * - script-src 'nonce-…': only our bundle runs; no inline handlers, no eval, no javascript: URLs.
 * - style-src cspSource: our stylesheet only. No 'unsafe-inline': Lit and vscode-elements style
 *   their shadow roots through constructable stylesheets (adoptedStyleSheets), which CSP does not
 *   gate, and style properties set from script (CSSOM) are allowed; so model output can carry no
 *   style attribute or <style> that would apply.
 * - img-src cspSource data:: our own assets and data: images only. Remote images are an
 *   exfiltration channel (a URL can carry chat content to a third party), so they never load.
 * - font-src cspSource: icon fonts shipped in dist/.
 */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function buildWebviewHtml(options: WebviewHtmlOptions): string {
  const { scriptUri, styleUri, cspSource, nonce } = options;
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(nonce)) throw new Error('webview nonce must be at least 16 base64 characters');
  const styles = [styleUri, ...(options.extraStyleUris ?? [])]
    .map((href) => `<link rel="stylesheet" href="${escapeAttr(href)}">`)
    .join('\n    ');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeAttr(contentSecurityPolicy(cspSource, nonce))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>${options.view === 'usage' ? 'Sextant Usage' : 'Sextant'}</title>
  </head>
  <body>
    ${options.view === 'usage' ? '<sx-usage-view></sx-usage-view>' : '<sx-app></sx-app>'}
    <script type="module" nonce="${escapeAttr(nonce)}" src="${escapeAttr(scriptUri)}"></script>
  </body>
</html>
`;
}
