// The read tool the engine benches call: instant, returning `lines` lines of code for any path (the cost
// measured is the harness's, never a disk's).
import { z } from 'zod';
import { defineTool } from '../../extension/core/tools/types';

export function peekTool(lines: number) {
  return defineTool({
    name: 'peek',
    description: 'Reads a file.',
    kind: 'read',
    input: z.object({ path: z.string() }),
    permission: { subject: 'path', paths: (i) => [i.path] },
    modes: ['agent'],
    subject: (i) => i.path,
    execute: async (i) => {
      const text = `contents of ${i.path}\n${'const x = 1; // a line of code\n'.repeat(lines)}`;
      return { forModel: text, forUi: text, isError: false };
    },
  });
}
