// Reads the imports of every source file and reports breaches of the layer rules: protocol imports
// only zod, core never touches VS Code or the webview, the webview only the protocol and its UI
// libraries, the store never the agent, research never the agent, tools never research, the shared parts
// below them (usage, util, web) neither, and nothing outside test/ uses test code.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

export interface SourceFile {
  /** Path relative to the repo root, with forward slashes. */
  path: string;
  text: string;
}

export interface Violation {
  file: string;
  specifier: string;
  rule: string;
}

const SOURCE_EXT = /\.(ts|mts|cts|js|mjs|cjs)$/;
const IMPORT_RE = new RegExp(
  [
    // import … from 'x', import 'x', export … from 'x'
    String.raw`(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]`,
    // import('x'), require('x')
    String.raw`(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)`,
  ].join('|'),
  'g',
);

export function importsOf(text: string): string[] {
  // Comments could hold example imports; strip them first (strings keep their content).
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"\\])\/\/.*$/gm, '$1');
  const out: string[] = [];
  for (const m of code.matchAll(IMPORT_RE)) out.push(m[1] ?? m[2]);
  return out;
}

/** The packages `text` imports types from only (`import type … from 'x'`): erased by the build. */
function typeOnlyImportsOf(text: string): Set<string> {
  return new Set([...text.matchAll(/^import\s+type\s[^;]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]));
}

function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return normalize(join(dirname(from), specifier))
    .split(sep)
    .join('/');
}

const under = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);

const WEBVIEW_PACKAGES = [
  /^lit(\/|$)/,
  /^@vscode-elements\//,
  /^marked$/,
  /^dompurify$/,
  // The syntax highlighter's chunk (webview/highlight.ts): core and one module per language.
  /^highlight\.js\/lib\//,
  // Formulas (webview/math-render.ts), in a chunk loaded the first time an answer holds one.
  /^katex$/,
  // Diagrams (webview/mermaid-render.ts), in a chunk loaded the first time an answer holds a ```mermaid block.
  /^beautiful-mermaid$/,
  /^@vscode\/codicons/,
  /^@lit\//,
];

export function findViolations(files: SourceFile[]): Violation[] {
  const violations: Violation[] = [];
  for (const file of files) {
    const p = file.path;
    for (const spec of importsOf(file.text)) {
      const target = resolveSpecifier(p, spec);
      const add = (rule: string) => violations.push({ file: p, specifier: spec, rule });
      if (under(p, 'extension/protocol')) {
        // At run time the protocol needs only zod. A type from `marked` (report-blocks.ts types its math
        // extension with it) is erased by the build, and both of the protocol's users bundle marked anyway.
        const erasedType = spec === 'marked' && typeOnlyImportsOf(file.text).has(spec);
        if (target ? !under(target, 'extension/protocol') : spec !== 'zod' && !erasedType)
          add('extension/protocol imports only zod');
      }
      if (under(p, 'extension/core')) {
        if (spec === 'vscode' || spec.startsWith('vscode/')) add("extension/core never imports 'vscode'");
        if (target && (under(target, 'extension/vscode') || under(target, 'webview')))
          add('extension/core never imports the host or the webview');
      }
      // Platform backends (the sandbox's bwrap / sandbox-exec) are Node-only code outside core: they may
      // use core's types and pure helpers, never the editor; core reaches them only through its ports.
      if (under(p, 'extension/platform')) {
        if (spec === 'vscode' || spec.startsWith('vscode/')) add("extension/platform never imports 'vscode'");
        if (target && (under(target, 'extension/vscode') || under(target, 'webview')))
          add('extension/platform never imports the host or the webview');
      }
      // The engine (extension/engine) and the command line (extension/cli) are hosts of core beside the
      // extension: they never reach VS Code, and core and the extension never depend on the CLI.
      for (const dir of ['extension/engine', 'extension/cli']) {
        if (!under(p, dir)) continue;
        if (spec === 'vscode' || spec.startsWith('vscode/')) add(`${dir} never imports 'vscode'`);
        if (target && (under(target, 'extension/vscode') || under(target, 'webview')))
          add(`${dir} never imports the VS Code host or the webview`);
      }
      if (under(p, 'extension/core') && target && (under(target, 'extension/engine') || under(target, 'extension/cli')))
        add('extension/core never imports the engine or the command line');
      if (under(p, 'extension/engine') && target && under(target, 'extension/cli'))
        add('extension/engine never imports the command line (a host of it)');
      if (under(p, 'extension/core') && target && under(target, 'extension/platform'))
        add('extension/core never imports extension/platform (backends are reached through ports)');
      // The store implements a port (core/ports.ts); it must not depend on the controller it serves.
      if (under(p, 'extension/core/store') && target && under(target, 'extension/core/agent'))
        add('extension/core/store never imports extension/core/agent');
      // Research runs beside the agent loop, not inside it: usage, cost, budget and queues sit below both.
      if (under(p, 'extension/core/research') && target && under(target, 'extension/core/agent'))
        add('extension/core/research never imports extension/core/agent');
      // web_fetch / web_search and research share the web part (fetch, page answers, search catalog).
      if (under(p, 'extension/core/tools') && target && under(target, 'extension/core/research'))
        add('extension/core/tools never imports extension/core/research');
      // The parts below agent and research (usage, util, web) import neither.
      const below = ['extension/core/usage', 'extension/core/util', 'extension/core/web'];
      const above = ['extension/core/agent', 'extension/core/research'];
      if (below.some((d) => under(p, d)) && target && above.some((d) => under(target, d)))
        add('usage, util and web never import agent or research');
      // The policy judges tools by their declarations (handed to createPolicy); it must not reach into them.
      if (under(p, 'extension/core/permissions') && target && under(target, 'extension/core/tools'))
        add('extension/core/permissions never imports extension/core/tools');
      if (under(p, 'webview')) {
        if (target) {
          if (!under(target, 'webview') && !under(target, 'extension/protocol'))
            add('webview imports only extension/protocol');
        } else if (!WEBVIEW_PACKAGES.some((re) => re.test(spec))) {
          add(`webview imports only extension/protocol and its UI libraries (not "${spec}")`);
        }
      }
      // Benchmarks drive the same fake servers and Node ports as the tests, so their numbers come from
      // the code the tests check: bench/ may use test/fixtures, and the real-window bench the e2e suite's
      // harness (code-server driven as the suite drives it) — and nothing else of test/.
      const benchFixture =
        under(p, 'bench') &&
        target !== undefined &&
        (under(target, 'test/fixtures') || under(target, 'test/e2e/harness'));
      if (!under(p, 'test') && target && under(target, 'test') && !benchFixture)
        add('nothing outside test/ imports from test/');
    }
    if ((under(p, 'extension') || under(p, 'webview')) && /^\s*export\s+default\b/m.test(file.text)) {
      violations.push({ file: p, specifier: '(export default)', rule: 'no default exports' });
    }
  }
  return violations;
}

export function readSourceTree(root: string, dirs: string[]): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (SOURCE_EXT.test(name) && !name.endsWith('.d.ts')) {
        files.push({ path: relative(root, full).split(sep).join('/'), text: readFileSync(full, 'utf8') });
      }
    }
  };
  for (const d of dirs) walk(join(root, d));
  return files;
}
