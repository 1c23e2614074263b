// The permission policy: createPolicy once per settings change, then
// decide() per tool call and suggestRule() for the approval card's "Always allow".
export { createPolicy, type Policy } from './policy/compile';
export { decide } from './policy/decide';
export { suggestRule } from './policy/suggest';
export { analyzeCommand, type CommandAnalysis, type CommandPiece, type CommandWrite } from './shell/analyse';
export { parseShell, type ShellCommand, type ShellParse, type ShellWord } from './shell/parse';
export type {
  Decision,
  DecisionSource,
  DefaultMode,
  PermissionCall,
  PermissionDecision,
  PermissionSettings,
  PolicyConfig,
  RuleList,
  RuleProblem,
  RuleSource,
} from './types';
