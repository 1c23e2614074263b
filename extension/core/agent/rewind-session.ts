// Rewind to here, its Redo, and the fork under edit-and-resend, for the controller's live session.
// Files go back through core/checkpoints (planRewind / applyRewind over the session's turn
// checkpoints); the conversation goes back by journaling `conversation_replaced` records: the
// session keeps what came before the message, and the whole conversation as it was is first written
// as a new session "<title> (earlier branch)", so nothing is lost and Redo can bring it back.
import type { ChatMessage, RewindFileView, RewindPreview, RewindScope } from '../../protocol';
import {
  applyRewind,
  type Checkpoint,
  type CheckpointBlobs,
  type CheckpointFiles,
  type CommandCoverage,
  planRewind,
  type RewindPlan,
  type RewindResult,
} from '../checkpoints';
import type { JournalRecord, RewindRedo, SessionPersistence, TurnCheckpoint } from '../ports';
import type { ModelMessage } from '../providers/types';
import type { LiveSession } from './live-session';

/** Where checkpoints read and write files, and where their bytes are kept. */
export interface CheckpointStorage {
  files: CheckpointFiles;
  blobs: CheckpointBlobs;
  /** Records what the agent's commands change, so a rewind restores it too (absent: not covered). */
  coverage?: CommandCoverage;
}

export interface RewindDeps {
  checkpoints?: CheckpointStorage;
  persistence: SessionPersistence;
  journal(record: JournalRecord): void;
  now(): number;
  newId(): string;
}

/** A rewind that cannot be done, with a message for the user. */
export class RewindError extends Error {
  override name = 'RewindError';
}

export const COMMANDS_NOTE =
  'Commands ran after this message: files they changed are not recorded, so a rewind cannot put them back.';

const BRANCH_SUFFIX = ' (earlier branch)';

interface Located {
  pos: number;
  text: string;
  /** File checkpoints of the session's turns, oldest first, and the last one kept (-1: none). */
  fileCheckpoints: Checkpoint[];
  toIndex: number;
  /** The turn checkpoints of the turns before the message (kept by a conversation rewind). */
  keptTurns: TurnCheckpoint[];
  modelIndex: number;
}

