// A workspace's `.claude/settings.json` may name marketplaces (`extraKnownMarketplaces`) and plugins
// (`enabledPlugins: {"plugin@marketplace": true}`) its team uses. In Sextant these only SUGGEST: the host
// offers them in a notice, and nothing is added, installed or run unless the user picks it.
import { parseJsonc } from '../config/jsonc';
import { githubUrl } from './marketplace';

export interface PluginSuggestions {
  /** Marketplaces not added yet: the name the file gives, and a source `Marketplaces.add` reads. */
  marketplaces: Array<{ name: string; source: string }>;
  /** `plugin@marketplace` ids not installed yet. */
  plugins: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Claude Code's marketplace source object → what the user would type (a folder, a URL, owner/repo). */
function sourceText(source: unknown): string | undefined {
  if (!isObject(source)) return undefined;
  if (source.source === 'github' && typeof source.repo === 'string') return githubUrl(source.repo);
  if ((source.source === 'git' || source.source === 'url') && typeof source.url === 'string') return source.url;
  if ((source.source === 'directory' || source.source === 'file') && typeof source.path === 'string')
    return source.path;
  return undefined;
}

/** What the file suggests beyond what the user already has. A file that cannot be read suggests nothing. */
export function pluginSuggestions(
  text: string | undefined,
  known: { marketplaces: readonly string[]; installed: readonly string[] },
): PluginSuggestions {
  const none = { marketplaces: [], plugins: [] };
  if (!text?.trim()) return none;
  const parsed = parseJsonc(text);
  if (!parsed.ok || !isObject(parsed.value)) return none;
  const marketplaces: PluginSuggestions['marketplaces'] = [];
  const extra = parsed.value.extraKnownMarketplaces;
  if (isObject(extra))
    for (const [name, value] of Object.entries(extra)) {
      const source = isObject(value) ? sourceText(value.source) : undefined;
      if (source && !known.marketplaces.includes(name)) marketplaces.push({ name, source });
    }
  const enabled = parsed.value.enabledPlugins;
  const plugins = isObject(enabled)
    ? Object.entries(enabled)
        .filter(([id, on]) => on === true && /^[^@\s]+@[^@\s]+$/.test(id) && !known.installed.includes(id))
        .map(([id]) => id)
    : [];
  return { marketplaces, plugins };
}
