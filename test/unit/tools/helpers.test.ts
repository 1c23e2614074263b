import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileGitignoreLine, compileGlob, matchRules, parseGitignore } from '../../../extension/core/paths/globs';
import { unifiedDiff } from '../../../extension/core/tools/util/diff';
import { capMiddle, stripAnsi } from '../../../extension/core/tools/util/cap';
import { decodeText, detectEol, encodeText } from '../../../extension/core/tools/util/text';
import { OutputBuffer } from '../../../extension/core/tools/util/output-buffer';
import { parsePageSpec } from '../../../extension/core/tools/util/pdf';

test('standard globs: * stays in a folder, ** spans folders, braces and classes', () => {
  const cases: Array<[string, string, boolean]> = [
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/a.ts', false],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'src/x/a.ts', true],
    ['src/**', 'src/a/b.c', true],
    ['src/**/test_*.py', 'src/test_a.py', true],
    ['*.{js,jsx}', 'a.jsx', true],
    ['file[0-9].txt', 'file7.txt', true],
    ['file[!0-9].txt', 'file7.txt', false],
    ['**/.github/**', '.github/workflows/ci.yml', true],
    ['?.md', 'ab.md', false],
  ];
  for (const [g, p, want] of cases) assert.equal(compileGlob(g).test(p), want, `${g} vs ${p}`);
});

test('gitignore rules: anchoring, directory-only, negation, last match wins', () => {
  const rules = parseGitignore('# comment\n*.log\n!keep.log\n/build\ndocs/*.md\ntmp/\n');
  assert.equal(matchRules(rules, 'x/debug.log', false), 'ignore');
  assert.equal(matchRules(rules, 'keep.log', false), 'whitelist');
  assert.equal(matchRules(rules, 'build', true), 'ignore');
  assert.equal(matchRules(rules, 'src/build', true), undefined);
  assert.equal(matchRules(rules, 'docs/a.md', false), 'ignore');
  assert.equal(matchRules(rules, 'docs/sub/a.md', false), undefined);
  assert.equal(matchRules(rules, 'tmp', true), 'ignore');
  assert.equal(matchRules(rules, 'tmp', false), undefined);
  assert.equal(compileGitignoreLine('**/cache')?.re.test('a/b/cache'), true);
  assert.equal(compileGitignoreLine('   '), undefined);
});

test('unified diff: hunks with context and counts', () => {
  const before = `${Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join('\n')}\n`;
  const after = before.replace('l3\n', 'L3\n').replace('l18\n', 'l18\nnew\n');
  const { text, stat } = unifiedDiff(before, after, 'f.txt');
  assert.deepEqual(stat, { added: 2, removed: 1 });
  assert.equal(
    text,
    [
      '--- a/f.txt',
      '+++ b/f.txt',
      '@@ -1,6 +1,6 @@',
      ' l1',
      ' l2',
      '-l3',
      '+L3',
      ' l4',
      ' l5',
      ' l6',
      '@@ -16,5 +16,6 @@',
      ' l16',
      ' l17',
      ' l18',
      '+new',
      ' l19',
      ' l20',
    ].join('\n'),
  );
});

test('text: encodings round-trip, EOL detection, binary detection', () => {
  for (const [bytes, enc] of [
    [Buffer.from('\ufeffhi\r\n', 'utf8'), 'utf8'],
    [Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('hé\n', 'utf16le').swap16()]), 'utf16be'],
    [Buffer.from('caf\xe9\n', 'latin1'), 'latin1'],
  ] as const) {
    const d = decodeText(bytes);
    assert.equal(d.kind, 'text');
    if (d.kind !== 'text') continue;
    assert.equal(d.encoding, enc);
    assert.deepEqual(Buffer.from(encodeText(d.text, d)), bytes);
  }
  assert.equal(detectEol('a\r\nb\r\nc\n'), '\r\n');
  assert.equal(detectEol('a\nb\r\nc\n'), '\n');
  assert.equal(decodeText(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0])).kind, 'binary');
});

test('capMiddle keeps whole head and tail lines and says what it cut', () => {
  const text = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join('\n');
  const c = capMiddle(text, 500, (first, n) => `from ${first}, ${n} lines`);
  assert.ok(c.elided);
  assert.ok(c.text.startsWith('line 1\nline 2\n'));
  assert.ok(c.text.endsWith('line 999\nline 1000'));
  assert.match(
    c.text,
    new RegExp(
      `\\[${c.elidedLines} lines \\(\\d+ characters\\) elided — from ${c.firstElidedLine}, ${c.elidedLines} lines\\]`,
    ),
  );
  assert.equal(capMiddle('short', 500).text, 'short');
  assert.equal(stripAnsi('\u001b[31mred\u001b[0m \u001b]0;title\u0007ok'), 'red ok');
});

test('OutputBuffer keeps head and recent tail when output exceeds its bound', () => {
  const b = new OutputBuffer(100, 20);
  for (let i = 0; i < 50; i++) b.append(`${String(i).padStart(4, '0')}\n`);
  assert.equal(b.total, 250);
  assert.equal(b.droppedChars, 150);
  const t = b.text();
  assert.ok(t.startsWith('0000\n0001\n0002\n0003\n'));
  assert.ok(t.endsWith('0048\n0049\n'));
  assert.match(t, /150 characters of output were not kept/);
  assert.equal(b.sliceFrom(245), '0049\n');
});

test('PDF page specs', () => {
  assert.deepEqual(parsePageSpec('1-3,5', 9), [1, 2, 3, 5]);
  assert.deepEqual(parsePageSpec('8-', 9), [8, 9]);
  assert.throws(() => parsePageSpec('0', 9), /does not exist/);
  assert.throws(() => parsePageSpec('a', 9), /not understood/);
});
