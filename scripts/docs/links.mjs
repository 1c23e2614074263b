// Checks the documentation's relative links: every link and image in the Markdown files below must name
// a file or folder that exists, and every `#anchor` a heading (GitHub's slug) or an explicit
// `<a id>`/`<a name>` in the file it points at. External links (any `scheme:`) are not fetched.
// Used by test/unit/docs/links.test.ts and scripts/check-links.mjs. No import.meta here: the unit tests
// bundle this file as CommonJS.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

// Folders whose README.md files (at any depth) are checked, besides the top-level pages and docs/.
const PART_FOLDERS = ['extension', 'webview', 'test', 'bench'];
const TOP_LEVEL = ['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'dist-test', 'dist-vsix', '.vscode-test', '.git']);

function walk(dir, keep, out) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      if (!SKIPPED_FOLDERS.has(name)) walk(full, keep, out);
    } else if (keep(name)) out.push(full);
  }
  return out;
}

/** The Markdown files whose links are checked, relative to `root`, sorted. */
export function documentationFiles(root) {
  const files = TOP_LEVEL.map((f) => join(root, f)).filter((f) => existsSync(f));
  walk(join(root, 'docs'), (n) => n.endsWith('.md'), files);
  for (const folder of PART_FOLDERS) walk(join(root, folder), (n) => n === 'README.md', files);
  return files.map((f) => relative(root, f).split(sep).join('/')).sort();
}

/**
 * The text with fenced code blocks blanked, and inline code spans too unless `keepSpans` (a heading's
 * `code` is part of its anchor). Line numbers stay right: a link written as an example inside code is
 * not a link.
 */
export function withoutCode(text, keepSpans = false) {
  const lines = text.split('\n');
  let fence = null;
  return lines
    .map((line) => {
      const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line);
      if (fence) {
        if (opener && opener[1][0] === fence[0] && opener[1].length >= fence.length) fence = null;
        return '';
      }
      if (opener) {
        fence = opener[1];
        return '';
      }
      if (keepSpans) return line;
      return line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (m) => ' '.repeat(m.length));
    })
    .join('\n');
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to `-`. */
export function slug(headingText) {
  const text = headingText
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/`/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown file offers: its headings' slugs (repeats numbered as GitHub does) and `<a id>`s. */
export function anchorsOf(text) {
  const anchors = new Set();
  const seen = new Map();
  for (const line of withoutCode(text, true).split('\n')) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
  }
  return anchors;
}

/** The links and images of a Markdown text: `{ target, line, image }`, code excluded. */
export function linksOf(text) {
  const found = [];
  withoutCode(text)
    .split('\n')
    .forEach((line, i) => {
      // [text](target "title") and ![alt](target); the text may hold one level of brackets.
      for (const m of line.matchAll(/(!?)\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g))
        found.push({ target: m[2], line: i + 1, image: m[1] === '!' });
      // Reference definitions: [id]: target (not footnotes, `[^id]: text`, whose text is no link target)
      const def = /^ {0,3}\[(?!\^)[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/.exec(line);
      if (def) found.push({ target: def[1], line: i + 1, image: false });
      for (const m of line.matchAll(/<(img|a)\s[^>]*\b(src|href)="([^"]*)"/g))
        found.push({ target: m[3], line: i + 1, image: m[1] === 'img' });
    });
  return found;
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The broken links of the documentation under `root`: `{ file, line, target, problem }`, one per
 * broken link, in file order. An empty list means every relative link, anchor and image resolves.
 */
export function brokenLinks(root, files = documentationFiles(root)) {
  const problems = [];
  const anchorCache = new Map();
  const anchorsFor = (path) => {
    if (!anchorCache.has(path)) anchorCache.set(path, anchorsOf(readFileSync(path, 'utf8')));
    return anchorCache.get(path);
  };
  for (const file of files) {
    const path = join(root, file);
    for (const { target, line, image } of linksOf(readFileSync(path, 'utf8'))) {
      const report = (problem) => problems.push({ file, line, target, problem });
      if (target === '') {
        report('empty link');
        continue;
      }
      if (EXTERNAL.test(target) || target.startsWith('//')) continue;
      const hash = target.indexOf('#');
      const pathPart = (hash === -1 ? target : target.slice(0, hash)).replace(/\?.*$/, '');
      const fragment = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
      let dest;
      try {
        dest = pathPart === '' ? path : resolve(dirname(path), decodeURIComponent(pathPart));
      } catch {
        report('malformed link');
        continue;
      }
      if (pathPart.startsWith('/')) {
        report('absolute path: write it relative to this file');
        continue;
      }
      if (!existsSync(dest)) {
        report(image ? 'image not found' : 'file not found');
        continue;
      }
      if (fragment === null || fragment === '') continue;
      // Anchors are checked in Markdown files; a line anchor into a source file (#L10) is left alone.
      if (!dest.endsWith('.md') || statSync(dest).isDirectory()) continue;
      if (!anchorsFor(dest).has(fragment)) report(`no heading for #${fragment} in ${relative(root, dest)}`);
    }
  }
  return problems;
}

/** One line per problem, as `file:line: target — problem`. */
export function formatProblems(problems) {
  return problems.map((p) => `${p.file}:${p.line}: ${p.target} — ${p.problem}`).join('\n');
}
