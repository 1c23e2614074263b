// grep parity: for a set of patterns and options, the tool's results equal raw rg's on the same
// tree, and the JS fallback's output equals the ripgrep-backed output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { grepTool, FALLBACK_NOTE } from '../../../extension/core/tools/grep';
import { grepWithJs, grepWithRipgrep, type GrepParams } from '../../../extension/core/tools/util/grep-search';
import { createNodePorts, makeContext, makeTempWorkspace, textOf } from '../../fixtures/node-ports';

function findRg(): string | undefined {
  try {
    return execFileSync('which', ['rg']).toString().trim() || undefined;
  } catch {
    return undefined;
  }
}
const RG = findRg();

const TREE: Record<string, string | Uint8Array> = {
  '.gitignore': '*.log\nbuild/\n!keep.log\n',
  'src/a.ts': 'export function alpha() {\n  // TODO: tidy\n  return "Hello";\n}\nexport const beta = 2;\n',
  'src/b.tsx': 'export const View = () => <div>hello world</div>;\n// todo lower case\n',
  'src/c.js': 'function gamma(x) {\n  return x;\n}\nmodule.exports = { gamma };\n',
  'src/deep/d.ts': 'const foo = 1;\n   bar();\nfoo\nbar\n',
  'lib/x.py': 'def hello():\n    print("hello")  # TODO\n\nclass Foo:\n    pass\n',
  'README.md': '# Project\nSay hello to the word and the wordsmith.\nTODO: docs\n',
  '.hidden/h.ts': 'export const hidden = "TODO hidden";\n',
  'build/out.ts': 'export const built = "TODO";\n',
  'debug.log': 'TODO in an ignored log\n',
  'keep.log': 'TODO in a kept log\n',
  'nested/.gitignore': 'secret.ts\n',
  'nested/secret.ts': 'export const s = "TODO secret";\n',
  'nested/public.ts': 'export const p = "TODO public";\n',
  'node_modules/pkg/index.js': 'module.exports = "TODO dep";\n',
  'crlf.txt': 'first TODO\r\nsecond line\r\nthird TODO\r\n',
  'uni.txt': 'naïve café TODO\nЖ unicode line\n',
  'bin.dat': Buffer.concat([Buffer.from('TODO'), Buffer.from([0, 1, 2, 0]), Buffer.from('TODO')]),
  'many.txt': `${Array.from({ length: 60 }, (_, i) => (i % 7 === 0 ? `match ${i} TODO` : `line ${i}`)).join('\n')}\n`,
};

const EXCLUDES = ['**/node_modules'];

interface Case {
  name: string;
  args: Record<string, unknown>;
  /** Raw rg flags for the same search (besides the shared ones). */
  rg: string[];
  cwd?: string;
  target?: string;
}

