// Prints the documentation's broken relative links, anchors and images (scripts/docs/links.mjs) and
// exits 1 when there are any. The unit suite runs the same check (test/unit/docs/links.test.ts).
//   node scripts/check-links.mjs
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brokenLinks, documentationFiles, formatProblems } from './docs/links.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const files = documentationFiles(root);
const problems = brokenLinks(root, files);
if (problems.length > 0) {
  console.error(formatProblems(problems));
  console.error(`${problems.length} broken link(s) in ${files.length} files`);
  process.exit(1);
}
console.log(`links: ${files.length} files, every relative link, anchor and image resolves`);
