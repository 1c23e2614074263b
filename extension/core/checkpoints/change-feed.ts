// The port command coverage learns what changed from, so that a command's cost follows what changed and
// not the size of the workspace: a feed of file-change events per workspace folder. The platform's feed
// (platform/watch/) watches every folder that is not ignored, in a worker thread of its own.
//
// A missed change would be a silent loss at Rewind, so a feed never guesses: `take()` answers
// `trusted: false` (and why) whenever its events may be incomplete since the previous `take()` — the
// first take after `watch()`, a watch limit reached, a queue that may have overflowed, a watch that
// failed, events that came late — and the caller scans the whole folder instead.

/** What a folder's watch leaves out: git's ignored paths, or (no git) the default build folders by name. */
export interface FeedIgnore {
  /** Root-relative ignored paths; a folder ends with "/". Absent: `defaultDirs` by name at any depth. */
  paths?: string[];
  defaultDirs: string[];
}

export interface FolderChanges {
  /** True when `paths` holds every change under the folder since the previous `take()`. */
  trusted: boolean;
  /** Why the events cannot be trusted this time, in words (for the log). */
  reason?: string;
  /** Root-relative paths (forward slashes) where something was created, changed, removed or renamed. */
  paths: string[];
}

export interface ChangeFeed {
  /** Watches `root` (a real path), leaving out `ignore`; called again with new rules, it starts over. */
  watch(root: string, ignore: FeedIgnore): void;
  /**
   * The changes under `root` since the previous take. Every change made before the call (a command that
   * has exited) is included: the feed waits until its events are all in.
   */
  take(root: string): Promise<FolderChanges>;
  dispose(): void;
}
