// Repositories that already exist inside the workspace (a vendored checkout `vendor/lib/.git`, a
// sub-project, a submodule in the old layout, a `.git` file pointing elsewhere): the box gives each
// the treatment the workspace's own `.git` gets (core/sandbox/box-plan.ts), since git on the host runs
// what their config and hooks name as readily. Finding them takes a walk of the workspace, which every
// release already does (new-repositories.ts): the first box of a window walks, and each release's walk
// refreshes the list, so a command pays for no walk of its own. The price: a repository made on the
// host (not by a boxed command) after the last release is not guarded by the next command's box — the
// guide says so (docs/guide/sandbox.md).
import { dirname } from 'node:path';
import { gitEntriesBelow } from './new-repositories';

export class NestedRepositories {
  private readonly known = new Map<string, readonly string[]>();

  /** Folders below `root` (a writable root) that hold a `.git` — walked once, then as the last walk saw them. */
  below(root: string): readonly string[] {
    let folders = this.known.get(root);
    if (!folders) {
      folders = gitEntriesBelow(root).map((g) => dirname(g.path));
      this.known.set(root, folders);
    }
    return folders;
  }

  /** What a release's walk found below `root`, after putting aside the repositories its command made. */
  refresh(root: string, folders: readonly string[]): void {
    this.known.set(root, [...folders]);
  }
}
