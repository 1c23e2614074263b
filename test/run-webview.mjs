// Builds the chat view bundle (the same options as `node esbuild.mjs`, webview only, so a
// half-written host file elsewhere cannot block these tests), bundles test/webview/**/*.test.ts
// and runs them with Node's test runner in headless Chromium.
// Usage: node test/run-webview.mjs [filter-substring]
import * as esbuild from 'esbuild';
import { webviewOptions } from '../esbuild.mjs';
import { buildTests, runNodeTests } from './build-tests.mjs';

const filter = process.argv[2];
await esbuild.build(webviewOptions);
const files = await buildTests(['test/webview'], 'webview', filter);
process.exit(await runNodeTests(files, ['--test-concurrency=1'], 'webview'));
