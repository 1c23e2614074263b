// Where the command line keeps its files: `~/.sextant/` (SEXTANT_HOME overrides it, for tests and CI):
//   settings.json  the `sextant.*` settings, as in VS Code's settings.json (keys with or without `sextant.`)
//   config.json    API keys and trusted workspaces (owner-only, 0600: refused when others can read it)
//   state.json     small preferences the engine keeps (the reasoning choice per model, MCP decisions)
//   history/       the session store (--resume, --continue), checkpoints and the audit log
import { chmodSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';

export interface SextantHome {
  dir: string;
  settingsFile: string;
  configFile: string;
  stateFile: string;
  storageDir: string;
}

export function sextantHome(env: Record<string, string | undefined>): SextantHome {
  const dir = env.SEXTANT_HOME?.trim() ? path.resolve(env.SEXTANT_HOME) : path.join(homedir(), '.sextant');
  return {
    dir,
    settingsFile: path.join(dir, 'settings.json'),
    configFile: path.join(dir, 'config.json'),
    stateFile: path.join(dir, 'state.json'),
    storageDir: path.join(dir, 'history'),
  };
}

/** Creates the folder owner-only (it holds sessions that may quote private code). */
export function ensureHome(home: SextantHome): void {
  mkdirSync(home.storageDir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(home.dir, 0o700);
  } catch {
    // not ours to change (a shared mount): the files inside are still written owner-only
  }
}
