// `.env` and its kin (secret files: SECRET_FILES in paths.ts) ask before they are read — by a file tool
// or by a command naming one — under every mode and every broad rule (`read_file(**)`, `bash(cat *)`):
// a workspace that allows reads freely still should not hand its keys to the model unasked.
//
// Only a rule that NAMES the file lifts that: `read_file(.env)`, `bash(cat .env.local)`. A rule that merely
// covers it by a pattern was written for other files. An ask rule that matches still asks.
import type { SecretFileFact } from '../paths';
import type { CommandAnalysis } from '../shell/command-analysis';
import type { Decision } from '../types';
import type { ToolRules } from './compile';
import type { CompiledRule } from './rules';
import { result, ruleDecision } from './wording';

/** A rule that names a secret file (`read_file(.env)`, `bash(cat .env.local)`), not one that only covers it. */
export function namesSecretFile(r: CompiledRule, literal: string): boolean {
  return !r.blanket && r.text.toLowerCase().includes(literal.toLowerCase());
}

/**
 * The answer for a file tool's read of a secret file: an ask rule asks, a rule naming the file allows,
 * anything else asks. `matches` tests a rule against the path as the tool sees it; `what` quotes it.
 */
export function secretFileRead(
  secretFile: SecretFileFact,
  rules: ToolRules,
  matches: (r: CompiledRule) => boolean,
  what: string,
): Decision {
  const ask = rules.ask.find(matches);
  if (ask) return ruleDecision('ask', ask, what);
  const allow = rules.allow.find((r) => matches(r) && namesSecretFile(r, secretFile.ruleNames));
  if (allow) return ruleDecision('allow', allow, what);
  return result('ask', 'confinement', secretFile.reason);
}

/**
 * The ask for a command that names a secret file, unless a user rule naming the file covers one of its
 * pieces (`bash(cat .env)`); undefined when the command names none or such a rule lifts it.
 */
export function secretFileCommandAsk(a: CommandAnalysis, rules: ToolRules): Decision | undefined {
  const secretFile = a.findings.find((f) => f.kind === 'secret-file');
  if (!secretFile) return undefined;
  const named = secretFile.ruleNames ?? '';
  const lifted = a.pieces.some(
    (piece) =>
      !piece.transparent &&
      rules.allow.some((r) => namesSecretFile(r, named) && piece.allowTexts.some((t) => r.test(t))),
  );
  return lifted ? undefined : result('ask', 'confinement', secretFile.reason);
}
