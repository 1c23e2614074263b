// The workspace files a hook's command runs. An approval of `./scripts/guard.sh` or
// `node .claude/hooks/guard.js` is an approval of what that file says *now*: the file is part of the
// repository, so a later commit (or the agent itself) could change it into anything. What each of the
// command's simple commands runs, when it is a regular file inside the workspace — the program
// (`./x.sh`, `"$CLAUDE_PROJECT_DIR"/…`) and an interpreter's script (`bash x.sh`, `python3 -u x.py`,
// `node .claude/hooks/guard.js`) — is hashed into the approval (config.ts workspaceHooksHash), so
// changing the script asks again. A data file the hook merely reads is not bound (editing it would
// otherwise ask again at every change); the script that reads it is.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import * as path from 'node:path';

/** A script larger than this is hashed by its first bytes and its size (still changes on most edits). */
const MAX_HASHED = 4 * 1024 * 1024;

/**
 * The command's simple commands, each as its words: quotes removed, the project-dir variables expanded,
 * split at `;`, `&`, `|`, newlines and parentheses. A rough reading, enough to find the programs.
 */
function simpleCommands(command: string, root: string): string[][] {
  const expanded = command.replace(/\$\{?(CLAUDE_PROJECT_DIR|SEXTANT_PROJECT_DIR)\}?/g, root);
  const out: string[][] = [[]];
  let cur = '';
  let quote: string | undefined;
  const word = () => {
    if (cur) out[out.length - 1].push(cur);
    cur = '';
  };
  for (const ch of expanded) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else cur += ch;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (/[;&|()\n`]/.test(ch)) {
      word();
      out.push([]);
    } else if (/\s/.test(ch)) word();
    else cur += ch;
  }
  word();
  return out.filter((c) => c.length);
}

/** Programs that run the script named by their first argument that is not an option. */
const INTERPRETERS =
  /^(?:ba|z|da|k|fi)?sh$|^node(?:js)?$|^python[\d.]*$|^ruby$|^perl$|^php$|^deno$|^bun$|^tsx$|^ts-node$|^source$|^\.$/;
/** Their words before the script: `deno run`, `bun run`. */
const SUBCOMMANDS = new Set(['run']);

/** The words of one simple command that name what it runs: the program, and an interpreter's script. */
function programWords(words: string[]): string[] {
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i])) i++;
  while (i < words.length && /^(?:exec|env|command|nohup|time)$/.test(words[i])) i++;
  const program = words[i];
  if (program === undefined) return [];
  const out = [program];
  const name = program.split('/').pop() ?? program;
  if (!INTERPRETERS.test(name)) return out;
  for (let k = i + 1; k < words.length; k++) {
    const w = words[k];
    if (w.startsWith('-') || SUBCOMMANDS.has(w)) continue;
    out.push(w);
    break;
  }
  return out;
}

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** The content digest of one file, or undefined when it is not a regular file. */
function fileDigest(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const st = fstatSync(fd);
    if (!st.isFile()) return undefined;
    const buf = Buffer.alloc(Math.min(st.size, MAX_HASHED));
    let read = 0;
    while (read < buf.length) {
      const n = readSync(fd, buf, read, buf.length - read, read);
      if (n <= 0) break;
      read += n;
    }
    return createHash('sha256').update(buf.subarray(0, read)).update(`:${st.size}`).digest('hex');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * `path=digest` for every workspace file the command names (sorted, joined); "" when it names none.
 * A file is found through symbolic links: a link inside the workspace is the file it points to.
 */
export function workspaceScriptsDigest(command: string, root: string | undefined): string {
  if (!root) return '';
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return '';
  }
  const found = new Map<string, string>();
  for (const w of simpleCommands(command, root).flatMap(programWords)) {
    if (w.startsWith('$')) continue;
    const candidate = path.resolve(root, w);
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      continue;
    }
    if (!inside(realRoot, real)) continue;
    const digest = fileDigest(real);
    if (digest) found.set(path.relative(realRoot, real), digest);
  }
  return [...found.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([p, d]) => `${p}=${d}`)
    .join('\n');
}
