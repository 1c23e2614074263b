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

/** A finding for the analyser to record (CommandFinding's shape). */
export type SecretMention = Pick<CommandFinding, 'kind' | 'reason' | 'ruleNames'>;

/**
 * The secret findings for one word (`w` its parsed form, when it has one: patterns and expansions);
 * undefined — nothing allocated — for the common word that names no secret, since this runs for every
 * word of every command.
 */
export function secretMentions(value: string, w: ShellWord | undefined, home: string): SecretMention[] | undefined {
  let out: SecretMention[] | undefined;
  if (SECRET_WORD.test(value) || ((w?.pattern || w?.dynamic) && mayNameSecret(value, home)))
    out = [
      {
        kind: 'confinement',
        reason: `the command mentions ${show(value)}: commands touching keys and credentials always ask`,
      },
    ];
  const secretFile = secretFileWord(value, Boolean(w?.pattern));
  if (!secretFile) return out;
  const named: SecretMention = {
    kind: 'secret-file',
    reason: `the command names ${show(value)}: ${secretFile.reason}`,
    ruleNames: secretFile.ruleNames,
  };
  return out ? [...out, named] : [named];
}
