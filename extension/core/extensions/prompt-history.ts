// The user's prompts in this workspace, across chats and reloads, for Up/Down in the composer: the last
// 200, oldest first, a prompt repeated right after itself kept once. Kept by the host (workspace state),
// since the view's own state ends with the view.
export const PROMPT_HISTORY_SIZE = 200;

export interface PromptHistoryStorage {
  read(): unknown;
  write(prompts: string[]): void;
}

export class PromptHistory {
  constructor(private readonly storage: PromptHistoryStorage) {}

  list(): string[] {
    const v = this.storage.read();
    return Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string').slice(-PROMPT_HISTORY_SIZE) : [];
  }

  add(prompt: string): string[] {
    const text = prompt.trim();
    const list = this.list();
    if (!text || list.at(-1) === text) return list;
    const next = [...list.filter((p) => p !== text), text].slice(-PROMPT_HISTORY_SIZE);
    this.storage.write(next);
    return next;
  }
}
