import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import {
  definitionTool,
  hoverTool,
  HOVER_CHARS,
  MAX_REFERENCES,
  referencesTool,
  symbolsTool,
} from '../../../extension/core/tools/code-intel';
import { MAX_PROBLEMS, problemsTool } from '../../../extension/core/tools/problems';
import { resolvePosition } from '../../../extension/core/tools/util/code-position';
import { builtinTools, toolsForMode } from '../../../extension/core/tools/registry';
import type { CodeLocation } from '../../../extension/core/language/types';
import { createNodePorts, makeContext, makeTempWorkspace, textOf } from '../../fixtures/node-ports';
import { FakeLanguage } from '../../fixtures/fake-language';

const SRC = [
  'import { greet } from "./greet";',
  '',
  'export function main() {',
  '  return greet("a") + greet("b");',
  '}',
];

async function setup(lang = new FakeLanguage()) {
  const root = await makeTempWorkspace({
    'src/main.ts': SRC.join('\n'),
    'src/greet.ts': 'export function greet(name: string) {\n  return `hi ${name}`;\n}\n',
    'notes.txt': 'plain words\n',
  });
  const ports = createNodePorts({ root });
  ports.language = lang;
  const ctx = makeContext(ports);
  const at = (rel: string, line: number, character: number): CodeLocation => ({
    path: path.join(root, rel),
    range: { start: { line, character }, end: { line, character: character + 5 } },
  });
  return { root, ctx, lang, at };
}

test('a symbol name is found on its line (nearest to a given column), or on a nearby line with a note', async () => {
  const { ctx } = await setup();
  const second = await resolvePosition(ctx, { path: 'src/main.ts', line: 4, symbol: 'greet', column: 20 });
  assert.deepEqual(second.at, { line: 3, character: 22 });
  const first = await resolvePosition(ctx, { path: 'src/main.ts', line: 4, symbol: 'greet' });
  assert.deepEqual(first.at, { line: 3, character: 9 });
  const near = await resolvePosition(ctx, { path: 'src/main.ts', line: 2, symbol: 'main' });
  assert.deepEqual(near.at, { line: 2, character: 16 });
  assert.match(near.note ?? '', /on line 3, not 2/);
  // A whole word only: "mai" is not in "main".
  await assert.rejects(resolvePosition(ctx, { path: 'src/main.ts', line: 3, symbol: 'mai' }), /not on line 3/);
  await assert.rejects(resolvePosition(ctx, { path: 'src/main.ts', line: 99, symbol: 'x' }), /has 5 lines/);
  const col = await resolvePosition(ctx, { path: 'src/main.ts', line: 3, column: 8 });
  assert.deepEqual(col.at, { line: 2, character: 7 });
});

test('references: sorted, deduplicated, relative, with the line; unreadable files named without text', async () => {
  const { ctx, lang, at } = await setup();
  lang.referenceList = [
    at('src/main.ts', 3, 22),
    at('src/greet.ts', 0, 16),
    at('src/main.ts', 3, 9),
    at('src/main.ts', 3, 9),
  ];
  lang.referenceList.push({
    path: '/outside/lib.d.ts',
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
  });
  ctx.mayRead = async (abs) => !abs.startsWith('/outside');
  const r = await referencesTool.execute({ path: 'src/main.ts', line: 4, symbol: 'greet' }, ctx);
  assert.equal(r.isError, false);
  assert.deepEqual(lang.asked.at(-1), {
    what: 'references',
    path: path.join(ctx.ports.workspace.roots()[0], 'src/main.ts'),
    at: { line: 3, character: 9 },
  });
  assert.equal(
    textOf(r),
    [
      '4 references in 3 files:',
      '/outside/lib.d.ts:1:1',
      'src/greet.ts:1:17  export function greet(name: string) {',
      'src/main.ts:4:10  return greet("a") + greet("b");',
      'src/main.ts:4:23  return greet("a") + greet("b");',
    ].join('\n'),
  );
});

test('references are capped with a note; definition says when the file has no language support', async () => {
  const { ctx, lang, at } = await setup();
  lang.referenceList = Array.from({ length: MAX_REFERENCES + 12 }, (_, i) => at('src/main.ts', 0, i));
  const r = await referencesTool.execute({ path: 'src/main.ts', line: 1, symbol: 'greet' }, ctx);
  assert.equal(textOf(r).split('\n').length, MAX_REFERENCES + 2);
  assert.match(textOf(r), /… and 12 more \(capped at 100\)\.$/);

  const plain = await setup(new FakeLanguage({ support: () => ({ languageId: 'plaintext', diagnostics: false }) }));
  const none = await definitionTool.execute({ path: 'notes.txt', line: 1, symbol: 'words' }, plain.ctx);
  assert.match(textOf(none), /VS Code has no language support for notes\.txt \(language "plaintext"\)/);
  const ts = await definitionTool.execute({ path: 'src/main.ts', line: 4, symbol: 'greet' }, ctx);
  assert.match(textOf(ts), /No definition found at src\/main\.ts:4:10 \(language "typescript"\)/);
  lang.definitions = [at('src/greet.ts', 0, 16)];
  const found = await definitionTool.execute({ path: 'src/main.ts', line: 4, symbol: 'greet' }, ctx);
  assert.equal(textOf(found), 'src/greet.ts:1:17  export function greet(name: string) {');
});

