// The judge of the command parser: a differential test against real bash. Every corpus command
// goes through the policy's analysis; where the policy does not ask (it claims to know every
// command the line runs), the line is run by real bash — the way the bash tool runs it,
// `bash -c 'exec 2>&1; …'` — with every program replaced by a stub that logs its argv (a PATH of
// stub scripts, and command_not_found_handle for names with no stub). Every program bash ran must
// be a piece the policy judged. Lines naming absolute paths are judged but not run (a stub cannot
// stand in for /bin/rm).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeCommand, type CommandPiece } from '../../../extension/core/permissions';
import { DIFFERENTIAL_CORPUS } from '../../fixtures/bash-differential-corpus';
import { PERMISSION_CASES } from '../../fixtures/permission-cases';

const TIMEOUT = ['/usr/bin/timeout', '/bin/timeout'].find((p) => existsSync(p)) ?? 'timeout';
const SHARED = join(process.cwd(), '..', 'shared', 'testdata', 'bash-corpus');

/** The snippets of tree-sitter-bash's corpus (header, source, `---`, tree): the sources. */
function sharedCorpus(): string[] {
  if (!existsSync(SHARED)) return [];
  const out: string[] = [];
  for (const f of readdirSync(SHARED).filter((n) => n.endsWith('.txt'))) {
    const text = readFileSync(join(SHARED, f), 'utf8');
    for (const part of text.split(/^={3,}\n[^\n]*\n={3,}\n/m).slice(1)) {
      const source = part.split(/\n-{3,}\n/)[0].trim();
      if (source) out.push(source);
    }
  }
  return out;
}

const STUBBED = `touch rm curl wget git npm npx pnpm yarn node python python3 sed find xargs tar make cargo go docker
  cat ls grep head tail wc sort uniq cut tr env timeout nohup nice sudo bash sh zsh dash ssh scp rsync cp mv mkdir
  chmod chown ln tee dd awk perl ruby sleep date whoami id uname printf echo test true false kill stdbuf setsid
  watch install truncate shred unlink rmdir diff patch less more file stat du df basename dirname realpath`;

interface Harness {
  dir: string;
  work: string;
  log: string;
  env: Record<string, string>;
}

function harness(): Harness {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-diff-'));
  const stubs = join(dir, 'stubs');
  const work = join(dir, 'work');
  mkdirSync(stubs);
  mkdirSync(work);
  const log = join(dir, 'argv');
  mkdirSync(log);
  // One file per run (programs of a pipeline run at once): NUL-terminated words.
  const script = `#!/bin/bash\nprintf '%s\\0' "\${0##*/}" "$@" > "$STUB_LOG/$BASHPID-$RANDOM"\n`;
  for (const name of STUBBED.split(/\s+/).filter(Boolean)) {
    writeFileSync(join(stubs, name), script);
    chmodSync(join(stubs, name), 0o755);
  }
  return {
    dir,
    work,
    log,
    env: {
      PATH: stubs,
      HOME: work,
      STUB_LOG: log,
      LANG: 'C',
      'BASH_FUNC_command_not_found_handle%%': `() { printf '%s\\0' "$@" > "$STUB_LOG/$BASHPID-$RANDOM"; return 127; }`,
    },
  };
}

function runInBash(h: Harness, command: string): string[][] {
  rmSync(h.log, { recursive: true, force: true });
  mkdirSync(h.log);
  // GNU timeout signals its whole process group, so a loop's background children end with it.
  spawnSync(TIMEOUT, ['-s', 'KILL', '10', '/bin/bash', '-c', `exec 2>&1; ${command}`], {
    cwd: h.work,
    env: h.env,
    input: '',
  });
  // A record cut short (a loop killed by the timeout mid-write) has no program name: left out.
  return readdirSync(h.log)
    .map((f) => readFileSync(join(h.log, f), 'utf8').split('\0').slice(0, -1))
    .filter((argv) => argv.length > 0);
}

/** A word only known at run time (an expansion, a pattern, a tilde) matches any run of words. */
const openWord = (w: string) => /[$`*?[{~]|^[<>]\(/.test(w);
const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);

function argsMatch(pattern: string[], words: string[]): boolean {
  if (pattern.length === 0) return words.length === 0;
  const [p, ...rest] = pattern;
  if (openWord(p)) {
    for (let k = 0; k <= words.length; k++) if (argsMatch(rest, words.slice(k))) return true;
    return false;
  }
  return words.length > 0 && words[0] === p && argsMatch(rest, words.slice(1));
}

function judged(pieces: readonly CommandPiece[], ran: string[]): boolean {
  return pieces.some((piece) =>
    [piece.argv, [...piece.wrapperArgv, ...piece.argv]].some(
      (argv) => argv.length > 0 && base(argv[0]) === base(ran[0]) && argsMatch(argv.slice(1), ran.slice(1)),
    ),
  );
}

/** Lines that name an absolute path (other than /dev/null) are judged but not run. */
const ABSOLUTE = /(^|[^\w.~-])\/(?!dev\/null\b)[A-Za-z]/;

test('the command policy agrees with real bash or asks (differential test)', {
  skip: process.platform === 'win32',
}, (t) => {
  const shared = sharedCorpus();
  const table = PERMISSION_CASES.filter((c) => c.call.tool === 'bash').map((c) => String(c.call.input.command));
  const corpus = [...new Set([...table, ...DIFFERENTIAL_CORPUS, ...shared])];
  const h = harness();
  const disagreements: string[] = [];
  let asked = 0;
  let ran = 0;
  let notRun = 0;
  try {
    for (const command of corpus) {
      const a = analyzeCommand(command, { home: h.work, cwd: h.work });
      if (a.findings.length > 0) {
        asked++;
        continue;
      }
      if (ABSOLUTE.test(command)) {
        notRun++;
        continue;
      }
      ran++;
      for (const argv of runInBash(h, command)) {
        if (!judged(a.pieces, argv))
          disagreements.push(
            `${JSON.stringify(command)}: bash ran ${JSON.stringify(argv)}; the policy judged ` +
              JSON.stringify(a.pieces.map((p) => [...p.wrapperArgv, ...p.argv])),
          );
      }
    }
  } finally {
    rmSync(h.dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
  t.diagnostic(
    `corpus ${corpus.length} commands (table ${table.length}, own ${DIFFERENTIAL_CORPUS.length}, ` +
      `tree-sitter-bash ${shared.length}${shared.length ? '' : ': ../shared/testdata/bash-corpus absent'}); ` +
      `policy asked for ${asked}, ran ${ran} in bash, ${notRun} judged only (absolute paths)`,
  );
  assert.ok(corpus.length >= 300 || shared.length === 0, `corpus of ${corpus.length}`);
  assert.deepEqual(disagreements, [], disagreements.slice(0, 20).join('\n'));
});

test('the judge catches a parser that reads \\r as a blank (as this policy once did)', {
  skip: process.platform === 'win32',
}, () => {
  const h = harness();
  try {
    const ran = runInBash(h, 'git status \r# ; touch x');
    const naive = [{ argv: ['git', 'status'], wrapperArgv: [] }] as unknown as CommandPiece[];
    assert.ok(
      ran.some((argv) => argv[0] === 'touch'),
      JSON.stringify(ran),
    );
    assert.ok(
      ran.some((argv) => !judged(naive, argv)),
      'the disagreement is found',
    );
  } finally {
    rmSync(h.dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
});
