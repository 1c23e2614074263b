// Rewind to here and edit-and-resend: the preview the host computes before a rewind, and the
// Redo offer after one. A namespace import lets the webview bundle drop the parts of zod it never uses.
import * as z from 'zod';

/** What a rewind puts back: the workspace files, the conversation, or both. */
export const RewindScopeSchema = z.enum(['both', 'files', 'conversation']);
export type RewindScope = z.infer<typeof RewindScopeSchema>;

/** One file in the preview, as core/checkpoints planned it. */
export const RewindFileViewSchema = z.object({
  /** Relative to its workspace folder. */
  path: z.string(),
  /** restore: written back; delete: removed (the agent created it); unchanged; skip: cannot be rewound. */
  action: z.enum(['restore', 'delete', 'unchanged', 'skip']),
  /** Changed by the user since the agent changed it: kept unless named in `overwrite`. */
  changedByUser: z.boolean(),
  /** The user changed it between two of the undone turns: rewinding undoes those edits too. */
  editedBetweenTurns: z.boolean(),
  reason: z.string().optional(),
});
export type RewindFileView = z.infer<typeof RewindFileViewSchema>;

export const RewindPreviewSchema = z.object({
  /** The user message rewound to: everything from it on is undone. */
  messageId: z.string(),
  /** Its text (goes back to the composer when the conversation is rewound). */
  text: z.string(),
  files: z.array(RewindFileViewSchema),
  /** One line: "2 files will be restored; src/a.ts was changed by you since and will be kept". */
  summary: z.string(),
  /** Whether a files rewind would change anything. */
  fileChanges: z.boolean(),
  /** Messages a conversation rewind takes out of this chat (kept in History as an earlier branch). */
  messagesRemoved: z.number().int().nonnegative(),
  /** Set when commands ran in the undone turns: their file changes are not recorded. */
  commandsNote: z.string().optional(),
});
export type RewindPreview = z.infer<typeof RewindPreviewSchema>;

/** The last rewind of the chat, offered for undoing while nothing new was sent. */
export const RedoOfferSchema = z.object({ messageId: z.string(), summary: z.string() });
export type RedoOffer = z.infer<typeof RedoOfferSchema>;
