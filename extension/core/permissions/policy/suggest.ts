// "Always allow": the narrowest useful rule for a call the user approves, or none when no rule
// would be safe (protected paths, chains, writes outside the workspace).
import { posix } from 'node:path';
import { isUnder, secretFileOf, showPath } from '../paths';
import { analyzeCommand } from '../shell/analyse';
import { factsFromAnnotations } from '../tool-facts';
import type { PermissionCall } from '../types';
import type { Policy } from './compile';
import { decide, inWriteRoots, protectedWrite, subjectText, targetPaths, writeOutside } from './decide';
import { redirectAsk } from './redirect-edits';

/** Programs whose "always allow" covers only the exact command, never its family. */
const EXACT_ONLY_PROGRAMS = new Set([
  'rm',
  'rmdir',
  'mv',
  'dd',
  'chmod',
  'chown',
  'chgrp',
  'shred',
  'truncate',
  'curl',
  'wget',
  'kill',
  'pkill',
  'killall',
  'ssh',
  'scp',
  'rsync',
  'sh',
  'bash',
  'zsh',
  'eval',
  'source',
  '.',
]);

/** Subcommands that run what comes next (`npm run <script>`): the suggestion names that too. */
const RUNNERS = new RegExp(
  '^(npm (run|run-script|exec|x)|pnpm (run|exec|dlx)|yarn (run|exec|dlx)|bun (run|x)|python[0-9.]* -m|' +
    'uv run|poetry run|pipenv run|bundle exec|go run|docker (run|exec)|kubectl exec)$',
);

/** A command's literal text in a `bash(…)` pattern: a `*` the command really has is written `\*`. */
const commandLiteral = (s: string) => s.replace(/[\\*]/g, '\\$&');

/** Escapes glob characters in a literal path segment. */
const globLiteral = (s: string) => s.replace(/[*?[\]{}\\]/g, '\\$&');

/**
 * A rule for the approval card's "Always allow", or undefined when none would be safe or useful:
 * `bash(npm test*)` for `npm test -- --watch=false` (program and first argument — never a blanket
 * `bash`), the folder of an edited file (`edit(src/utils/**)`), a read's folder outside the
 * workspace, a fetched URL's domain. Undefined for chained or complex commands, protected paths and
 * writes outside the workspace.
 */
export function suggestRule(call: PermissionCall, policy: Policy): string | undefined {
  try {
    return suggestFor(call, policy);
  } catch {
    return undefined;
  }
}

function suggestFor(call: PermissionCall, policy: Policy): string | undefined {
  const known = Object.hasOwn(policy.tools, call.tool) ? policy.tools[call.tool] : undefined;
  // An MCP or language-model tool the policy was not given: "Always allow" names that one tool
  // (mcp__<server>__<tool>, lm__<tool>).
  const external = call.tool.startsWith('mcp__') || call.tool.startsWith('lm__');
  const facts = known ?? (external && call.kind ? factsFromAnnotations(call.tool, {}) : undefined);
  if (!facts) return undefined;
  if (!known && call.kind === 'read') return undefined;
  const subject = facts.permission.subject;
  if (subject === 'command') return suggestCommand(subjectText(call, facts), policy);
  if (subject === 'url') {
    try {
      const host = new URL(String(subjectText(call, facts))).hostname;
      return host ? `${call.tool}(domain:${host})` : undefined;
    } catch {
      return undefined;
    }
  }
  if (subject === 'path') {
    const targets = targetPaths(call, facts, policy);
    if (!Array.isArray(targets) || targets.length !== 1) return undefined;
    const target = targets[0];
    if (decide(call, policy).decision === 'deny') return undefined;
    if (facts.kind === 'write') {
      if (policy.protectedPaths.some((f) => f.test(target))) return undefined;
      const folder = policy.workspaceFolders
        .filter((f) => isUnder(target, f) && target !== f)
        .sort((x, y) => y.length - x.length)[0];
      if (!folder) return undefined;
      const rel = target.slice(folder === '/' ? 1 : folder.length + 1);
      const dir = posix.dirname(rel);
      const group = policy.groups.edit.includes(call.tool) ? 'edit' : call.tool;
      return dir === '.'
        ? `${group}(${globLiteral(rel)})`
        : `${group}(${dir.split('/').map(globLiteral).join('/')}/**)`;
    }
    // A .env file's ask is lifted only by a rule naming the file: suggest exactly that one.
    if (facts.kind === 'read' && secretFileOf(target)) {
      const folder = policy.workspaceFolders.find((f) => isUnder(target, f) && target !== f);
      const named = folder ? target.slice(folder === '/' ? 1 : folder.length + 1) : showPath(target, policy.home);
      return `${call.tool}(${named.split('/').map(globLiteral).join('/')})`;
    }
    if (inWriteRoots(policy, target)) return undefined;
    const dir = facts.permission.folder ? target : posix.dirname(target);
    if (dir === '/' || dir === policy.home || posix.dirname(dir) === '/') return undefined;
    const group = policy.groups.read.includes(call.tool) ? 'read' : call.tool;
    return `${group}(${showPath(dir, policy.home).split('/').map(globLiteral).join('/')}/**)`;
  }
  return facts.kind === 'read' ? undefined : call.tool;
}

function suggestCommand(command: string | undefined, policy: Policy): string | undefined {
  if (typeof command !== 'string') return undefined;
  const a = analyzeCommand(command, { home: policy.home, cwd: policy.workspaceFolders[0] });
  // Naming a .env file is the one finding a rule may lift — by naming the file: only the exact command is offered.
  const namesSecretFile = a.findings.length > 0 && a.findings.every((f) => f.kind === 'secret-file');
  if ((a.findings.length && !namesSecretFile) || a.pieces.some((p) => p.transparent)) return undefined;
  if (a.writes.some((w) => protectedWrite(policy, w) || writeOutside(policy, w))) return undefined;
  // A command rule never covers the file a redirection writes: the rule would not spare the next ask.
  if (redirectAsk(policy, a.writes)) return undefined;
  if (a.pieces.length !== 1) return undefined;
  const piece = a.pieces[0];
  if (piece.allowTexts[0] !== piece.text || piece.openArgs) return undefined;
  if (namesSecretFile)
    return piece.globbed || /\n/.test(piece.text) || piece.text.length > 200
      ? undefined
      : `bash(${commandLiteral(piece.text)})`;
  const [prog, first] = piece.argv;
  if (/[\s$`;&|<>()]/.test(prog + (first ?? ''))) return undefined;
  const exact = () =>
    /\n/.test(piece.text) || piece.text.length > 200 ? undefined : `bash(${commandLiteral(piece.text)})`;
  if (piece.exactOnly) return exact();
  if (first === undefined) return `bash(${commandLiteral(prog)})`;
  const name = prog.slice(prog.lastIndexOf('/') + 1);
  if (EXACT_ONLY_PROGRAMS.has(name) || /^(-c|-e|--eval|-p|--print|-r|--require)$/.test(first)) return exact();
  const second = piece.argv[2];
  if (RUNNERS.test(`${name} ${first}`)) {
    if (second === undefined) return `bash(${commandLiteral(`${prog} ${first}`)})`;
    if (/[\s$`;&|<>()*]/.test(second)) return undefined;
    return `bash(${commandLiteral(`${prog} ${first} ${second}`)}*)`;
  }
  return `bash(${commandLiteral(`${prog} ${first}`)}*)`;
}
