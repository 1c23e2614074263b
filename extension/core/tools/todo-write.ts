// todo_write: the session's task list, replaced whole on each call and rendered live in the chat.
import * as z from 'zod';
import { defineTool } from './types';
import type { Todo } from '../../protocol';

const item = z.object({
  id: z.string().optional().describe('Stable id; keep it when updating an item (generated when absent).'),
  content: z.string().min(1).describe('What to do, in the imperative ("Add tests for the parser").'),
  status: z.enum(['pending', 'in_progress', 'completed']),
});

const input = z.object({
  todos: z
    .array(item)
    .describe('The complete, updated list (it replaces the previous one).')
    .refine((t) => t.filter((x) => x.status === 'in_progress').length <= 1, {
      message: 'At most one todo may be in_progress at a time; mark the others pending or completed.',
    }),
});

const MARK: Record<Todo['status'], string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };

export const todoWriteTool = defineTool({
  name: 'todo_write',
  kind: 'read',
  permission: { subject: 'text', text: (i) => i.todos.map((t) => t.content).join('\n') },
  modes: ['agent'],
  description: [
    'Creates or updates your task list for this session; the user sees it live. Send the whole list each time.',
    'Use it for work with 3 or more steps: add the steps, mark exactly one in_progress before starting it, and mark',
    'it completed as soon as it is done (not in batches).',
    'Skip it for a single trivial task.',
  ].join(' '),
  input,
  subject: (i) => `${i.todos.length} todos`,
  async execute(i, ctx) {
    const used = new Set(i.todos.map((t) => t.id).filter(Boolean));
    let n = 0;
    const todos: Todo[] = i.todos.map((t) => {
      let id = t.id;
      if (!id) {
        do id = `t${++n}`;
        while (used.has(id));
        used.add(id);
      }
      return { id, content: t.content, status: t.status };
    });
    ctx.session.todos = todos;
    ctx.todosChanged?.(todos);
    const done = todos.filter((t) => t.status === 'completed').length;
    const list = todos.map((t) => `${MARK[t.status]} ${t.content} (${t.id})`).join('\n');
    const text = `Todo list updated (${done}/${todos.length} completed):\n${list}`;
    return { forModel: text, forUi: text, isError: false };
  },
});
