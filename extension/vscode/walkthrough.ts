// The Get Started walkthrough (contributes.walkthroughs in package.json). VS Code ticks a step off when
// its completion event happens; ours are context keys set here when the user really did the thing
// (a key stored, a message answered, an edit approved and written, a plan proposed, a report verified,
// a session exported). Context keys are global to the window, so both bundles (activation and runtime)
// may set them without sharing state; VS Code remembers a completed step across restarts itself.
import * as vscode from 'vscode';
import type { Outbound } from '../protocol/messages';

/** `publisher.name#walkthrough id`, as `workbench.action.openWalkthrough` takes it. */
export const WALKTHROUGH_ID = 'sextant.sextant#sextant.getStarted';
/** globalState flag: the walkthrough was opened once unasked; it never opens by itself again. */
const SHOWN_KEY = 'sextant.walkthroughShown';

/** The context keys the walkthrough's steps complete on (package.json `onContext:` events). */
export const WALKTHROUGH_CONTEXT = {
  modelReady: 'sextant.walkthrough.modelReady',
  messageAnswered: 'sextant.walkthrough.messageAnswered',
  editApproved: 'sextant.walkthrough.editApproved',
  planProposed: 'sextant.walkthrough.planProposed',
  reportVerified: 'sextant.walkthrough.reportVerified',
  sessionExported: 'sextant.walkthrough.sessionExported',
} as const;
export type WalkthroughStep = keyof typeof WALKTHROUGH_CONTEXT;

export function markWalkthroughStep(step: WalkthroughStep): void {
  void vscode.commands.executeCommand('setContext', WALKTHROUGH_CONTEXT[step], true);
}

export function openWalkthrough(): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
}

/** On the first activation after install only: a user who closes it is never shown it again unasked. */
export async function openWalkthroughOnce(state: vscode.Memento): Promise<void> {
  if (state.get<boolean>(SHOWN_KEY)) return;
  await state.update(SHOWN_KEY, true);
  await openWalkthrough();
}

/** Tools whose approved call writes a file: the "Agent mode with an approved edit" step. */
const EDIT_TOOLS = new Set(['write_file', 'edit_file', 'multi_edit', 'notebook_edit']);

/**
 * Watches what the host posts to the chat view and ticks off the steps it proves: an answer that
 * completed (the model works, and the first question was answered), an edit that asked and then
 * succeeded, a plan card, a verified report.
 */
export class WalkthroughProgress {
  /** Edits waiting for the user: their callIds, until the card says how they ended. */
  private readonly askedEdits = new Set<string>();
  private readonly answering = new Set<string>();
  private readonly done = new Set<WalkthroughStep>();

  observe(message: Outbound): void {
    if (message.type !== 'events') return;
    for (const { requestId, event } of message.envelopes) {
      switch (event.type) {
        case 'text_delta':
          this.answering.add(requestId);
          break;
        case 'complete':
          if (this.answering.delete(requestId)) {
            this.mark('modelReady');
            this.mark('messageAnswered');
          }
          break;
        case 'aborted':
        case 'error':
          this.answering.delete(requestId);
          break;
        case 'approval_needed':
          if (EDIT_TOOLS.has(event.approval.tool)) this.askedEdits.add(event.approval.callId);
          break;
        case 'tool_updated':
          if (this.askedEdits.has(event.call.callId) && event.call.status !== 'awaiting_approval') {
            if (event.call.status === 'ok') this.mark('editApproved');
            if (event.call.status !== 'running' && event.call.status !== 'pending')
              this.askedEdits.delete(event.call.callId);
          }
          break;
        case 'plan_proposed':
          this.mark('planProposed');
          break;
        case 'report':
          this.mark('reportVerified');
          break;
      }
    }
  }

  private mark(step: WalkthroughStep): void {
    if (this.done.has(step)) return;
    this.done.add(step);
    markWalkthroughStep(step);
  }
}
