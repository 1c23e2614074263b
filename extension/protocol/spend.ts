// What a run spends and the caps that stop it, as host and webview exchange them: tokens and dollars
// of one answer (auto mode's reviewer shown apart), and which cap ended a run.
import * as z from 'zod';

/** One answer's usage; a run's and a session's are sums of these (usage.ts). */
export const UsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cachedTokens: z.number().default(0),
  /** Reasoning tokens, when the provider reports them (already counted in outputTokens). */
  reasoningTokens: z.number().optional(),
  /** Prompt tokens written to the cache (Anthropic; a part of inputTokens), priced at `cacheWrite`. */
  cacheWriteTokens: z.number().optional(),
  /** Undefined when the model's price is unknown: tokens are shown, never a made-up figure. */
  costUsd: z.number().optional(),
  /** Auto mode's reviewer calls: a part of the figures above, shown apart. */
  review: z
    .object({
      calls: z.number().int().nonnegative(),
      inputTokens: z.number(),
      outputTokens: z.number(),
      costUsd: z.number().optional(),
    })
    .optional(),
  /**
   * A research run's spending by phase (planning, searching, reading, …): a split of the figures above,
   * for the Usage view. Undefined price: the phase's cost is unknown.
   */
  phases: z
    .record(
      z.string(),
      z.object({
        inputTokens: z.number(),
        outputTokens: z.number(),
        cachedTokens: z.number().default(0),
        costUsd: z.number().optional(),
      }),
    )
    .optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** Which spending cap stopped a run (sextant.budget.*). */
export const BudgetCapSchema = z.enum([
  'run_cost',
  'run_tokens',
  'session_cost',
  'session_tokens',
  /** All sessions of the window together (sextant.budget.totalMaxCostUsd / .totalMaxTokens). */
  'total_cost',
  'total_tokens',
]);
export type BudgetCap = z.infer<typeof BudgetCapSchema>;

export const BudgetStopSchema = z.object({
  cap: BudgetCapSchema,
  /** The setting that holds the cap, e.g. `sextant.budget.maxCostUsd`. */
  setting: z.string(),
  limit: z.number(),
  /** Spent when the run stopped (dollars or tokens, like `limit`). */
  spent: z.number(),
});
export type BudgetStop = z.infer<typeof BudgetStopSchema>;
