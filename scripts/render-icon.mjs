// Renders media/icon.svg to media/icon.png (128×128, the Marketplace icon) with the headless Chromium
// the tests use (Debian's chromium through playwright-core). Run after editing the SVG:
//   node scripts/render-icon.mjs
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const svg = readFileSync(join(root, 'media/icon.svg'), 'utf8');
const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const browser = await chromium.launch({
  executablePath: process.env.SEXTANT_CHROMIUM ?? executablePath,
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: join(root, 'media/icon.png'), omitBackground: true });
} finally {
  await browser.close();
}
console.log('media/icon.png written');
