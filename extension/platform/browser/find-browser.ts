// Finds a Chrome, Edge or Chromium already on the machine: the browser tool never downloads one.
// The configured path (`sextant.browser.executablePath`) wins; otherwise the usual install places of
// each OS, then the names on PATH (`command -v chromium` and friends). The one finder for every user of
// a local Chromium: the browser tool and a report's PDF export (chromium-pdf.ts).
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface FindBrowserOptions {
  configured?: string;
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  exists?: (path: string) => boolean;
}

const PATH_NAMES = [
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
  'chrome',
  'microsoft-edge',
  'microsoft-edge-stable',
];

function usualPlaces(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform === 'darwin') {
    const apps = ['/Applications', join(env.HOME ?? '', 'Applications')];
    return apps.flatMap((a) => [
      join(a, 'Google Chrome.app/Contents/MacOS/Google Chrome'),
      join(a, 'Microsoft Edge.app/Contents/MacOS/Microsoft Edge'),
      join(a, 'Chromium.app/Contents/MacOS/Chromium'),
    ]);
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((r): r is string => !!r);
    return roots.flatMap((r) => [
      join(r, 'Google', 'Chrome', 'Application', 'chrome.exe'),
      join(r, 'Microsoft', 'Edge', 'Application', 'msedge.exe'),
      join(r, 'Chromium', 'Application', 'chrome.exe'),
    ]);
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
    '/usr/bin/microsoft-edge',
    '/opt/microsoft/msedge/msedge',
    '/snap/bin/chromium',
  ];
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The browser to drive, or a message saying none was found and how to point Sextant at one. */
export function findBrowser(o: FindBrowserOptions = {}): { path: string } | { problem: string } {
  const platform = o.platform ?? process.platform;
  const env = o.env ?? process.env;
  const exists = o.exists ?? (platform === 'win32' ? existsSync : isExecutableFile);
  // A setting of blanks is no setting: look in the usual places.
  const configured = o.configured?.trim();
  if (configured) {
    if (exists(configured)) return { path: configured };
    return {
      problem:
        `sextant.browser.executablePath is "${configured}", which is not an executable file. Fix the path ` +
        'or clear it to let Sextant look for Chrome, Edge or Chromium.',
    };
  }
  for (const p of usualPlaces(platform, env)) if (exists(p)) return { path: p };
  const exe = platform === 'win32' ? ['.exe'] : [''];
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean))
    for (const name of PATH_NAMES)
      for (const ext of exe) if (exists(join(dir, name + ext))) return { path: join(dir, name + ext) };
  return {
    problem:
      'No Chrome, Edge or Chromium was found (Sextant never downloads a browser). Install one — Debian/Ubuntu: ' +
      '`apt-get install chromium` — or set sextant.browser.executablePath to its executable.',
  };
}
