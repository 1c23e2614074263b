// A redirection (`> file`, `>> file`, `2> log`) is an edit of the file it writes, so the edit
// rules judge it as well as the command rules:
// - an edit deny or ask rule naming the file denies or asks, as an edit of it would (editRuleHolding);
// - a command rule names a program's words, never the file its redirection writes: `bash(ls*)` is no
//   leave to run `ls > src/index.ts`, so with defaultMode ask the write also needs an edit rule naming
//   the file (redirectAsk). acceptEdits and allow let edits inside the workspace run.
import { showPath } from '../paths';
import type { CommandWrite } from '../shell/command-analysis';
import type { Decision } from '../types';
import type { Policy } from './compile';
import type { CompiledRule } from './rules';
import { quote, result, ruleDecision } from './wording';

/** Every edit rule of a kind (`edit(src/**)` and rules for one file tool), over all the file tools that write. */
function editRules(policy: Policy, list: 'deny' | 'ask' | 'allow'): CompiledRule[] {
  const out = new Set<CompiledRule>();
  for (const tool of policy.groups.edit) for (const r of policy.byTool.get(tool)?.[list] ?? []) out.add(r);
  return [...out];
}

/** A redirection writes a file an edit deny or ask rule names: denied or asked, as an edit of it would be. */
export function editRuleHolding(policy: Policy, writes: readonly CommandWrite[]): Decision | undefined {
  if (!writes.some((w) => w.redirect)) return undefined;
  for (const list of ['deny', 'ask'] as const) {
    const rules = editRules(policy, list);
    for (const w of writes) {
      const r = w.redirect && !w.glob ? rules.find((x) => x.test(w.path)) : undefined;
      if (r) return ruleDecision(list, r, `${quote(showPath(w.path, policy.home))}, which a redirection writes`);
    }
  }
  return undefined;
}

/**
 * With defaultMode ask (or auto), a redirection's write no edit rule allows asks even when command rules
 * allow the command.
 */
export function redirectAsk(policy: Policy, writes: readonly CommandWrite[]): Decision | undefined {
  if (policy.defaultMode === 'acceptEdits' || policy.defaultMode === 'allow' || !writes.some((w) => w.redirect))
    return undefined;
  const allow = editRules(policy, 'allow');
  const w = writes.find((x) => x.redirect && (x.glob !== undefined || !allow.some((r) => r.test(x.path))));
  if (!w) return undefined;
  const shown = showPath(w.glob ? `${w.path}/${w.glob}` : w.path, policy.home);
  return result(
    'ask',
    'default',
    `a redirection writes to ${quote(shown)}: a command rule does not cover the files its redirections write, ` +
      'and edits ask unless an edit rule or defaultMode acceptEdits allows them',
  );
}
