// The goal banner above the composer (`/goal`): the condition, how it is checked, attempt k of N, the last
// check's verdict, and "Stop goal" while it runs or waits paused. A `group` named "Goal".
import { html, nothing } from 'lit';
import type { GoalView } from '../../extension/protocol';
import type { HostChannel } from '../host';

const STATUS: Record<GoalView['status'], string> = {
  running: 'working',
  checking: 'checking',
  passed: 'passed',
  stopped: 'stopped',
  paused: 'paused — Continue goes on',
  failed: 'ended without passing',
};

export function renderGoalBanner(goal: GoalView | undefined, host: HostChannel): unknown {
  if (!goal) return nothing;
  const live = goal.status === 'running' || goal.status === 'checking' || goal.status === 'paused';
  return html`<div class="goal-banner status-${goal.status}" role="group" aria-label="Goal">
    <div class="goal-head">
      <strong>Goal</strong>
      <span class="goal-attempt" aria-label="Attempt">attempt ${goal.attempt}/${goal.maxAttempts}</span>
      <span class="goal-status" role="status">${STATUS[goal.status]}</span>
      ${
        live
          ? html`<button
              class="link-button"
              title="End the goal and stop its turn"
              @click=${() => host.post({ type: 'stopGoal' })}
            >
              Stop goal
            </button>`
          : nothing
      }
    </div>
    <div class="goal-condition">${goal.condition}</div>
    <div class="goal-check">
      ${goal.command ? html`Check: <code>${goal.command}</code> exits 0` : 'Check: the model judges the condition'}
      ${goal.last ? html` · last: ${goal.last}` : nothing}
    </div>
  </div>`;
}