const CASES: Case[] = [
  { name: 'literal, files', args: { pattern: 'TODO' }, rg: ['-l'] },
  { name: 'regex, content', args: { pattern: 'function \\w+', output_mode: 'content' }, rg: [] },
  { name: 'case-insensitive', args: { pattern: 'hello', '-i': true, output_mode: 'content' }, rg: ['-i'] },
  { name: 'context', args: { pattern: 'return', output_mode: 'content', '-C': 1 }, rg: ['-C', '1'] },
  {
    name: 'before/after',
    args: { pattern: 'TODO', output_mode: 'content', '-B': 2, '-A': 1 },
    rg: ['-B', '2', '-A', '1'],
  },
  { name: 'glob filter', args: { pattern: 'TODO', glob: '*.ts', output_mode: 'content' }, rg: ['--glob', '*.ts'] },
  { name: 'negated glob', args: { pattern: 'TODO', glob: '!*.ts', output_mode: 'content' }, rg: ['--glob', '!*.ts'] },
  {
    name: 'glob with braces and path',
    args: { pattern: 'export', glob: 'src/**/*.{ts,tsx}', output_mode: 'content' },
    rg: ['--glob', 'src/**/*.{ts,tsx}'],
  },
  {
    name: 'glob whitelists an ignored file',
    args: { pattern: 'TODO', glob: '*.log', output_mode: 'content' },
    rg: ['--glob', '*.log'],
  },
  { name: 'type ts', args: { pattern: 'export', type: 'ts', output_mode: 'content' }, rg: ['--type', 'ts'] },
  { name: 'type py', args: { pattern: 'TODO|hello', type: 'py', output_mode: 'content' }, rg: ['--type', 'py'] },
  { name: 'count', args: { pattern: 'TODO', output_mode: 'count' }, rg: ['-c'] },
  { name: 'anchors and alternation', args: { pattern: '^export (const|function)', output_mode: 'content' }, rg: [] },
  { name: 'word boundary', args: { pattern: '\\bword\\b', output_mode: 'content' }, rg: [] },
  {
    name: 'multiline',
    args: { pattern: 'foo = 1;\\n\\s*bar', multiline: true, output_mode: 'content' },
    rg: ['-U', '--multiline-dotall'],
  },
  {
    name: 'multiline dotall',
    args: { pattern: 'alpha.*?Hello', multiline: true, output_mode: 'content' },
    rg: ['-U', '--multiline-dotall'],
  },
  { name: 'subfolder', args: { pattern: 'TODO|foo', path: 'src', output_mode: 'content' }, rg: [], cwd: 'src' },
  {
    name: 'single file',
    args: { pattern: 'TODO', path: 'crlf.txt', output_mode: 'content' },
    rg: [],
    target: 'crlf.txt',
  },
  { name: 'unicode', args: { pattern: 'caf. TODO|Ж', output_mode: 'content' }, rg: [] },
  { name: 'no match', args: { pattern: 'zzz_nothing_here' }, rg: ['-l'] },
];

/** Raw rg, run the conventional way, reduced to a set of "file:line:text" / "file" / "file:count". */
function rawRg(root: string, c: Case): string[] {
  const cwd = path.join(root, c.cwd ?? '');
  const args = [
    '--hidden',
    '--no-require-git',
    '--no-config',
    '--glob',
    '!.git',
    ...EXCLUDES.flatMap((g) => ['--glob', `!${g}`]),
  ];
  const mode = (c.args.output_mode as string | undefined) ?? 'files_with_matches';
  if (mode === 'content') args.push('-n', '--with-filename', '--no-heading');
  args.push(...c.rg, '-e', String(c.args.pattern), c.target ?? '.');
  let out = '';
  try {
    out = execFileSync(RG as string, args, { cwd }).toString();
  } catch (e) {
    out = String((e as { stdout?: Buffer }).stdout ?? '');
  }
  const rel = (f: string) => path.relative(root, path.join(cwd, f)).split(path.sep).join('/');
  return out
    .split('\n')
    .filter((l) => l !== '' && l !== '--')
    .map((l) => {
      if (mode === 'files_with_matches') return rel(l);
      const m = /^(.*?)([:-])(\d+)([:-])(.*)$/s.exec(l);
      if (mode === 'count') {
        const k = l.lastIndexOf(':');
        return `${rel(l.slice(0, k))}:${l.slice(k + 1)}`;
      }
      assert.ok(m, `unparsed rg line ${l}`);
      return `${rel(m[1])}:${m[3]}${m[4]}${m[5].replace(/\r$/, '')}`;
    })
    .sort();
}

function toSet(
  root: string,
  files: Array<{ file: string; count: number; lines: Array<{ line: number; text: string; match: boolean }> }>,
  mode: string,
): string[] {
  const rel = (f: string) => path.relative(root, f).split(path.sep).join('/');
  const out: string[] = [];
  for (const f of files) {
    if (mode === 'files_with_matches') out.push(rel(f.file));
    else if (mode === 'count') out.push(`${rel(f.file)}:${f.count}`);
    else for (const l of f.lines) out.push(`${rel(f.file)}:${l.line}${l.match ? ':' : '-'}${l.text}`);
  }
  return out.sort();
}

