// Stands in for the session store when it cannot be opened (e.g. a database from a newer Sextant,
// which is refused and left untouched): the chat keeps working, nothing is saved or listed.
import type { SessionStore } from '../core/store';

export function unavailableStore(): SessionStore {
  return {
    append: () => {},
    getSession: () => undefined,
    listSessions: () => [],
    flush: async () => {},
    close: async () => {},
    searchMemory: async () => [],
    exportSession: () => undefined,
    setEmbedder: () => {},
  };
}
