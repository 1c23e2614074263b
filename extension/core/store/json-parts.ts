// Message parts kept whole, as JSON, in `message_parts.text`: plan and report cards, compaction markers
// and notices. One table of their schemas, so a new kind of card is one line here; a row that no longer
// matches its schema is left out on reading, never thrown.
import {
  AttachmentMetaSchema,
  CompactionSchema,
  type MessagePart,
  NoticeSchema,
  PlanArtifactSchema,
  ReportSchema,
} from '../../protocol';
import * as z from 'zod';

/** Each part's payload sits under a key named like its type: `{type: 'plan', plan}`, … */
const JSON_PARTS = {
  plan: PlanArtifactSchema,
  report: ReportSchema,
  compaction: CompactionSchema,
  notice: NoticeSchema,
  /** A user message's `@` references: names and sizes (the content went to the model only). */
  attachments: z.array(AttachmentMetaSchema),
} as const;

type JsonPartType = keyof typeof JSON_PARTS;

function isJsonPartType(type: string): type is JsonPartType {
  return Object.hasOwn(JSON_PARTS, type);
}

/** The text column of a part: its payload as JSON for a card, else its own text. */
export function partText(p: Exclude<MessagePart, { type: 'tool' }>): string {
  return isJsonPartType(p.type) ? JSON.stringify((p as Record<string, unknown>)[p.type]) : (p as { text: string }).text;
}

/** A stored card back as a part; undefined when the type is not a card or the row does not parse. */
export function jsonPartFromRow(type: string, text: unknown): MessagePart | undefined {
  if (!isJsonPartType(type)) return undefined;
  try {
    const parsed = JSON_PARTS[type].safeParse(JSON.parse(String(text)));
    // The schema checked the payload; the part is its type with the payload under the same name.
    return parsed.success ? ({ type, [type]: parsed.data } as MessagePart) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether parts of this type are cards kept as JSON. */
export function isJsonPart(type: string): boolean {
  return isJsonPartType(type);
}