test('grep parity with raw rg and between the rg and JS back ends', {
  skip: RG ? false : 'rg not installed',
}, async () => {
  const root = await makeTempWorkspace(TREE);
  const withRg = createNodePorts({ root, ripgrep: RG, excludes: EXCLUDES });
  const withoutRg = createNodePorts({ root, ripgrep: undefined, excludes: EXCLUDES });
  for (const c of CASES) {
    const mode = (c.args.output_mode as string | undefined) ?? 'files_with_matches';
    const target = path.join(root, c.target ?? c.cwd ?? '');
    const params: GrepParams = {
      pattern: String(c.args.pattern),
      target,
      targetIsFile: Boolean(c.target),
      workspaceRoot: root,
      glob: c.args.glob as string | undefined,
      type: c.args.type as string | undefined,
      caseInsensitive: Boolean(c.args['-i']),
      multiline: Boolean(c.args.multiline),
      mode: mode as GrepParams['mode'],
      before: Number(c.args['-B'] ?? c.args['-C'] ?? 0),
      after: Number(c.args['-A'] ?? c.args['-C'] ?? 0),
      excludeGlobs: EXCLUDES,
    };
    const expected = rawRg(root, c);
    const viaRg = toSet(root, (await grepWithRipgrep(RG as string, params)).files, mode);
    const viaJs = toSet(root, (await grepWithJs(withoutRg.workspace, params)).files, mode);
    assert.deepEqual(viaRg, expected, `${c.name}: rg back end vs raw rg`);
    assert.deepEqual(viaJs, expected, `${c.name}: JS fallback vs raw rg`);

    const a = await grepTool.execute(c.args as never, makeContext(withRg));
    const b = await grepTool.execute(c.args as never, makeContext(withoutRg));
    assert.equal(a.isError, false, `${c.name}: ${textOf(a)}`);
    assert.doesNotMatch(textOf(a), /slower built-in search/);
    assert.ok(textOf(b).includes(FALLBACK_NOTE), `${c.name}: fallback says it is slower`);
    assert.equal(
      textOf(b).replace(`\n\n${FALLBACK_NOTE}`, ''),
      textOf(a),
      `${c.name}: tool output differs between back ends`,
    );
  }
});

test('grep honours .gitignore, nested ignores, hidden files and excludes as expected', {
  skip: RG ? false : 'rg not installed',
}, async () => {
  const root = await makeTempWorkspace(TREE);
  const ctx = makeContext(createNodePorts({ root, ripgrep: RG, excludes: EXCLUDES }));
  const t = textOf(await grepTool.execute({ pattern: 'TODO' }, ctx));
  for (const f of ['src/a.ts', '.hidden/h.ts', 'keep.log', 'nested/public.ts', 'crlf.txt'])
    assert.ok(t.includes(f), `${f} listed`);
  for (const f of ['build/out.ts', 'debug.log', 'nested/secret.ts', 'node_modules/pkg/index.js', 'bin.dat'])
    assert.ok(!t.includes(f), `${f} not listed`);
});

test('grep content output: grouped by file with line numbers, context separators, head_limit and offset', {
  skip: RG ? false : 'rg not installed',
}, async () => {
  const root = await makeTempWorkspace(TREE);
  const ctx = makeContext(createNodePorts({ root, ripgrep: RG }));
  const r = await grepTool.execute({ pattern: 'TODO', path: 'many.txt', output_mode: 'content', '-A': 1 }, ctx);
  assert.match(
    textOf(r),
    /^9 matching lines in 1 file\nmany\.txt\n1:match 0 TODO\n2-line 1\n--\n8:match 7 TODO\n9-line 8\n--/,
  );
  const page = await grepTool.execute(
    { pattern: 'TODO', path: 'many.txt', output_mode: 'content', head_limit: 2, offset: 2 },
    ctx,
  );
  assert.match(
    textOf(page),
    /many\.txt\n15:match 14 TODO\n22:match 21 TODO\n\n\(Showing lines 3–4 of 9\. Use offset=4 for more/,
  );
  const bad = await grepTool.execute({ pattern: 'foo(', output_mode: 'content' }, ctx);
  assert.equal(bad.isError, true);
  assert.match(textOf(bad), /regular expression|regex/i);
});
