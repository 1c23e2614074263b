// Shared by the file writers: turning a computed change into an approval description and into a
// result for the model, so every writer reports diffs the same way.
import { errorResult, type ProposedChange, type ToolContext, type ToolResult } from '../types';
import { unifiedDiff } from './diff';
import { applyText, type LoadedFile } from './edit-io';
import { clearEditFailures } from './edit-failures';
import { ToolInputError } from './paths';
import { errorText } from '../../util/error-text';

export function describeChange(c: ProposedChange): string {
  const { text, stat } = unifiedDiff(c.before, c.after, c.displayPath, { maxLines: 120 });
  const head = c.isNew
    ? `Create ${c.displayPath} (+${stat.added})`
    : `Edit ${c.displayPath} (+${stat.added} −${stat.removed})`;
  return `${head}\n${text}`;
}

export async function describeOrFailure(make: () => Promise<ProposedChange>): Promise<string> {
  try {
    return describeChange(await make());
  } catch (e) {
    return `This call will fail: ${(e as Error).message}`;
  }
}

/** Writes a computed change and reports it (with a compact diff for the card). */
export async function commitChange(
  ctx: ToolContext,
  file: LoadedFile,
  change: ProposedChange,
  summary: string,
): Promise<ToolResult> {
  const { via } = await applyText(ctx, file, change.after);
  clearEditFailures(ctx, file.abs);
  const { text, stat } = unifiedDiff(change.before, change.after, change.displayPath, { maxLines: 200 });
  const how = via === 'editor' ? ' (applied in the open editor and saved; Undo reverts it)' : '';
  const counts = change.isNew ? `+${stat.added}` : `+${stat.added} −${stat.removed}`;
  return {
    forModel: `${summary} ${change.displayPath} (${counts})${how}.`,
    forUi: `${summary} ${change.displayPath} (${counts})${how}\n${text}`,
    isError: false,
  };
}

/** A writer's failure as a result: a ToolInputError speaks to the model as is, anything else is marked as an error. */
export function failedChange(e: unknown): ToolResult {
  return errorResult(e instanceof ToolInputError ? e.message : `Error: ${errorText(e)}`);
}
