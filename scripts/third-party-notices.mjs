// The third-party notices shipped in the VSIX (dist/THIRD-PARTY-NOTICES.md): every npm package whose code
// esbuild put into a bundle, with its version, its licence's name, where its source is, and the licence
// text it ships. Built from the bundles' metafiles, so it lists what is shipped — not what is installed.
// The bundles keep no legal comments (esbuild's `legalComments: 'none'`), so this file is where they go;
// EPL-2.0 (elkjs, in the Mermaid bundles) asks that recipients are told where the source is.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';

const LICENCE_FILE = /^(licen[cs]e|copying|notice)(\.(md|txt|markdown))?$/i;

/** The package folders (relative to `root`) whose files appear among the metafiles' inputs. */
export function bundledPackages(metafiles) {
  const dirs = new Set();
  for (const meta of metafiles)
    for (const input of Object.keys(meta.inputs)) {
      const parts = input.split(/[\\/]/);
      const at = parts.lastIndexOf('node_modules');
      if (at < 0) continue;
      const scoped = parts[at + 1]?.startsWith('@');
      dirs.add(parts.slice(0, at + (scoped ? 3 : 2)).join('/'));
    }
  return [...dirs].sort();
}

/** Where the package's source is, as a web address (npm's shorthands and git URLs written out). */
export function repositoryOf(pkg) {
  const repo = (typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url) ?? pkg.homepage ?? '';
  const url = repo
    .replace(/^git\+/, '')
    .replace(/^github:/, 'https://github.com/')
    .replace(/^(git|ssh):\/\/(git@)?/, 'https://')
    .replace(/\.git$/, '');
  if (/^[\w.-]+\/[\w.-]+$/.test(url)) return `https://github.com/${url}`;
  return url || `https://www.npmjs.com/package/${pkg.name}`;
}

/** The notices' text for these package folders (sorted by package name, one entry per name and version). */
export function noticesText(root, packageDirs) {
  const seen = new Map();
  for (const dir of packageDirs) {
    const file = join(root, dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    if (!pkg.name || seen.has(`${pkg.name}@${pkg.version}`)) continue;
    const texts = readdirSync(join(root, dir))
      .filter((f) => LICENCE_FILE.test(f))
      .sort()
      .map((f) => readFileSync(join(root, dir, f), 'utf8').trim());
    seen.set(`${pkg.name}@${pkg.version}`, { pkg, texts });
  }
  const entries = [...seen.values()].sort((a, b) => a.pkg.name.localeCompare(b.pkg.name));
  const out = [
    '# Third-party notices',
    '',
    'Sextant bundles the following packages. Each is listed with its licence and where its source is.',
    '',
  ];
  for (const { pkg, texts } of entries) {
    const licence = typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? 'see its licence text');
    out.push(`## ${pkg.name} ${pkg.version}`, '', `Licence: ${licence}. Source: ${repositoryOf(pkg)}`, '');
    // Four backticks: a licence text may hold a fence of three.
    for (const t of texts) out.push('````text', t, '````', '');
  }
  return out.join('\n');
}

export function writeNotices(root, metafiles, outfile) {
  const dirs = bundledPackages(metafiles).map((d) => d.split('/').join(sep));
  writeFileSync(outfile, noticesText(root, dirs));
  return dirs.length;
}
