// A request's file checkpoints: a recorder for a turn whose tools may write (when checkpoints are
// stored), the hook every writer calls before it changes a file, and the record of what changed.
import type { Mode } from '../../protocol';
import { CheckpointRecorder } from '../checkpoints';
import type { TurnCheckpoint } from '../ports';
import { errorText } from '../util/error-text';
import type { ChatServices } from './chat-services';
import type { CurrentChat } from './current-chat';

export class TurnCheckpoints {
  private constructor(
    private readonly recorder: CheckpointRecorder,
    private readonly services: ChatServices,
  ) {}

  /** A recorder for the turn, or undefined when nothing is stored or the mode has no tools. */
  static forTurn(services: ChatServices, requestId: string, mode: Mode): TurnCheckpoints | undefined {
    const storage = services.tools.checkpoints;
    if (!storage || !services.tools.toolsFor(mode)) return undefined;
    const { now, newId } = services.host;
    const recorder = new CheckpointRecorder(storage.files, storage.blobs, {
      turnId: requestId,
      ...(storage.coverage ? { coverage: storage.coverage } : {}),
      now,
      newId,
    });
    return new TurnCheckpoints(recorder, services);
  }

  readonly beforeWrite = async (absPath: string): Promise<void> => {
    const r = await this.recorder.beforeWrite(absPath);
    // The write goes ahead: the rewind preview names the file as one it cannot put back.
    if (!r.recorded) this.services.host.log.warn(`checkpoint: ${absPath} not saved before the write: ${r.reason}`);
  };

  /** Called by every tool that runs a command, before it starts; the result once it ended (the files it changed). */
  readonly beforeCommand = (): Promise<() => Promise<readonly string[]>> => this.recorder.beforeCommand();

  /** Journals the files a turn changed (hashes; the bytes are already in the blob store). Once per turn. */
  async save(chat: CurrentChat, sessionId: string, turn: TurnCheckpoint): Promise<void> {
    if (turn.files) return;
    try {
      const files = await this.recorder.finish();
      if (!files.files.length && !files.skipped.length && !files.notes?.length) return;
      turn.files = files;
      chat.journal({ kind: 'turn_checkpoint', sessionId, checkpoint: turn, at: this.services.host.now() });
    } catch (err) {
      this.services.host.log.error(`checkpoint: could not finish: ${errorText(err)}`);
    }
  }
}
