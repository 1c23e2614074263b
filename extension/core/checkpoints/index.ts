// Checkpoints and rewind: see README.md in this folder.
export type { CheckpointBlobs, FileBlobsOptions } from './blobs';
export { FileCheckpointBlobs, MemoryCheckpointBlobs, sha256Hex } from './blobs';
export { localFileOps, withLocalFileOps } from './local';
export type { BeforeWriteResult, RecorderOptions } from './recorder';
export { CheckpointRecorder } from './recorder';
export type { ApplyRewindOptions, RewindCounts, RewindFile, RewindPlan, RewindResult } from './rewind';
export { applyRewind, planRewind } from './rewind';
export type { Checkpoint, CheckpointFiles, CheckpointOptions, FileState, FileVersion, SkippedFile } from './types';
export { CheckpointSchema, DEFAULT_MAX_FILE_BYTES, RewindRedoSchema, TurnCheckpointSchema } from './types';
export type { CommandChanges, CommandCoverageOptions, CommandWatch, ScanReport } from './command-coverage';
export type { ChangeFeed, FeedIgnore, FolderChanges } from './change-feed';
export { checkpointStorage, CommandCoverage, IGNORED_NOTE } from './command-coverage';
