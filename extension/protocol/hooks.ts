// Hooks as the webview sees them: the workspace's hooks waiting for the user's approval (each command
// in full, with its event, matcher and file), and problems in the hook configuration.
import * as z from 'zod';

export const HookViewSchema = z.object({
  event: z.string(),
  matcher: z.string(),
  /** Claude Code's `if` (a permission rule scoping the hook), when it has one. */
  if: z.string().optional(),
  command: z.string(),
  timeoutS: z.number(),
  /** The file it comes from. */
  source: z.string(),
});
export type HookView = z.infer<typeof HookViewSchema>;

export const HooksViewSchema = z.object({
  /** The workspace's hooks and whether they run: absent when the workspace has none. */
  workspace: z
    .object({
      hash: z.string(),
      state: z.enum(['approved', 'denied', 'pending', 'untrusted']),
      /** Pending because they changed since the user approved them. */
      changed: z.boolean(),
      hooks: z.array(HookViewSchema),
    })
    .optional(),
  problems: z.array(z.string()),
});
export type HooksView = z.infer<typeof HooksViewSchema>;
