// What hooks around a tool call give the model: a PreToolUse deny's reason as the call's result, and
// a PostToolUse hook's feedback (a block's reason, additional context) after the tool's own output.
import type { Decision } from '../../permissions/types';
import { errorResult, type ToolResult } from '../../tools/types';
import type { HookResult } from './hook-output';
import type { ToolResponse } from './session-hooks';

export function hookBlockedResult(j: Decision): ToolResult {
  return errorResult(
    `Blocked, not run: ${j.reason}. A hook the user configured refused this call; do not try to get around ` +
      'it (another tool, another spelling). Choose another approach or tell the user what you need.',
  );
}

/** The tool's output as a PostToolUse hook sees it (`tool_response`). */
export function resultText(result: ToolResult): ToolResponse {
  const output =
    typeof result.forModel === 'string'
      ? result.forModel
      : result.forModel.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
  return { output, isError: result.isError };
}

export function withPostToolFeedback(result: ToolResult, post: HookResult): ToolResult {
  const lines = [
    post.block ? `PostToolUse hook feedback: ${post.reason ?? 'the hook flagged this result'}` : '',
    post.additionalContext ? `PostToolUse hook context: ${post.additionalContext}` : '',
  ].filter(Boolean);
  if (!lines.length) return result;
  const extra = `\n\n${lines.join('\n')}`;
  const forModel =
    typeof result.forModel === 'string'
      ? result.forModel + extra
      : [...result.forModel, { type: 'text' as const, text: extra.trim() }];
  return { ...result, forModel, forUi: result.forUi + extra };
}
