// A second extension installed beside Sextant: test/e2e/fixtures/lm-tool-extension, which registers a
// language-model tool (scenarios/lm-tools.ts). Packed into a VSIX with vsce's own API — the same packer
// `npm run package` uses — then installed with `code-server --install-extension`, like Sextant's VSIX.
import { join } from 'node:path';
import { installExtension, type CodeServerDirs } from './code-server';
import type { Toolchain } from './paths';

/** vsce ships no type declarations: the one function used, as its JavaScript takes it. */
const { createVSIX } = require('@vscode/vsce') as {
  createVSIX(options: Record<string, unknown>): Promise<unknown>;
};

export const LM_TOOL_EXTENSION_DIR = join('test', 'e2e', 'fixtures', 'lm-tool-extension');

export async function installLmToolExtension(root: string, tc: Toolchain, dirs: CodeServerDirs, outDir: string) {
  const packagePath = join(outDir, 'sextant-e2e-lm-tool.vsix');
  await createVSIX({
    cwd: join(root, LM_TOOL_EXTENSION_DIR),
    packagePath,
    dependencies: false,
    allowMissingRepository: true,
    skipLicense: true,
  });
  await installExtension(tc, dirs, packagePath);
}
