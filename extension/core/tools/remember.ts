// remember: the agent proposes a memory — a short fact worth knowing in every later chat ("this repo uses
// pnpm", "tests need `make db` first") — and the user keeps it (as proposed or edited, in the workspace's
// or their own memory file) or drops it on a card. The model chooses neither the file nor its path: only
// the text and which of the two files it suggests (core/extensions/memory-file.ts fixes both paths).
// Nothing is written without the user's Keep; a memory that looks like a secret is refused before the
// card is even shown, and again when the edited text is kept.
import * as z from 'zod';
import { MEMORY_MAX_CHARS } from '../../protocol';
import { appendMemory, memoryLabels, memoryRefusal, memoryTargets } from '../extensions/memory-file';
import { defineTool, errorResult } from './types';

const input = z.object({
  memory: z
    .string()
    .min(1)
    .max(MEMORY_MAX_CHARS)
    .describe('One fact, one line, in plain words: "This repo uses pnpm, not npm."'),
  scope: z
    .enum(['workspace', 'user'])
    .optional()
    .describe('"workspace" (default): true of this project. "user": a preference of the user in every project.'),
  reason: z.string().max(500).optional().describe('Why it is worth keeping (one short line, shown to the user).'),
});

/** The tool, with the user's home folder (for `~/.sextant/memory.md`) as the host knows it. */
export function createRememberTool(home: () => string | undefined) {
  return defineTool({
    name: 'remember',
    kind: 'read',
    permission: { subject: 'text', text: (i) => i.memory },
    modes: ['agent', 'plan'],
    description: [
      'Proposes a memory: a short fact that will help in every later chat in this project (how to build or test,',
      'a convention, a command that must run first) or a standing preference the user stated.',
      'The user reviews it on a card and keeps, edits or drops it; kept memories are added to the rules of every',
      'request. Propose one only for something durable you learned that is not already in the rules files, at',
      'most a few per session. Never include secrets, keys, passwords or personal data.',
    ].join(' '),
    input,
    subject: (i) => i.memory,
    async execute(i, ctx) {
      const memoryPort = ctx.ports.memory;
      if (!memoryPort)
        return errorResult(
          'Memories cannot be reviewed here (no one to ask); mention the fact in your answer instead.',
        );
      const redact = ctx.ports.redact;
      const refused = memoryRefusal(i.memory, redact);
      if (refused) return errorResult(refused);
      const at = home();
      const targets = memoryTargets(ctx.ports.workspace.roots(), at);
      const files = memoryLabels(targets);
      const suggested = i.scope ?? 'workspace';
      const scope = files[suggested] ? suggested : files.workspace ? 'workspace' : 'user';
      if (!files[scope])
        return errorResult('No memory file is available here (no workspace folder and no home folder).');
      let reply: Awaited<ReturnType<typeof memoryPort.propose>>;
      try {
        reply = await memoryPort.propose(
          {
            callId: ctx.callId,
            sessionId: ctx.session.sessionId,
            memory: { text: i.memory.trim(), scope, files, ...(i.reason ? { reason: i.reason } : {}) },
          },
          ctx.signal,
        );
      } catch (e) {
        return errorResult(
          ctx.signal.aborted
            ? 'The memory was not kept (the request was stopped).'
            : `Not kept: ${(e as Error).message}`,
        );
      }
      if (reply.decision === 'drop') {
        const text = 'The user dropped this memory; it was not kept. Do not propose it again in this chat.';
        return { forModel: text, forUi: 'Dropped.', isError: false };
      }
      const written = await appendMemory(
        ctx.ports.workspace,
        { roots: ctx.ports.workspace.roots(), home: at },
        reply.scope,
        reply.text,
        redact,
      );
      if (!written.ok) return errorResult(written.message);
      const edited = reply.text.trim() !== i.memory.trim() ? ' (as the user edited it)' : '';
      const text = `Kept in ${written.label}${edited}: ${reply.text.trim()}`;
      return { forModel: `${text}\nIt is in the rules of every request from now on.`, forUi: text, isError: false };
    },
  });
}
