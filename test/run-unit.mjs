// Bundles every test/unit/**/*.test.ts (and test/arch) with esbuild into dist-test/ and runs them
// with Node's built-in test runner. Usage: node test/run-unit.mjs [filter-substring]
import { buildTests, runNodeTests } from './build-tests.mjs';

const filter = process.argv[2];
const files = await buildTests(['test/unit'], 'unit', filter);
process.exit(await runNodeTests(files, [], 'unit'));
