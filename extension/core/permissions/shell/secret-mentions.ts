// A command word that names a secret asks, whatever the rules say — a rule is written for a program's
// words, and `bash(cat *)` was never meant as leave to print keys:
// - a secret location (`~/.ssh/id_rsa`, `/etc/shadow`; SECRET_LOCATIONS in paths.ts) always asks, and
//   so does a pattern or expansion that could reach one (`~/.ss?/*`, `$HOME/.aws/x`);
// - a project secret file (`.env`, `config/.env.local`, `--env-file=.env`) asks unless a rule naming
//   the file lifts it (policy/secret-file-lift.ts), so its finding carries the literal such a rule needs.
import { mayNameSecret, SECRET_WORD, secretFileWord } from '../paths';
import type { CommandFinding } from './command-analysis';
import type { ShellWord } from './parse';
import { show } from './words';

/** Called once per finding; a callback, not a list, since this runs for every word of every command. */
export type Found = (kind: CommandFinding['kind'], reason: string, ruleNames?: string) => void;

/** The secret findings for one word (`w` its parsed form, when it has one: patterns and expansions). */
export function secretMentions(value: string, w: ShellWord | undefined, home: string, found: Found): void {
  if (SECRET_WORD.test(value) || ((w?.pattern || w?.dynamic) && mayNameSecret(value, home)))
    found('confinement', `the command mentions ${show(value)}: commands touching keys and credentials always ask`);
  const secretFile = secretFileWord(value, Boolean(w?.pattern));
  if (secretFile) found('secret-file', `the command names ${show(value)}: ${secretFile.reason}`, secretFile.ruleNames);
}