test('hover joins and cuts the providers’ texts; symbols give an outline or filtered workspace matches', async () => {
  const { ctx, lang, at } = await setup();
  lang.hovers = ['```ts\nfunction greet(name: string): string\n```', 'x'.repeat(HOVER_CHARS)];
  const h = await hoverTool.execute({ path: 'src/main.ts', line: 4, symbol: 'greet' }, ctx);
  assert.match(textOf(h), /^```ts\nfunction greet/);
  assert.match(textOf(h), /cut at 4000 characters\)$/);

  lang.outline = [
    { name: 'main', kind: 'function', location: at('src/main.ts', 2, 16) },
    { name: 'inner', kind: 'variable', container: 'main', location: at('src/main.ts', 3, 2) },
  ];
  const outline = await symbolsTool.execute({ path: 'src/main.ts' }, ctx);
  assert.equal(textOf(outline), 'src/main.ts:\nfunction main — line 3\nvariable inner (in main) — line 4');

  lang.workspace = [
    { name: 'greet', kind: 'function', location: at('src/greet.ts', 0, 16) },
    { name: 'greetAll', kind: 'function', location: { path: '/secret/x.ts', range: at('a', 0, 0).range } },
  ];
  ctx.mayRead = async (abs) => !abs.startsWith('/secret');
  const ws = await symbolsTool.execute({ query: 'greet' }, ctx);
  assert.equal(textOf(ws), 'Symbols matching "greet":\nfunction greet — src/greet.ts:1');
  const neither = await symbolsTool.execute({}, ctx);
  assert.equal(neither.isError, true);
});

test('problems: a file’s or the workspace’s errors and warnings, sorted and capped; no editor: says so', async () => {
  const { root, ctx, lang } = await setup();
  const main = path.join(root, 'src/main.ts');
  lang.opened.add(main);
  lang.publish(main, [
    { path: main, line: 3, character: 2, severity: 'warning', message: 'unused', source: 'ts' },
    { path: main, line: 0, character: 0, severity: 'error', message: 'bad import', source: 'ts', code: '2307' },
    { path: main, line: 1, character: 0, severity: 'hint', message: 'hint' },
  ]);
  const many = path.join(root, 'src/greet.ts');
  lang.opened.add(many);
  lang.publish(
    many,
    Array.from({ length: MAX_PROBLEMS }, (_, i) => ({
      path: many,
      line: i,
      character: 0,
      severity: 'error' as const,
      message: `e${i}`,
    })),
  );
  const file = await problemsTool.execute({ path: 'src/main.ts' }, ctx);
  assert.equal(
    textOf(file),
    [
      '2 problems in src/main.ts (1 error):',
      'src/main.ts:1:1 error [ts 2307] bad import',
      'src/main.ts:4:3 warning [ts] unused',
    ].join('\n'),
  );
  const withInfo = await problemsTool.execute({ path: 'src/main.ts', include_info: true }, ctx);
  assert.match(textOf(withInfo), /hint/);
  const all = await problemsTool.execute({}, ctx);
  assert.match(textOf(all), /^102 problems in the workspace \(101 errors\):/);
  assert.match(textOf(all), /… and 2 more\.$/);

  const bare = makeContext(createNodePorts({ root }));
  assert.match(textOf(await problemsTool.execute({}, bare)), /not available here/);
  assert.match(textOf(await referencesTool.execute({ path: 'src/main.ts', line: 1 }, bare)), /Use grep instead/);
});

test('the code intelligence tools are read-only and offered where reads are (Agent, Plan), never in Chat', () => {
  const names = ['problems', 'definition', 'references', 'hover', 'symbols'];
  for (const n of names) {
    const t = builtinTools().find((x) => x.name === n);
    assert.equal(t?.kind, 'read', n);
  }
  for (const mode of ['agent', 'plan'] as const) {
    const offered = toolsForMode(mode, { trusted: true }).map((t) => t.name);
    for (const n of names) assert.ok(offered.includes(n), `${n} in ${mode}`);
  }
  assert.deepEqual(toolsForMode('chat', { trusted: true }), []);
});
