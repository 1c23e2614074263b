// A marketplace's `.claude-plugin/marketplace.json`, in Claude Code's format: `name`, `owner`, optional
// `metadata` (`pluginRoot`: the folder bare plugin sources are under), and `plugins[]` — each with a
// `name` and a `source`: a relative path (`./plugins/lint`), `{source: "github", repo: "owner/repo"}`,
// `{source: "url", url: "…git"}` or `{source: "git", url}` (optional `ref`, and `path` for a plugin in a
// subfolder of that repository). An entry may also carry the manifest's own fields; with `strict: false`
// they stand for a plugin.json the plugin does not have.
import * as z from 'zod';
import { readJsonFile, type JsonRead } from './json-file';
import { ManifestSchema, PLUGIN_NAME } from './manifest';

export const MARKETPLACE_PATH = '.claude-plugin/marketplace.json';

const GitRef = { ref: z.string().optional(), sha: z.string().optional(), path: z.string().optional() };
const SourceSchema = z.union([
  z.string().min(1),
  z.object({ source: z.literal('github'), repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/), ...GitRef }).loose(),
  z.object({ source: z.enum(['url', 'git', 'git-subdir']), url: z.string().min(1), ...GitRef }).loose(),
]);

const EntrySchema = ManifestSchema.extend({
  source: SourceSchema,
  strict: z.boolean().optional(),
  category: z.string().optional(),
});

const MarketplaceSchema = z
  .object({
    name: z.string().regex(PLUGIN_NAME, 'a marketplace name is kebab-case: lower-case letters, digits and "-"'),
    owner: z.union([z.string(), z.object({ name: z.string() }).loose()]),
    metadata: z.object({ description: z.string().optional(), pluginRoot: z.string().optional() }).loose().optional(),
    plugins: z.array(EntrySchema),
  })
  .loose();

export type Marketplace = z.infer<typeof MarketplaceSchema>;
export type MarketplaceEntry = z.infer<typeof EntrySchema>;
export type PluginSource = MarketplaceEntry['source'];

export function parseMarketplace(text: string, file = MARKETPLACE_PATH): JsonRead<Marketplace> {
  const read = readJsonFile(text, file, MarketplaceSchema);
  if (!read.ok) return read;
  const seen = new Set<string>();
  for (const p of read.value.plugins) {
    if (seen.has(p.name)) return { ok: false, problem: `${file}: the plugin "${p.name}" is listed twice` };
    seen.add(p.name);
  }
  return read;
}

/** Where an entry's plugin comes from: a folder of the marketplace, or a git repository. */
export type ResolvedSource =
  | { kind: 'folder'; relative: string }
  | { kind: 'git'; url: string; ref?: string; path?: string };

/** `owner/repo` → its GitHub clone URL (Claude Code's shorthand). */
export function githubUrl(repo: string): string {
  return `https://github.com/${repo}.git`;
}

export function resolveSource(source: PluginSource, pluginRoot: string | undefined): ResolvedSource {
  if (typeof source === 'string') {
    // A bare name (`lint`) is under metadata.pluginRoot; `./x` is relative to the marketplace's folder.
    const relative = !source.startsWith('./') && pluginRoot ? `${pluginRoot.replace(/\/$/, '')}/${source}` : source;
    return { kind: 'folder', relative };
  }
  const url = source.source === 'github' ? githubUrl(source.repo) : source.url;
  const ref = source.sha ?? source.ref;
  return { kind: 'git', url, ...(ref ? { ref } : {}), ...(source.path ? { path: source.path } : {}) };
}
