// The `sextant.*` settings on the command line: `~/.sextant/settings.json` (JSON with comments, keys
// as in VS Code's settings.json — `"sextant.providers"` — or without the prefix), over the defaults the
// extension declares in package.json, under the flags of this run. It is the user's own file, so it is
// the user scope; a repository cannot set these (its `.sextant/settings.json` may only tighten
// permissions, read by the engine as in VS Code).
import { readFileSync } from 'node:fs';
import { parseJsonc } from '../core/config/jsonc';
import { ManagedSettingsFiles } from '../core/config/managed-file';
import type { SettingsSource } from '../engine/settings';
import manifest from '../../package.json';

type Values = Record<string, unknown>;

/** The defaults package.json declares for every `sextant.*` setting. */
function manifestDefaults(): Values {
  const out: Values = {};
  const props = (manifest as { contributes?: { configuration?: unknown } }).contributes?.configuration;
  const sections = Array.isArray(props) ? props : [props];
  for (const section of sections) {
    const properties = (section as { properties?: Record<string, { default?: unknown }> } | undefined)?.properties;
    for (const [key, spec] of Object.entries(properties ?? {}))
      if (key.startsWith('sextant.') && spec.default !== undefined) out[key.slice('sextant.'.length)] = spec.default;
  }
  return out;
}

/** Reads the settings file; a missing file is no settings, a broken one is a clear error. */
export function readSettingsFile(file: string): Values {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`${file} could not be read: ${(err as Error).message}`);
  }
  const parsed = parseJsonc(text);
  if (!parsed.ok || !parsed.value || typeof parsed.value !== 'object' || Array.isArray(parsed.value))
    throw new Error(`${file} is not a JSON object of settings`);
  const out: Values = {};
  for (const [key, value] of Object.entries(parsed.value as Values))
    out[key.startsWith('sextant.') ? key.slice('sextant.'.length) : key] = value;
  return out;
}

/** Defaults, then the file, then this run's flags (lists the flags add to are appended). */
export function cliSettings(file: Values, flags: Values, appended: Record<string, string[]>): SettingsSource {
  const merged: Values = { ...manifestDefaults(), ...file, ...flags };
  for (const [key, extra] of Object.entries(appended)) {
    if (!extra.length) continue;
    const current = merged[key];
    merged[key] = [...(Array.isArray(current) ? current : current === undefined ? [] : [current]), ...extra];
  }
  const read = (key: string) => merged[key];
  // The machine's managed settings stand above the file and the flags (an administrator's pins).
  return { user: read, any: read, managed: ManagedSettingsFiles.forThisMachine().current };
}
