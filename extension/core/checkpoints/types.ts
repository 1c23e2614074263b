// The data of checkpoints and rewind: small, JSON-serialisable records (hashes, never bytes) that
// the session store can journal as they are, and the file operations they need from the host.
import * as z from 'zod';
import type { WorkspacePort } from '../ports';

/** Files larger than this are not copied into a checkpoint; they are listed as skipped instead. */
export const DEFAULT_MAX_FILE_BYTES = 20 * 1024 * 1024;

/** What a file was at one moment: whether it existed and, if so, the SHA-256 of its bytes. */
export interface FileVersion {
  existed: boolean;
  /** SHA-256 (hex) of the bytes; absent when the file did not exist or was too large to read. */
  hash?: string;
}

/** One file a turn changed: its state before the first change (bytes in the blob store) and after the turn. */
export interface FileState extends FileVersion {
  /** Absolute real path (symbolic links resolved) at the time of the checkpoint. */
  path: string;
  /** Permission bits (POSIX) before the change, when the host reports them. */
  mode?: number;
  /** Size in bytes before the change. */
  size?: number;
  /** The state when the turn finished — to tell later whether the user changed the file since. */
  after?: FileVersion;
}

/** A file the recorder was asked about but did not record, and why. */
export interface SkippedFile {
  path: string;
  reason: string;
}

export interface Checkpoint {
  version: 1;
  id: string;
  createdAt: number;
  turnId: string;
  /** 'turn': taken before an agent turn; 'redo': taken by a rewind, to undo that rewind. */
  kind: 'turn' | 'redo';
  files: FileState[];
  skipped: SkippedFile[];
  /** What the turn's command coverage left out (ignored paths, limits), for the rewind preview. */
  notes?: string[];
}

const hashSchema = z.string().regex(/^[0-9a-f]{64}$/);
const versionSchema = z.object({ existed: z.boolean(), hash: hashSchema.optional() });

/** For checkpoints read back from storage: `CheckpointSchema.parse(unknown)`. */
export const CheckpointSchema = z.object({
  version: z.literal(1),
  id: z.string().min(1),
  createdAt: z.number(),
  turnId: z.string(),
  kind: z.enum(['turn', 'redo']),
  files: z.array(
    versionSchema.extend({
      path: z.string().min(1),
      mode: z.number().int().nonnegative().optional(),
      size: z.number().nonnegative().optional(),
      after: versionSchema.optional(),
    }),
  ),
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
  notes: z.array(z.string()).optional(),
});

/**
 * The file operations checkpoints need: the workspace port's (a `WorkspacePort` fits) plus optional
 * extras the port does not have. Without `deleteFile`, a rewind cannot remove files a turn created
 * (they are skipped with a reason); without the mode functions, permission bits are not kept.
 */
export interface CheckpointFiles extends Pick<WorkspacePort, 'roots' | 'readFile' | 'writeFile' | 'stat' | 'realPath'> {
  extraWriteRoots?(): string[];
  deleteFile?(absPath: string): Promise<void>;
  fileMode?(absPath: string): Promise<number | undefined>;
  setFileMode?(absPath: string, mode: number): Promise<void>;
  /**
   * The file's kind, size, mode and (a regular file within `maxBytes`) bytes in one call, when the host
   * can read it at once (local disk, small file); undefined means "ask the port the slow way".
   */
  readNow?(absPath: string, maxBytes: number): FileNow | undefined;
}

/** What `readNow` saw: no file, something else, a file too large to read, or a file and its bytes. */
export type FileNow =
  | { kind: 'missing' }
  | { kind: 'other'; type: string }
  | { kind: 'large'; size: number }
  | { kind: 'file'; bytes: Uint8Array; mode: number | undefined };

export interface CheckpointOptions {
  /** Default DEFAULT_MAX_FILE_BYTES (20 MB). */
  maxFileBytes?: number;
  /** Clock, for tests. Default Date.now. */
  now?: () => number;
  /** Id generator, for tests. Default crypto.randomUUID. */
  newId?: () => string;
}

/** A turn checkpoint as the store keeps it (`TurnCheckpoint` in core/ports.ts), for reading it back. */
export const TurnCheckpointSchema = z.object({
  userMessageId: z.string().min(1),
  requestId: z.string(),
  modelIndex: z.number().int().nonnegative(),
  files: CheckpointSchema.optional(),
});

/** The Redo state of a session (`RewindRedo` in core/ports.ts), for reading it back. */
export const RewindRedoSchema = z.object({
  userMessageId: z.string().min(1),
  summary: z.string(),
  branchSessionId: z.string().optional(),
  files: CheckpointSchema.optional(),
  at: z.number(),
});
