// The `task` tool's declaration: the model delegates a piece of work to a sub-agent, which runs with
// a context of its own and returns only its summary. What the modes and the permission policy read;
// the running part is built per request in core/agent/task-tool.ts (it needs the turn loop).
import * as z from 'zod';
import type { ToolDefinition } from './types';

export const taskInput = z.object({
  description: z.string().min(1).max(200).describe('A short (3-8 word) title of the task, shown on its card'),
  prompt: z
    .string()
    .min(1)
    .describe(
      'Everything the sub-agent needs to know: it does not see this conversation. Say what to find or do and ' +
        'what to report back.',
    ),
  subagent_type: z.string().min(1).describe('The name of the sub-agent to run (one of those listed)'),
});
export type TaskInput = z.infer<typeof taskInput>;

/** Everything about `task` but its running part. Its calls only start sub-agents, whose own calls are judged. */
export const taskDeclaration = {
  name: 'task',
  kind: 'read',
  permission: { subject: 'text', text: (i: TaskInput) => `${i.subagent_type}: ${i.description}` },
  modes: ['agent', 'plan'],
  description: [
    'Delegates a task to a sub-agent that works with its own context and tools and returns only its final',
    'summary (and the files it read and changed), so your context stays small. Use it for searches across',
    'many files, research, or reviews. Several task calls in one step run in parallel. The sub-agent cannot',
    'see this conversation: put everything it needs in the prompt.',
  ].join(' '),
  input: taskInput,
  subject: (i: TaskInput) => `${i.subagent_type}: ${i.description}`,
} satisfies Omit<ToolDefinition<typeof taskInput>, 'execute'>;
