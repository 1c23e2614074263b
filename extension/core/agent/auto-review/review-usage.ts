// The reviewer's part of a run's usage, kept apart (Usage.review) so the chat can show what auto mode
// costs; the same calls are already counted in the run's totals and caps.
import type { Usage } from '../../../protocol';
import type { ReviewSpent } from './auto-reviewer';

export function addReviewSpent(total: Usage, s: ReviewSpent): void {
  const r = total.review ?? { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  total.review = {
    calls: r.calls + 1,
    inputTokens: r.inputTokens + s.usage.inputTokens,
    outputTokens: r.outputTokens + s.usage.outputTokens,
    ...(r.costUsd === undefined || s.costUsd === undefined ? {} : { costUsd: r.costUsd + s.costUsd }),
  };
}
