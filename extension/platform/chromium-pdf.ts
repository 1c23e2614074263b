// PDF export of a report: Chromium's own `--headless --print-to-pdf` run on the report's HTML export
// (self-contained and sanitised), so no PDF library ships with the extension. The browser is the one
// the browser tool drives: sextant.browser.executablePath, else the usual install places, else PATH
// (browser/find-browser.ts, one finder for both).
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { findBrowser } from './browser/find-browser';

/** The browser to print with (the browser tool's finder), or why there is none (said where PDF export is offered). */
export function findChromium(configured: string | undefined): { path: string } | { reason: string } {
  const found = findBrowser(configured?.trim() ? { configured } : {});
  return 'path' in found ? found : { reason: found.problem };
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