export function userText(m: ChatMessage): string {
  return m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

/** Finds a user message of the session and what rewinding to it undoes. */
function locate(s: LiveSession, messageId: string): Located {
  const pos = s.chat.messages.findIndex((m) => m.id === messageId);
  const message = s.chat.messages[pos];
  if (message?.role !== 'user') throw new RewindError('That message is no longer in this chat.');
  const position = new Map(s.chat.messages.map((m, i) => [m.id, i]));
  const turns = s.checkpoints
    .filter((c) => position.has(c.userMessageId))
    .sort((a, b) => (position.get(a.userMessageId) ?? 0) - (position.get(b.userMessageId) ?? 0));
  const keptTurns = turns.filter((c) => (position.get(c.userMessageId) ?? 0) < pos);
  const fileCheckpoints = turns.flatMap((c) => (c.files ? [c.files] : []));
  const toIndex = keptTurns.filter((c) => c.files).length - 1;
  const own = turns.find((c) => c.userMessageId === messageId);
  return {
    pos,
    text: userText(message),
    fileCheckpoints,
    toIndex,
    keptTurns,
    modelIndex: own?.modelIndex ?? modelIndexByCount(s, pos),
  };
}

/**
 * For turns without a checkpoint record (sessions from before checkpoints): the model history index
 * of the user message with the same rank, or the end of the history when it never got there.
 */
function modelIndexByCount(s: LiveSession, pos: number): number {
  const rank = s.chat.messages.slice(0, pos).filter((m) => m.role === 'user').length;
  let seen = 0;
  for (const [i, m] of s.modelMessages.entries()) {
    if (m.role !== 'user') continue;
    if (seen === rank) return i;
    seen++;
  }
  return s.modelMessages.length;
}

/** Whether a command (an execute tool) ran in the answers after position `pos`. */
function commandsRanAfter(s: LiveSession, pos: number): boolean {
  return s.chat.messages
    .slice(pos + 1)
    .some((m) =>
      m.parts.some(
        (p) => p.type === 'tool' && p.call.kind === 'execute' && !['denied', 'pending'].includes(p.call.status),
      ),
    );
}

/**
 * What the preview says about the undone turns' commands: what their coverage left out (ignored paths,
 * limits), or — for turns recorded before commands were covered — that their changes are not recorded.
 */
function commandsNoteFor(at: Located): string {
  const notes = new Set(at.fileCheckpoints.slice(at.toIndex + 1).flatMap((c) => c.notes ?? []));
  return notes.size ? [...notes].join(' ') : COMMANDS_NOTE;
}

export class SessionRewinder {
  /** The last preview, applied as shown (applyRewind re-checks each file against it). */
  private shown: { sessionId: string; messageId: string; plan: RewindPlan } | undefined;

  constructor(private readonly deps: RewindDeps) {}

  async preview(s: LiveSession, messageId: string): Promise<RewindPreview> {
    const at = locate(s, messageId);
    const plan = await this.planFiles(at);
    this.shown = plan ? { sessionId: s.id, messageId, plan } : undefined;
    const files: RewindFileView[] = (plan?.files ?? []).map((f) => ({
      path: f.displayPath,
      action: f.action,
      changedByUser: f.changedByUser,
      editedBetweenTurns: f.editedBetweenTurns,
      ...(f.reason ? { reason: f.reason } : {}),
    }));
    const fileChanges = files.some((f) => f.action === 'restore' || f.action === 'delete');
    return {
      messageId,
      text: at.text,
      files,
      summary: plan?.summary ?? 'No files were changed by the agent from this message on',
      fileChanges,
      messagesRemoved: s.chat.messages.length - at.pos,
      ...(commandsRanAfter(s, at.pos) ? { commandsNote: commandsNoteFor(at) } : {}),
    };
  }

  /**
   * Rewinds to before `messageId`: files (the agent's changes from that turn on are undone; files the
   * user changed since are kept unless named in `overwrite`), the conversation, or both. Returns the
   * summary and, when the conversation was rewound, the message's text for the composer.
   */
  async rewind(
    s: LiveSession,
    messageId: string,
    scope: RewindScope,
    overwrite: string[],
  ): Promise<{ summary: string; draft?: string }> {
    const at = locate(s, messageId);
    const redo: RewindRedo = { userMessageId: messageId, summary: '', at: this.deps.now() };
    const parts: string[] = [];
    if (scope !== 'conversation') {
      const done = await this.rewindFiles(s, at, messageId, overwrite);
      if (done?.redo.files.length) redo.files = done.redo;
      parts.push(done ? filesSummary(done) : 'no files to rewind');
    }
    if (scope !== 'files') {
      redo.branchSessionId = this.forkConversation(s, at);
      parts.push(
        `the conversation went back to before this message (the rest is in History as “${s.title}${BRANCH_SUFFIX}”)`,
      );
    }
    redo.summary = capitalize(parts.join('; '));
    this.setRedo(s, redo);
    return { summary: redo.summary, ...(scope !== 'files' ? { draft: at.text } : {}) };
  }

  /** Undoes the last rewind: files as they were just before it, and the conversation from its earlier branch. */
  async redo(s: LiveSession): Promise<string> {
    const r = s.redo;
    if (!r) throw new RewindError('There is no rewind to undo.');
    const parts: string[] = [];
    if (r.files) {
      const storage = this.storage();
      const plan = await planRewind([r.files], -1, storage.files, storage.blobs);
      const done = await applyRewind(plan, { turnId: `redo:${r.userMessageId}` }, storage.files, storage.blobs);
      parts.push(filesSummary(done));
    }
    if (r.branchSessionId) {
      const branch = this.deps.persistence.getSession(r.branchSessionId);
      if (!branch) parts.push('the earlier conversation is gone from History, so the conversation stays as it is');
      else {
        this.replace(
          s,
          copyConversation(branch.messages, branch.modelMessages, branch.checkpoints ?? [], this.deps.newId),
        );
        // The branch is back in this chat: its copy leaves History.
        this.deps.journal({
          kind: 'conversation_replaced',
          sessionId: branch.id,
          messages: [],
          modelMessages: [],
          checkpoints: [],
          at: this.deps.now(),
        });
        this.deps.journal({ kind: 'session_deleted', sessionId: branch.id, at: this.deps.now() });
        parts.push('the conversation is back');
      }
    }
    this.setRedo(s, undefined);
    return capitalize(parts.join('; ') || 'nothing to redo');
  }

  /** Forgets the Redo offer (the chat moved on). */
  clearRedo(s: LiveSession): void {
    if (s.redo) this.setRedo(s, undefined);
  }

  private setRedo(s: LiveSession, redo: RewindRedo | undefined): void {
    s.redo = redo;
    this.deps.journal({ kind: 'rewind_state', sessionId: s.id, redo: redo ?? null, at: this.deps.now() });
  }

  private storage(): CheckpointStorage {
    if (!this.deps.checkpoints) throw new RewindError('Files cannot be rewound here (no checkpoint storage).');
    return this.deps.checkpoints;
  }

  private async planFiles(at: Located): Promise<RewindPlan | undefined> {
    const storage = this.deps.checkpoints;
    if (!storage || at.fileCheckpoints.length === 0) return undefined;
    return planRewind(at.fileCheckpoints, at.toIndex, storage.files, storage.blobs);
  }

  private async rewindFiles(
    s: LiveSession,
    at: Located,
    messageId: string,
    overwrite: string[],
  ): Promise<RewindResult | undefined> {
    const shown = this.shown;
    this.shown = undefined;
    const plan = shown?.sessionId === s.id && shown.messageId === messageId ? shown.plan : await this.planFiles(at);
    if (!plan) return undefined;
    const storage = this.storage();
    return applyRewind(
      plan,
      { overwriteUserChanges: overwrite, turnId: `rewind:${messageId}`, now: this.deps.now },
      storage.files,
      storage.blobs,
    );
  }

  /** Writes the whole conversation as a new session (the earlier branch) and cuts this one before `at`. */
  private forkConversation(s: LiveSession, at: Located): string {
    const branchId = this.deps.newId();
    const now = this.deps.now();
    this.deps.journal({
      kind: 'session_created',
      sessionId: branchId,
      title: `${s.title}${BRANCH_SUFFIX}`,
      mode: s.mode,
      model: s.model,
      at: now,
    });
    this.deps.journal({
      kind: 'conversation_replaced',
      sessionId: branchId,
      ...copyConversation(s.chat.messages, s.modelMessages, s.checkpoints, this.deps.newId),
      at: now,
    });
    this.replace(s, {
      messages: s.chat.messages.slice(0, at.pos),
      modelMessages: s.modelMessages.slice(0, at.modelIndex),
      checkpoints: at.keptTurns,
    });
    return branchId;
  }

  private replace(
    s: LiveSession,
    c: { messages: ChatMessage[]; modelMessages: ModelMessage[]; checkpoints: TurnCheckpoint[] },
  ): void {
    this.deps.journal({ kind: 'conversation_replaced', sessionId: s.id, ...c, at: this.deps.now() });
    s.chat.messages = c.messages;
    s.chat.requests = {};
    s.modelMessages = c.modelMessages;
    s.checkpoints = c.checkpoints;
  }
}

/**
 * A copy of a conversation under fresh message ids (message ids are unique across sessions), with
 * the turn checkpoints pointing at the copies.
 */
function copyConversation(
  messages: ChatMessage[],
  modelMessages: ModelMessage[],
  checkpoints: TurnCheckpoint[],
  newId: () => string,
): { messages: ChatMessage[]; modelMessages: ModelMessage[]; checkpoints: TurnCheckpoint[] } {
  const ids = new Map<string, string>();
  const copied = messages.map((m) => {
    const id = newId();
    ids.set(m.id, id);
    return { ...structuredClone(m), id };
  });
  return {
    messages: copied,
    modelMessages: structuredClone(modelMessages),
    checkpoints: checkpoints.flatMap((c) => {
      const id = ids.get(c.userMessageId);
      return id ? [{ ...structuredClone(c), userMessageId: id }] : [];
    }),
  };
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function filesSummary(r: RewindResult): string {
  const parts: string[] = [];
  if (r.restored.length) parts.push(`restored ${plural(r.restored.length, 'file')}`);
  if (r.deleted.length) parts.push(`deleted ${plural(r.deleted.length, 'file')}`);
  if (r.kept.length) parts.push(`kept ${plural(r.kept.length, 'file')} you changed`);
  if (r.skipped.length) parts.push(`could not rewind ${plural(r.skipped.length, 'file')}`);
  if (r.failed.length) parts.push(`failed on ${r.failed.map((f) => f.path).join(', ')}`);
  return parts.length ? parts.join(', ') : 'no files needed to change';
}

function capitalize(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
