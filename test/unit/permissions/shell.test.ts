import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeCommand, parseShell } from '../../../extension/core/permissions';

const commands = (src: string) => parseShell(src).commands.map((c) => c.words.map((w) => w.value));

test('splits on every list and pipeline operator, but not inside quotes', () => {
  assert.deepEqual(commands('a; b && c || d | e & f\ng'), [['a'], ['b'], ['c'], ['d'], ['e'], ['f'], ['g']]);
  assert.deepEqual(commands('echo "a; b" \'c && d\' e\\;f'), [['echo', 'a; b', 'c && d', 'e;f']]);
  assert.deepEqual(commands('echo a|&cat'), [['echo', 'a'], ['cat']]);
});

test('quote removal and escapes give the word bash passes', () => {
  assert.deepEqual(commands(`r''m "-"rf \\/`), [['rm', '-rf', '/']]);
  assert.deepEqual(commands("$'\\x72\\155' $'a\\tb' $'\\''"), [['rm', 'a\tb', "'"]]);
  assert.deepEqual(commands('echo "a\\"b\\$c\\d"'), [['echo', 'a"b$c\\d']]);
  assert.deepEqual(commands('echo a\\\nb'), [['echo', 'ab']]);
});

test('substitutions are parsed as commands of their own, inside double quotes too', () => {
  const p = parseShell('echo "$(id -u)" `whoami` $(ls $(pwd)) <(date) >(cat)');
  const origins = p.commands.map((c) => `${c.origin}:${c.words[0]?.value}`);
  assert.deepEqual(origins, ['$( ):id', '` `:whoami', '$( ):pwd', '$( ):ls', '<( ):date', '>( ):cat', 'command:echo']);
  assert.deepEqual(p.problems, []);
  const echo = p.commands[p.commands.length - 1];
  assert.ok(echo.words.slice(1).every((w) => w.dynamic));
});

test('assignments, redirections and their file descriptors', () => {
  const [c] = parseShell('A=1 B="x y" cmd arg 2>&1 >out.txt 3<in &>>all.log').commands;
  assert.deepEqual(
    c.assignments.map((a) => [a.name, a.value.value]),
    [
      ['A', '1'],
      ['B', 'x y'],
    ],
  );
  assert.deepEqual(
    c.words.map((w) => w.value),
    ['cmd', 'arg'],
  );
  assert.deepEqual(
    c.redirects.map((r) => `${r.fd ?? ''}${r.op}${r.target.value}`),
    ['2>&1', '>out.txt', '3<in', '&>>all.log'],
  );
  assert.deepEqual(commands('"A=1" cmd'), [['A=1', 'cmd']], 'a quoted assignment is a word');
});

test('heredocs: the body is data; an unquoted delimiter still expands $( )', () => {
  const quoted = parseShell("cat <<'EOF' > x\n$(rm -rf /)\nEOF\necho done");
  assert.deepEqual(
    quoted.commands.map((c) => c.words[0].value),
    ['cat', 'echo'],
  );
  assert.equal(quoted.commands[0].redirects[0].heredoc?.body, '$(rm -rf /)');
  const open = parseShell('cat <<-EOF\n\t$(id)\n\tEOF\nls');
  assert.deepEqual(
    open.commands.map((c) => c.words[0].value),
    ['cat', 'id', 'ls'],
  );
});

test('compound commands: keywords are skipped, bodies judged, [[ ]] operators are not separators', () => {
  assert.deepEqual(commands('if [[ -f a && $b < 3 ]]; then make; else exit 1; fi'), [
    ['[[', '-f', 'a', '&&', '$b', '<', '3', ']]'],
    ['make'],
    ['exit', '1'],
    [],
  ]);
  assert.deepEqual(commands('for f in a b; do echo $f; done'), [[], ['echo', '$f'], []]);
  assert.deepEqual(commands('(cd x && make) | tee log'), [['cd', 'x'], ['make'], [], ['tee', 'log']]);
  assert.deepEqual(commands('! grep -q x f # comment; not a command'), [['grep', '-q', 'x', 'f']]);
});

test('what cannot be read with confidence is a problem, never a throw', () => {
  const problems = (src: string) => parseShell(src).problems.join(' | ');
  assert.match(problems("echo 'a"), /single quote is never closed/);
  assert.match(problems('echo "a'), /double quote is never closed/);
  assert.match(problems('echo `a'), /backtick is never closed/);
  assert.match(problems('echo $(a'), /never closed/);
  assert.match(problems('echo ${a:-b}'), /parameter expansion/);
  assert.match(problems('echo ${a'), /\$\{ is never closed/);
  assert.match(problems('f() { a; }'), /function definitions/);
  assert.match(problems('case x in a) b;; esac'), /case/);
  assert.match(problems('echo )'), /closes nothing/);
  assert.match(problems('arr=(a b)'), /array assignments/);
  assert.match(problems('echo $((1 + $(id)))'), /arithmetic/);
  assert.match(problems('$('.repeat(40)), /nested too deeply/);
  assert.equal(problems('echo ${HOME} $1 $? ${#x} "$@"'), '', 'plain parameters are fine');
});

test('the analysis unwraps wrappers and finds the writes', () => {
  const a = analyzeCommand('sudo -u root timeout 5 nice -n 2 env X=1 make -j4 > build.log', {
    home: '/h',
    cwd: '/w',
  });
  assert.deepEqual(
    a.pieces.map((p) => [p.text, p.shown]),
    [['make -j4', 'sudo -u root timeout 5 nice -n 2 env X=1 make -j4']],
  );
  assert.deepEqual(a.pieces[0].allowTexts, ['sudo -u root timeout 5 nice -n 2 env X=1 make -j4'], 'elevated');
  assert.deepEqual(
    a.writes.map((w) => w.path),
    ['/w/build.log'],
  );
  const w = analyzeCommand('cd sub && tee -a out.txt < in | cp a b ~/dest && mv x y', { home: '/h', cwd: '/w' });
  assert.deepEqual(
    w.writes.map((x) => `${x.by}:${x.path}`),
    ['tee:/w/sub/out.txt', 'cp:/h/dest', 'mv:/w/sub/x', 'mv:/w/sub/y'],
  );
  const pattern = analyzeCommand('rm -f logs/*.log', { home: '/h', cwd: '/w' });
  assert.deepEqual(pattern.writes, [{ path: '/w/logs', glob: '*.log', shown: 'logs/*.log', by: 'rm' }]);
});
