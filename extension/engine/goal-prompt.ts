// A prompt to the engine (the command line, an ACP client) may be `/goal …`: it runs the chat's own goal
// loop (core/agent/goal-loop.ts) through the controller — attempts as ordinary requests, the check after
// each, the budget and step caps, Stop — exactly as the composer's `/goal` does in VS Code. What the host
// gets back says whether the goal was reached, so a script can rely on the exit code.
import { type GoalView, parseGoalArgs, parseInvocation, type Mode } from '../protocol';
import type { ChatController } from '../core/agent/controller';

/** How a prompt's goal ended; undefined for a prompt that is not `/goal`. */
export interface GoalOutcome {
  /** Why the goal was not reached (a malformed `/goal`, or its state when it stopped); absent: passed or cleared. */
  problem?: string;
  goal?: GoalView;
}

export async function sendPrompt(
  controller: ChatController,
  requestId: string,
  text: string,
  mode: Mode,
): Promise<GoalOutcome | undefined> {
  const call = parseInvocation(text);
  if (call?.name !== 'goal') {
    await controller.send(requestId, text, mode);
    return undefined;
  }
  const parsed = parseGoalArgs(call.args);
  if (parsed.kind === 'refused') return { problem: parsed.message };
  if (parsed.kind === 'clear') {
    await controller.stopGoal();
    return {};
  }
  // A goal runs in Agent mode (its check may run a command), as in the chat.
  await controller.startGoal(requestId, parsed.goal, 'agent');
  const goal = controller.goals.view();
  if (!goal || goal.status === 'passed') return goal ? { goal } : {};
  return { goal, problem: `the goal was not reached (${goal.status}${goal.last ? `: ${goal.last}` : ''})` };
}

/** The prompt a goal attempt's request belongs to (the loop names attempts `<id>-goal-<n>`). */
export function promptRequestId(requestId: string): string {
  return requestId.replace(/-goal-\d+$/, '');
}
