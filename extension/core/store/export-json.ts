// JSON export, format "sextant.session" version 1 (documented in docs/export-schema.md).
// parseSessionExport reads it back (validated), which is what the round-trip test relies on.
import * as z from 'zod';
import { ChatMessageSchema, ModeSchema, TodoSchema } from '../../protocol';
import type { StoredArtifact, StoredSession } from '../ports';
import type { ModelMessage } from '../providers/types';
import type { ExportInput } from './export';

export const EXPORT_FORMAT = 'sextant.session';
export const EXPORT_VERSION = 1;

const CitationSchema = z.object({
  n: z.number().int(),
  url: z.string(),
  title: z.string().optional(),
  snippet: z.string().optional(),
});
const ArtifactSchema = z.object({
  id: z.string(),
  kind: z.string(),
  title: z.string(),
  content: z.string(),
  citations: z.array(CitationSchema).optional(),
});

export const SessionExportSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  exportedAt: z.number(),
  session: z.object({
    id: z.string(),
    title: z.string(),
    mode: ModeSchema,
    model: z.string(),
    createdAt: z.number(),
    updatedAt: z.number(),
  }),
  messages: z.array(ChatMessageSchema),
  todos: z.array(TodoSchema),
  artifacts: z.array(ArtifactSchema),
  /** The model-facing history; shapes as in extension/core/providers/types.ts (ModelMessage). */
  modelMessages: z.array(z.record(z.string(), z.unknown())),
});
export type SessionExport = z.infer<typeof SessionExportSchema>;

export function renderJson({ session, artifacts }: ExportInput, now: number): string {
  const doc: SessionExport = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now,
    session: {
      id: session.id,
      title: session.title,
      mode: session.mode,
      model: session.model,
      createdAt: session.createdAt,
      updatedAt: session.updatedAt,
    },
    messages: session.messages,
    todos: session.todos,
    artifacts,
    modelMessages: session.modelMessages as unknown as Array<Record<string, unknown>>,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** Parses an export back into a session; throws with the first problem when it is not one. */
export function parseSessionExport(text: string): ExportInput {
  const doc = SessionExportSchema.parse(JSON.parse(text));
  const session: StoredSession = {
    ...doc.session,
    messages: doc.messages,
    todos: doc.todos,
    modelMessages: doc.modelMessages as unknown as ModelMessage[],
  };
  return { session, artifacts: doc.artifacts as StoredArtifact[] };
}
