// `npm run test:electron`: runs the extension-host suite in a downloaded VS Code desktop build through
// @vscode/test-electron. For machines that can download VS Code (a developer's laptop, CI with internet);
// `npm test` does not use it — the code-server suite (test/e2e) is the one every machine runs.
// Usage: node test/electron/run.mjs [--vscode-version 1.95.0|stable]
import { bundleForNode } from '../../scripts/bundle-node.mjs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const argv = process.argv.slice(2);
const versionArg = argv.indexOf('--vscode-version');
const version = versionArg >= 0 ? argv[versionArg + 1] : 'stable';

const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const suite = join(root, 'dist-test', 'electron', 'suite.cjs');
await bundleForNode({ entry: join(root, 'test/electron/suite/index.ts'), outfile: suite });

const { runTests, downloadAndUnzipVSCode } = await import('@vscode/test-electron');
let executable;
try {
  executable = await downloadAndUnzipVSCode({ version, timeout: 60_000 });
} catch (err) {
  console.log(
    `[test:electron] SKIPPED: VS Code ${version} could not be downloaded here ` +
      `(${err instanceof Error ? err.message : err}).`,
  );
  console.log(
    '[test:electron] This suite needs internet access to update.code.visualstudio.com; `npm test` runs the ' +
      'code-server suite instead.',
  );
  process.exit(0);
}
try {
  await runTests({
    vscodeExecutablePath: executable,
    extensionDevelopmentPath: root,
    extensionTestsPath: suite,
    launchArgs: [join(root, 'sample-workspace'), '--disable-extensions', '--disable-workspace-trust'],
  });
} catch (err) {
  console.error(`[test:electron] FAILED: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
