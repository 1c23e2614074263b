// The `@` references service the view's handlers use: reading a message's references, and the files and
// folders the listbox offers.
import type { Reference } from '../../../protocol';
import { judgeCall } from '../../agent/permission-gate';
import type { MayRead } from '../untracked-files';
import { FileCandidates } from './candidates';
import { resolveReferences } from './resolve';
import type { ReferenceServices } from './types';

export function referencesFor(services: ReferenceServices) {
  const files = new FileCandidates(services.workspace, services.ripgrepPath);
  return {
    resolve: (refs: readonly Reference[]) => resolveReferences(refs, services),
    candidates: (query: string) => files.find(query),
    mayRead: quietReads(services),
  };
}

/**
 * Whether read_file would read a path without asking (the same gate): /review's untracked files are
 * read only then — a deny or an ask leaves the file named but unread, and nothing asks the user.
 */
function quietReads(services: ReferenceServices): MayRead {
  return async (abs) => {
    if (!services.permissions) return { ok: false, reason: 'no permission policy to judge the read' };
    const d = await judgeCall(
      services.permissions,
      { tool: 'read_file', kind: 'read', input: { file_path: abs } },
      services.workspace,
    );
    return d.decision === 'allow' ? { ok: true } : { ok: false, reason: d.reason };
  };
}
