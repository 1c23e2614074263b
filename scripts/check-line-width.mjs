// Fails when a source line is longer than the formatter's width, listing each as file:line.
// Biome wraps code at 120 columns but leaves long strings, comments and template literals alone;
// this catches those. Files: tracked *.ts, *.mjs, *.js outside sample-workspace/ (git ls-files);
// without git, the same extensions found by walking the tree (skipping dot folders, node_modules
// and build output).
// Usage: node scripts/check-line-width.mjs [--max 120]
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const maxArg = process.argv.indexOf('--max');
const max = maxArg >= 0 ? Number(process.argv[maxArg + 1]) : 120;
const SOURCE = /\.(ts|mjs|js)$/;
const EXCLUDED_DIRS = new Set(['node_modules', 'sample-workspace', 'dist', 'dist-test', 'dist-vsix', 'test-results']);

function trackedFiles() {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--', '*.ts', '*.mjs', '*.js'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
    return out.split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
}

function walkedFiles() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!EXCLUDED_DIRS.has(entry.name)) walk(full);
      } else if (entry.isFile() && SOURCE.test(entry.name)) {
        files.push(relative(root, full).split(sep).join('/'));
      }
    }
  };
  walk(root);
  return files;
}

const files = (trackedFiles() ?? walkedFiles()).filter((f) => SOURCE.test(f) && !f.startsWith('sample-workspace/'));
const long = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(join(root, file), 'utf8');
  } catch {
    continue; // tracked but deleted in the work tree
  }
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    // Code points, not UTF-16 units: '—' or '…' count as one column.
    const width = [...lines[i]].length;
    if (width > max) long.push(`${file}:${i + 1}: ${width} > ${max} columns`);
  }
}

if (long.length) {
  console.error(long.join('\n'));
  console.error(`\n${long.length} line(s) longer than ${max} columns in ${files.length} files. Wrap them.`);
  process.exit(1);
}
console.log(`line width: ${files.length} files, every line ≤ ${max} columns`);
