// Where the end-to-end toolchain lives. The versions are pinned in test/e2e/setup (which installs
// them); this file only finds them and explains what to do when they are missing.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const NODE_VERSION = '24.9.0';
export const CODE_SERVER_VERSION = '4.139.1';

export interface Toolchain {
  /** Node 24 binary that runs code-server (code-server 4.139.1 does not run on Node 20). */
  node: string;
  /** code-server's entry script (`out/node/entry.js`). */
  codeServer: string;
}

export function cacheDir(root: string): string {
  return process.env.SEXTANT_E2E_CACHE ?? join(root, '.vscode-test');
}

/** Finds the toolchain installed by test/e2e/setup, or throws an error telling the user to run it. */
export function findToolchain(root: string): Toolchain {
  const cache = cacheDir(root);
  const node = join(cache, `node-v${NODE_VERSION}`, 'bin', 'node');
  const csDir = join(cache, `code-server-${CODE_SERVER_VERSION}`);
  const codeServer = join(csDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  if (!existsSync(node) || !existsSync(codeServer) || !existsSync(join(csDir, '.sextant-setup-ok'))) {
    throw new Error(
      `code-server ${CODE_SERVER_VERSION} (with Node ${NODE_VERSION}) is not installed in ${cache}.\n` +
        `  Run once: test/e2e/setup   (needs pkg-config and libkrb5-dev; takes a few minutes)`,
    );
  }
  return { node, codeServer };
}

export { CHROMIUM_ARGS, findChromium } from '../../fixtures/chromium';
