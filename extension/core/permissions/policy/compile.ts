// Compiles settings into a Policy once per change: the default mode (a workspace may only make it
// stricter), extra write roots, every rule parsed into a matcher (a malformed one is reported with
// what to write instead, and left out), rules indexed by tool, and the path facts.
import { deniedReads, expandHome, isAbsolutePath, normalizePath, protectedPaths, type PathFact } from '../paths';
import type { ToolFacts } from '../tool-facts';
import type { DefaultMode, PolicyConfig, RuleList, RuleProblem, RuleSource } from '../types';
import { compileRule, isProblem, toolGroups, type CompiledRule } from './rules';

export interface ToolRules {
  deny: CompiledRule[];
  ask: CompiledRule[];
  allow: CompiledRule[];
}

/** Compiled settings and facts. Build with createPolicy; rebuild when settings or folders change. */
export interface Policy {
  readonly defaultMode: DefaultMode;
  /** Settings that were left out, with why (malformed rules, a workspace allow list, …). */
  readonly problems: readonly RuleProblem[];
  readonly workspaceFolders: readonly string[];
  readonly extraWriteRoots: readonly string[];
  readonly home: string;
  readonly commandShell: 'bash' | 'powershell';
  /** Every rule in force. */
  readonly rules: readonly CompiledRule[];
  /** The tools' declared facts, by name. */
  readonly tools: Readonly<Record<string, ToolFacts>>;
  /** Group names (edit, read) and the tools they stand for. */
  readonly groups: Readonly<Record<string, string[]>>;
  /** Rules by tool name. */
  readonly byTool: ReadonlyMap<string, ToolRules>;
  readonly protectedPaths: readonly PathFact[];
  readonly deniedReads: readonly PathFact[];
}

// Strictest first: a workspace may only move the mode left. `auto` asks the policy's questions like `ask`
// (a reviewer answers some of them), so a workspace's `ask` is stricter and its `acceptEdits` is not.
const MODES: DefaultMode[] = ['ask', 'auto', 'acceptEdits', 'allow'];
export const NO_RULES: ToolRules = { deny: [], ask: [], allow: [] };

export function createPolicy(config: PolicyConfig): Policy {
  const problems: RuleProblem[] = [];
  const home = normalizePath(config.home || '/');
  const workspaceFolders = config.workspaceFolders.map(normalizePath);
  const tools: Record<string, ToolFacts> = {};
  for (const t of config.tools ?? []) tools[t.name] = t;
  const groups = toolGroups(tools);
  for (const g of Object.keys(groups)) delete tools[g];

  const extraWriteRoots: string[] = [];
  for (const raw of config.extraWriteRoots ?? []) {
    const p = typeof raw === 'string' ? expandHome(raw.trim(), home) : undefined;
    if (p && isAbsolutePath(p)) extraWriteRoots.push(normalizePath(p));
    else
      problems.push({
        source: 'user',
        list: 'extraWriteRoots',
        rule: String(raw),
        message: 'an extra write root must be an absolute folder (or ~/…); it is ignored',
      });
  }

  let defaultMode: DefaultMode = 'ask';
  const userMode = config.user?.defaultMode;
  if (userMode !== undefined) {
    if (MODES.includes(userMode as DefaultMode)) defaultMode = userMode as DefaultMode;
    else
      problems.push({
        source: 'user',
        list: 'defaultMode',
        rule: String(userMode),
        message: `defaultMode is one of ${MODES.join(', ')}; using ask`,
      });
  }
  const wsMode = config.workspace?.defaultMode;
  if (wsMode !== undefined) {
    const k = MODES.indexOf(wsMode as DefaultMode);
    if (k >= 0 && k <= MODES.indexOf(defaultMode)) defaultMode = MODES[k];
    else
      problems.push({
        source: 'workspace',
        list: 'defaultMode',
        rule: String(wsMode),
        message:
          k < 0
            ? `defaultMode is one of ${MODES.join(', ')}; ignored`
            : 'a workspace may only make defaultMode stricter than your settings; ignored',
      });
  }

  const env = { home, workspaceFolders, tools, groups };
  const rules: CompiledRule[] = [];
  const lists: RuleList[] = ['deny', 'ask', 'allow'];
  for (const source of ['user', 'workspace'] as RuleSource[]) {
    const settings = source === 'user' ? config.user : config.workspace;
    for (const list of lists) {
      const entries = settings?.[list];
      if (entries === undefined) continue;
      if (!Array.isArray(entries)) {
        problems.push({ source, list, rule: String(entries), message: `${list} must be a list of rules` });
        continue;
      }
      for (const raw of entries) {
        if (source === 'workspace' && list === 'allow') {
          problems.push({
            source,
            list,
            rule: String(raw),
            message:
              'ignored: a workspace (.sextant/settings.json) may only add ask and deny rules, so a cloned ' +
              'repository cannot grant itself permissions. Put allow rules in your user settings.',
          });
          continue;
        }
        const r = compileRule(raw, list, source, env);
        if (isProblem(r)) problems.push(r);
        else rules.push(r);
      }
    }
  }
  const byTool = new Map<string, ToolRules>();
  for (const r of rules) {
    for (const t of r.tools) {
      let entry = byTool.get(t);
      if (!entry) {
        entry = { deny: [], ask: [], allow: [] };
        byTool.set(t, entry);
      }
      entry[r.list].push(r);
    }
  }
  return {
    defaultMode,
    problems,
    workspaceFolders,
    extraWriteRoots,
    home,
    // Only bash is judged: any other shell named (there is one other today) makes every command ask.
    commandShell: (config.commandShell ?? 'bash') === 'bash' ? 'bash' : 'powershell',
    rules,
    tools,
    groups,
    byTool,
    protectedPaths: protectedPaths(home),
    deniedReads: deniedReads(home),
  };
}
