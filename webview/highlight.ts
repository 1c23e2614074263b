// Syntax highlighting for code blocks, in its own chunk: the chat's first paint never waits for it,
// and it loads the first time an answer holds a fenced block with a language. highlight.js (core and
// the languages below) rather than shiki: shiki needs its grammars and an Oniguruma wasm or regex engine
// at several hundred KB more (see webview/README.md), and its themes are fixed palettes,
// while highlight.js emits plain class names that styles.css maps to the colours of whatever theme
// VS Code has (--vscode-* variables), light, dark or high contrast.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGUAGES = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  dockerfile,
  go,
  ini,
  java,
  javascript,
  json,
  kotlin,
  makefile,
  markdown,
  php,
  plaintext,
  python,
  ruby,
  rust,
  shell,
  sql,
  swift,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
// Names models write after ``` that highlight.js does not alias itself.
hljs.registerAliases(['sh', 'zsh', 'console'], { languageName: 'bash' });
hljs.registerAliases(['toml'], { languageName: 'ini' });
hljs.registerAliases(['jsonc', 'json5'], { languageName: 'json' });
hljs.registerAliases(['patch'], { languageName: 'diff' });
hljs.configure({ classPrefix: 'hljs-' });

/** The block's language if we know it (by name or alias), else undefined: unknown code stays plain. */
export function knownLanguage(name: string): string | undefined {
  return hljs.getLanguage(name) ? name : undefined;
}

/**
 * Replaces a code element's text with highlighted spans. highlight.js escapes the text it is given
 * and adds only `<span class="hljs-…">`, so the result holds nothing the model wrote as markup.
 */
export function highlightElement(code: HTMLElement, language: string): boolean {
  if (!hljs.getLanguage(language)) return false;
  const text = code.textContent ?? '';
  code.innerHTML = hljs.highlight(text, { language, ignoreIllegals: true }).value;
  return true;
}
