// Where the managed settings file is and reading it (managed-settings.ts says what it holds). One file per
// machine, writable only by an administrator:
//   Linux    /etc/sextant/managed-settings.json
//   macOS    /Library/Application Support/Sextant/managed-settings.json
//   Windows  %ProgramData%\Sextant\managed-settings.json
// Both hosts — the extension and the command line — read it through this module.
//
// SEXTANT_MANAGED_SETTINGS_FILE names one more file, for tests only (the end-to-end suite points
// code-server at one). It adds to the machine's file and never replaces it: both are read and every
// restriction of either holds, so setting the variable cannot loosen anything.
//
// Read again when its size or modification time changes, so an administrator's edit applies without a
// restart. A file that exists but cannot be read or understood fails closed (managed-settings.ts).
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { type ManagedState, mergeManaged, NO_MANAGED, parseManagedSettings } from './managed-settings';

/** The environment variable that adds a managed file — for tests; it cannot loosen the machine's file. */
export const MANAGED_FILE_TEST_ENV = 'SEXTANT_MANAGED_SETTINGS_FILE';

/** The machine-wide managed settings file of a platform. */
export function machineManagedFile(
  platform: NodeJS.Platform = process.platform,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  if (platform === 'win32')
    return path.win32.join(env.ProgramData || env.PROGRAMDATA || 'C:\\ProgramData', 'Sextant', 'managed-settings.json');
  if (platform === 'darwin') return '/Library/Application Support/Sextant/managed-settings.json';
  return '/etc/sextant/managed-settings.json';
}

/** A managed file larger than this is an error (a policy is a few lines). */
const MAX_BYTES = 1_000_000;

export class ManagedSettingsFiles {
  private cache = new Map<string, { stamp: string; state: ManagedState }>();

  constructor(private readonly files: readonly string[]) {}

  /** The machine's file and, when the test variable is set, that one too. */
  static forThisMachine(env: Readonly<Record<string, string | undefined>> = process.env): ManagedSettingsFiles {
    const extra = env[MANAGED_FILE_TEST_ENV]?.trim();
    return new ManagedSettingsFiles([machineManagedFile(process.platform, env), ...(extra ? [extra] : [])]);
  }

  /** The managed settings in effect now (cheap: a stat per file, a read only when one changed). */
  readonly current = (): ManagedState => mergeManaged(this.files.map((f) => this.read(f)));

  private read(file: string): ManagedState {
    let stamp: string;
    try {
      const st = statSync(file);
      if (!st.isFile()) return { error: `${file} is not a regular file` };
      if (st.size > MAX_BYTES) return { error: `${file} is over 1 MB` };
      stamp = `${st.size}:${st.mtimeMs}:${st.ino}`;
    } catch (err) {
      // No file: nothing is managed. Any other failure (no permission to read it) fails closed.
      if ((err as { code?: string }).code === 'ENOENT' || (err as { code?: string }).code === 'ENOTDIR')
        return NO_MANAGED;
      return { error: `${file} could not be read (${(err as Error).message})` };
    }
    const cached = this.cache.get(file);
    if (cached?.stamp === stamp) return cached.state;
    let state: ManagedState;
    try {
      state = parseManagedSettings(readFileSync(file, 'utf8'), file);
    } catch (err) {
      state = { error: `${file} could not be read (${(err as Error).message})` };
    }
    this.cache.set(file, { stamp, state });
    return state;
  }
}
