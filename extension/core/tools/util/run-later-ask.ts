// After a boxed command: what it changed in the files that run later outside the box (package.json's
// scripts, node_modules/.bin, Makefile, lint and build configs, .venv/bin — core/sandbox/run-later.ts)
// is never kept in silence. A foreground command's card lists the files with their diff and asks "Keep
// the result" or "Undo"; with no one to ask (a run that cannot ask, an abort, a background job that has
// ended) it is undone and said. An install the user allowed — by their rule or their click, every part
// of it an install — keeps what it changed: changing package.json and .bin is its job.
import { isInstallCommand, type RunLaterChange, type RunLaterChanges } from '../../sandbox/run-later';
import type { ToolContext } from '../types';
import { unifiedDiff } from './diff';
import { toolRedactor } from './redaction';

/** Lines of diff per file on the card. */
const CARD_DIFF_LINES = 80;
/** Files listed on the card and in the result; the rest are counted. */
const LISTED_FILES = 40;

/** Whether the user allowed this command as an install (then its changes are kept without asking). */
export function allowedInstall(ctx: ToolContext, command: string): boolean {
  return (ctx.decidedBy === 'rule' || ctx.decidedBy === 'user') && isInstallCommand(command);
}

/** The card: each file, what happened to it, and its diff when it is text. */
export function runLaterDetail(changes: RunLaterChanges): string {
  const parts = changes.files.slice(0, LISTED_FILES).map((f) => {
    const lost = f.undoable ? '' : ' (Undo cannot put this one back: it was too large to keep)';
    const head = `${f.what} ${f.shown}${lost}`;
    if (f.link) {
      const was = f.link.before ?? (f.what === 'created' ? '(none)' : '(not a link)');
      const is = f.link.after ?? (f.what === 'deleted' ? '(none)' : '(not a link)');
      return `${head}\n  link: ${was} → ${is}`;
    }
    if (f.folder) return `${head}\n  (a folder)`;
    if (f.before === undefined && f.after === undefined) return `${head}\n  (binary or large: no diff)`;
    return `${head}\n${unifiedDiff(f.before ?? '', f.after ?? '', f.shown, { maxLines: CARD_DIFF_LINES }).text}`;
  });
  const more = changes.files.length - LISTED_FILES;
  return [...parts, ...(more > 0 ? [`… and ${more} more`] : [])].join('\n\n');
}

function names(files: readonly RunLaterChange[]): string {
  const listed = files.slice(0, LISTED_FILES).map((f) => f.shown);
  const more = files.length - listed.length;
  return `${listed.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

const WHY =
  'these files run later outside the sandbox (npm scripts, node_modules/.bin, make, lint and build configs, ' +
  'the Python interpreter)';

/** Undoes the changes; the line that says so (and what could not be put back). */
export function undoRunLater(changes: RunLaterChanges, who: string): string {
  const failed = changes.undo();
  const left = failed.length ? ` Could not put back: ${failed.join('; ')}.` : '';
  return (
    `[sandbox] undid this command's changes to ${names(changes.files)} (${who}): ${WHY}.${left} Do not make ` +
    'them again another way; if they are needed, say so and let the user make them.'
  );
}

/**
 * A foreground command's changes, settled: kept silently for an allowed install, else asked on a card
 * ("Keep the result" / "Undo"), undone when no one answers. Returns the line for the result, if any.
 */
export async function settleRunLater(
  ctx: ToolContext,
  command: string,
  changes: RunLaterChanges | undefined,
): Promise<string | undefined> {
  if (!changes) return undefined;
  if (allowedInstall(ctx, command)) {
    changes.keep();
    return undefined;
  }
  const redact = toolRedactor(ctx.ports);
  let keep = false;
  let who = 'the run was stopped';
  if (!ctx.signal.aborted) {
    try {
      const answer = await ctx.ports.approval.request(
        {
          callId: `${ctx.callId || 'bash'}:run-later`,
          sessionId: ctx.session.sessionId,
          tool: 'bash',
          kind: 'execute',
          subject: command,
          detail: redact(runLaterDetail(changes)),
          reason:
            `the command changed ${names(changes.files)}, and ${WHY}; Undo puts back what was there before ` +
            'the command',
          labels: { approve: 'Keep the result', deny: 'Undo' },
        },
        ctx.signal,
      );
      keep = answer.decision === 'approve';
      who = 'the user chose Undo';
    } catch {
      who = ctx.signal.aborted ? 'the run was stopped' : 'no one could be asked';
    }
  }
  if (!keep) return undoRunLater(changes, who);
  changes.keep();
  return `[sandbox] the user kept this command's changes to ${names(changes.files)}.`;
}
