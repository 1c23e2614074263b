// The `@` references service the view's handlers use: reading a message's references, and the files and
// folders the listbox offers.
import type { Reference } from '../../../protocol';
import { FileCandidates } from './candidates';
import { resolveReferences } from './resolve';
import type { ReferenceServices } from './types';

export function referencesFor(services: ReferenceServices) {
  const files = new FileCandidates(services.workspace, services.ripgrepPath);
  return {
    resolve: (refs: readonly Reference[]) => resolveReferences(refs, services),
    candidates: (query: string) => files.find(query),
  };
}
