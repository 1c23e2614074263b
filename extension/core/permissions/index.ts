// The permission policy: createPolicy once per settings change, then
// decide() per tool call and suggestRule() for the approval card's "Always allow".
export { createPolicy, decide, suggestRule, type Policy } from './policy';
export { analyzeCommand, type CommandAnalysis, type CommandPiece, type CommandWrite } from './command';
export { parseShell, type ShellCommand, type ShellParse, type ShellWord } from './shell';
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
