// The environment a stdio server starts with: only what a program needs to run (where programs are,
// the home folder, the user, the terminal, the locale, the temp folder), taken from the host's
// environment already scrubbed of keys like a command's (core/security/child-env.ts). Everything
// else the server needs, its configuration names in `env`.

const POSIX = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TMPDIR', 'TZ'];
const WINDOWS = [
  'APPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PATHEXT',
  'PROCESSOR_ARCHITECTURE',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'TMP',
  'USERNAME',
  'USERPROFILE',
  'PROGRAMFILES',
  'COMSPEC',
];

export function serverBaseEnvironment(
  scrubbed: Readonly<Record<string, string>>,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const names = new Set((platform === 'win32' ? WINDOWS : POSIX).map((n) => n.toUpperCase()));
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(scrubbed)) {
    // A function body exported by bash (BASH_FUNC_x%%) could run code in a shell the server starts.
    if (names.has(name.toUpperCase()) && !value.startsWith('()')) env[name] = value;
  }
  return env;
}
