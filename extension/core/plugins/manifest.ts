// A plugin's `.claude-plugin/plugin.json`, in Claude Code's format: `name` (kebab-case, required),
// `version`, `description`, `author`, and optional component paths — `commands`, `agents`, `skills`
// (a `./` path or a list of them, added to the default folders), `hooks` and `mcpServers` (a `./` path to
// a JSON file, or the configuration inline). Fields Claude Code has that Sextant does not use
// (`homepage`, `keywords`, `outputStyles`, `lspServers`, …) are accepted and ignored.
import * as z from 'zod';
import { readJsonFile, type JsonRead } from './json-file';

export const MANIFEST_PATH = '.claude-plugin/plugin.json';

/** Claude Code's rule for a plugin's (and a marketplace's) name: it is part of every command's name. */
export const PLUGIN_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const NAME_RULE = 'a plugin name is lower-case letters, digits, "-", "_" and "." (kebab-case, at most 64)';

/** `./commands/deploy.md`: a component path is relative to the plugin's folder and starts with `./`. */
const RelativePath = z
  .string()
  .regex(/^\.\//, 'a path in plugin.json starts with "./" (relative to the plugin folder)')
  .refine((p) => !p.split('/').includes('..'), 'a path in plugin.json stays inside the plugin folder');
const Paths = z.union([RelativePath, z.array(RelativePath)]);
const Person = z.union([z.string(), z.object({ name: z.string(), email: z.string().optional() }).loose()]);
const Inline = z.record(z.string(), z.unknown());

export const ManifestSchema = z
  .object({
    name: z.string().regex(PLUGIN_NAME, NAME_RULE),
    version: z.string().optional(),
    description: z.string().optional(),
    author: Person.optional(),
    commands: Paths.optional(),
    agents: Paths.optional(),
    skills: Paths.optional(),
    hooks: z.union([RelativePath, z.array(RelativePath), Inline]).optional(),
    mcpServers: z.union([RelativePath, z.array(RelativePath), Inline]).optional(),
  })
  .loose();

export type PluginManifest = z.infer<typeof ManifestSchema>;

/** The manifest of a plugin folder; a problem is `…/plugin.json:line:column: what`. */
export function parseManifest(text: string, file = MANIFEST_PATH): JsonRead<PluginManifest> {
  return readJsonFile(text, file, ManifestSchema);
}

/** A field that is one path or a list of them, as a list. */
export function pathList(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

export function authorName(author: PluginManifest['author']): string | undefined {
  return typeof author === 'string' ? author : author?.name;
}
