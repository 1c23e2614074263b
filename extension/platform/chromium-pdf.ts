// PDF export of a report: Chromium's own `--headless --print-to-pdf` run on the report's HTML export
// (self-contained and sanitised), so no PDF library ships with the extension. The browser is the one
// named in sextant.browser.executablePath, else the first of the usual install locations. One small
// finder, kept here so it can be unified with the browser tool's when both land.
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

const USUAL_LOCATIONS: Record<string, string[]> = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/usr/bin/microsoft-edge',
    '/snap/bin/chromium',
  ],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
  ],
  win32: [
    `${process.env.PROGRAMFILES ?? 'C:\\Program Files'}\\Google\\Chrome\\Application\\chrome.exe`,
    `${process.env['PROGRAMFILES(X86)'] ?? 'C:\\Program Files (x86)'}\\Microsoft\\Edge\\Application\\msedge.exe`,
    `${process.env.LOCALAPPDATA ?? ''}\\Google\\Chrome\\Application\\chrome.exe`,
  ],
};

function executable(p: string): boolean {
  try {
    accessSync(p, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return existsSync(p);
  } catch {
    return false;
  }
}

/** The browser to print with, or why there is none (said where PDF export would be offered). */
export function findChromium(configured: string | undefined): { path: string } | { reason: string } {
  if (configured?.trim()) {
    return executable(configured)
      ? { path: configured }
      : { reason: `sextant.browser.executablePath (${configured}) is not an executable file` };
  }
  const found = (USUAL_LOCATIONS[process.platform] ?? []).find(executable);
  return found
    ? { path: found }
    : { reason: 'no Chrome or Chromium was found; set sextant.browser.executablePath to print reports as PDF' };
}

/** Prints self-contained HTML to a PDF file with headless Chromium (60 s at most). */
export async function printHtmlToPdf(browser: string, html: string, outFile: string): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sextant-pdf-'));
  try {
    const page = path.join(dir, 'report.html');
    await fs.writeFile(page, html);
    const args = [
      '--headless',
      '--disable-gpu',
      '--no-first-run',
      '--disable-extensions',
      '--disable-background-networking',
      `--user-data-dir=${path.join(dir, 'profile')}`,
      '--no-pdf-header-footer',
      `--print-to-pdf=${outFile}`,
      // Chromium refuses to start its sandbox as root (containers): only then is it switched off.
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      `file://${page}`,
    ];
    await new Promise<void>((resolve, reject) => {
      execFile(browser, args, { timeout: 60_000 }, (err, _out, stderr) => {
        if (err)
          reject(new Error(`${path.basename(browser)} could not print the PDF: ${stderr.trim() || err.message}`));
        else resolve();
      });
    });
    const st = await fs.stat(outFile).catch(() => undefined);
    if (!st?.size) throw new Error('the browser wrote no PDF');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
