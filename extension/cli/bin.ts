// The `sextant` command's entry (dist/cli.js, `#!/usr/bin/env node`): a small launcher. It loads the
// command's bundle (dist/cli-main.js, built from run.ts) with its compiled code cached under
// SEXTANT_HOME (code-cache.ts) and runs it. A cold `sextant -p` pays for every byte it parses and every
// module it evaluates before its request leaves: this file is only what must come first.
import * as path from 'node:path';
import { homedir } from 'node:os';
import { requireCached } from './code-cache';
import { startStartupTrace } from './startup-trace';

startStartupTrace(process.env);

// Set by esbuild.mjs from package.json (importing package.json would bundle all of it).
declare const SEXTANT_VERSION: string | undefined;
const version = typeof SEXTANT_VERSION === 'string' ? SEXTANT_VERSION : '0.0.0-dev';

// The same folder home.ts resolves (SEXTANT_HOME, else ~/.sextant); only the cache is made here.
const home = process.env.SEXTANT_HOME?.trim()
  ? path.resolve(process.env.SEXTANT_HOME)
  : path.join(homedir(), '.sextant');
const { runCli } = requireCached(path.join(__dirname, 'cli-main.js'), path.join(home, 'cache'), process.env) as {
  runCli: typeof import('./run').runCli;
};
runCli({ version, bundleDir: __dirname });
