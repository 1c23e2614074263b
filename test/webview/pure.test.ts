// The view's pure helpers, in Node: the HTML shell and its CSP, mode cycling, Esc Esc, and where
// streaming Markdown may be cut.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { OutboundHandlers } from '../../extension/protocol';
import { buildWebviewHtml, contentSecurityPolicy } from '../../extension/vscode/webview-html';
import { DoublePress, nextEnabledMode } from '../../webview/keyboard';
import { stablePrefixLength } from '../../webview/markdown-chunks';

describe('webview HTML shell', () => {
  const nonce = 'abcdefghijklmnopqrstuvwx';
  const html = buildWebviewHtml({
    scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/x/dist/webview.js',
    styleUri: 'https://file+.vscode-resource.vscode-cdn.net/x/dist/webview.css',
    cspSource: 'https://*.vscode-cdn.net',
    nonce,
  });

  it('has a CSP that allows nothing but our nonce script, our styles, our images/data: and fonts', () => {
    const csp = contentSecurityPolicy('https://*.vscode-cdn.net', nonce);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-abcdefghijklmnopqrstuvwx'(;|$)/);
    assert.match(csp, /style-src https:\/\/\*\.vscode-cdn\.net(;|$)/);
    assert.match(csp, /img-src https:\/\/\*\.vscode-cdn\.net data:(;|$)/);
    assert.match(csp, /font-src https:\/\/\*\.vscode-cdn\.net(;|$)/);
    assert.doesNotMatch(csp, /unsafe-(inline|eval)/);
    assert.ok(html.includes(`content="${csp}"`));
  });

  it('loads the script with the nonce and the stylesheet', () => {
    const src = 'https://file+.vscode-resource.vscode-cdn.net/x/dist/webview.js';
    const script = `<script type="module" nonce="abcdefghijklmnopqrstuvwx" src="${src}"></script>`;
    assert.ok(html.includes(script), `expected ${script} in:\n${html}`);
    assert.match(html, /<link rel="stylesheet" href="[^"]+webview\.css">/);
    assert.match(html, /<sx-app><\/sx-app>/);
  });

  it('refuses a weak nonce and escapes URIs', () => {
    assert.throws(() => buildWebviewHtml({ scriptUri: 'a', styleUri: 'b', cspSource: 'c', nonce: 'short' }));
    const h = buildWebviewHtml({
      scriptUri: 'x"><script>',
      styleUri: 's',
      cspSource: 'c',
      nonce,
      extraStyleUris: ['e"f'],
    });
    assert.ok(!h.includes('x"><script>'));
    assert.ok(h.includes('href="e&quot;f"'));
  });
});

describe('mode cycling', () => {
  const modes = [
    { mode: 'chat' as const, enabled: true },
    { mode: 'plan' as const, enabled: false },
    { mode: 'research' as const, enabled: true },
    { mode: 'agent' as const, enabled: true },
  ];
  it('goes to the next enabled mode, skipping disabled ones, and wraps', () => {
    assert.equal(nextEnabledMode(modes, 'chat'), 'research');
    assert.equal(nextEnabledMode(modes, 'research'), 'agent');
    assert.equal(nextEnabledMode(modes, 'agent'), 'chat');
  });
  it('leaves a disabled current mode, and has nowhere to go when alone', () => {
    assert.equal(nextEnabledMode(modes, 'plan'), 'research');
    assert.equal(
      nextEnabledMode(
        [
          { mode: 'chat', enabled: true },
          { mode: 'agent', enabled: false },
        ],
        'chat',
      ),
      undefined,
    );
  });
});

describe('Esc Esc', () => {
  it('fires on the second press within the window, not on one press or a slow second', () => {
    let now = 0;
    const esc = new DoublePress(1000, () => now);
    assert.equal(esc.press(), false);
    now = 900;
    assert.equal(esc.press(), true);
    now = 1000;
    assert.equal(esc.press(), false, 'a double press starts over');
    now = 2500;
    assert.equal(esc.press(), false, 'too slow');
    now = 2600;
    assert.equal(esc.press(), true);
  });
});

describe('streaming Markdown cut points', () => {
  it('cuts after the last blank line, never inside a code fence, never in the line being written', () => {
    assert.equal(stablePrefixLength('hello'), 0);
    assert.equal(stablePrefixLength('para one\n\npara two'), 'para one\n\n'.length);
    const fenced = 'intro\n\n```js\nconst a = 1;\n\nconst b = 2;\n';
    assert.equal(stablePrefixLength(fenced), 'intro\n\n'.length);
    const closed = `${fenced}\`\`\`\n\nafter`;
    assert.equal(stablePrefixLength(closed), closed.length - 'after'.length);
    assert.equal(stablePrefixLength('~~~\n```\n\nstill code\n'), 0, 'a fence closes only with its own marker');
  });
});

// Compile-time check (npm run typecheck): the view's table (ChatStore) must handle every outbound
// message type; one without 'protocolError' (and the others) does not compile.
// @ts-expect-error — 'protocolError' and others are missing.
export const incompleteViewHandlers: OutboundHandlers = { snapshot: () => {} };
