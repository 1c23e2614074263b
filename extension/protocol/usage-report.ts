// The Usage view's protocol: what it asks the host (a range, CSV export) and the report it draws — cost and
// tokens by day, model, mode, workspace, session and source. Its own channel (the Usage panel is not a
// chat), validated on both sides like the chat's.
import * as z from 'zod';
import { UsageSourceSchema } from './usage-sources';

/** A local calendar day, YYYY-MM-DD. */
export const DaySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const USAGE_PRESETS = ['today', '7d', '30d', 'all', 'custom'] as const;
export const UsageRangeSchema = z.object({
  preset: z.enum(USAGE_PRESETS),
  /** With `custom`: the first and last day included (local time). */
  from: DaySchema.optional(),
  to: DaySchema.optional(),
});
export type UsageRange = z.infer<typeof UsageRangeSchema>;

export const UsageFiguresSchema = z.object({
  inputTokens: z.number(),
  /** Part of inputTokens, read from the provider's cache. */
  cachedTokens: z.number(),
  outputTokens: z.number(),
  /** The cost of the calls whose price was known. */
  costUsd: z.number(),
  /** Entries at an unknown price: counted in tokens only, never given a made-up cost. */
  unpriced: z.number().int(),
  /** Usage entries summed (an answer's part from one source). */
  entries: z.number().int(),
});
export type UsageFigures = z.infer<typeof UsageFiguresSchema>;

export const USAGE_DIMENSIONS = ['source', 'model', 'mode', 'workspace', 'session', 'day'] as const;
export const UsageDimensionSchema = z.enum(USAGE_DIMENSIONS);
export type UsageDimension = z.infer<typeof UsageDimensionSchema>;

export const UsageGroupSchema = UsageFiguresSchema.extend({ key: z.string(), label: z.string() });
export type UsageGroup = z.infer<typeof UsageGroupSchema>;

/** One bar of the chart: a day (or a month over long ranges), stacked by source and, alternatively, by model. */
export const UsageBarSchema = z.object({
  bucket: z.string(),
  total: UsageFiguresSchema,
  bySource: z.array(z.object({ key: UsageSourceSchema, costUsd: z.number(), tokens: z.number() })),
  byModel: z.array(z.object({ key: z.string(), costUsd: z.number(), tokens: z.number() })),
});
export type UsageBar = z.infer<typeof UsageBarSchema>;

export const UsageReportSchema = z.object({
  range: UsageRangeSchema,
  /** The days covered (null `from`: since the first recorded usage). */
  from: DaySchema.nullable(),
  to: DaySchema,
  /** Bars per day, or per month (YYYY-MM) when the range spans more than 92 days. */
  bucket: z.enum(['day', 'month']),
  total: UsageFiguresSchema,
  bars: z.array(UsageBarSchema),
  /** Every dimension's rows, most expensive first (then most tokens). */
  groups: z.record(UsageDimensionSchema, z.array(UsageGroupSchema)),
  /** Sessions beyond the ones listed (the CSV has them all). */
  moreSessions: z.number().int(),
  /** How long the host took to compute the report, in ms. */
  computeMs: z.number(),
});
export type UsageReport = z.infer<typeof UsageReportSchema>;

/** Usage panel → host. */
export const UsageInboundSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('usageReady') }),
  z.object({ type: z.literal('usageQuery'), range: UsageRangeSchema }),
  /** Save the range's rows as CSV (the host asks where, with a save dialog). */
  z.object({ type: z.literal('usageExport'), range: UsageRangeSchema }),
]);
export type UsageInbound = z.infer<typeof UsageInboundSchema>;

/** Host → Usage panel. */
export const UsageOutboundSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('usageReport'), report: UsageReportSchema }),
  /** The report could not be made (no history store, a read error): said in the panel. */
  z.object({ type: z.literal('usageError'), message: z.string() }),
  /** Where the CSV went (null: the user cancelled the dialog). */
  z.object({ type: z.literal('usageExported'), path: z.string().nullable() }),
]);
export type UsageOutbound = z.infer<typeof UsageOutboundSchema>;

/** Names the sources as the view and the CSV write them. */
export const SOURCE_NAMES: Record<z.infer<typeof UsageSourceSchema>, string> = {
  chat: 'Chat',
  subagent: 'Sub-agents',
  reviewer: 'Auto-mode reviewer',
  research: 'Research',
  compaction: 'Compaction',
};
