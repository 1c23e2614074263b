// `${VAR}` and `${VAR:-default}` in a server's command, args, env, url and headers, as Claude Code
// expands them, so a secret comes from the user's environment instead of a committed file. The names a
// configuration reads are shown when it asks for approval: a workspace file that pulls
// `${GITHUB_TOKEN}` into a server's environment says so before anything starts.

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface Expansion {
  value: string;
  /** Variables read (whether set or not). */
  used: string[];
  /** Variables that were unset (not merely empty) and had no default: expanded to "". */
  missing: string[];
}

export function expandVariables(text: string, env: Readonly<Record<string, string | undefined>>): Expansion {
  const used: string[] = [];
  const missing: string[] = [];
  const value = text.replace(VARIABLE, (_whole, name: string, fallback: string | undefined) => {
    if (!used.includes(name)) used.push(name);
    const v = env[name];
    // As in the shell: `${VAR:-default}` takes the default when VAR is unset or empty; a plain
    // `${VAR}` set to "" is set (to nothing), not missing.
    if (v !== undefined && (v !== '' || fallback === undefined)) return v;
    if (fallback !== undefined) return fallback;
    if (!missing.includes(name)) missing.push(name);
    return '';
  });
  return { value, used, missing };
}

/** The variable names a text reads, without expanding it. */
export function variablesIn(text: string): string[] {
  return [...new Set([...text.matchAll(VARIABLE)].map((m) => m[1]))];
}
