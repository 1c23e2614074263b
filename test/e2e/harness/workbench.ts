// Drives the VS Code workbench (served by code-server) in Chromium the way a user does: activity bar,
// command palette, the Sextant webview. Webviews are nested iframes: the workbench holds
// `iframe.webview` (VS Code's host page, origin per webview) and that holds `iframe#active-frame`,
// which is the extension's own HTML.
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pngToWebp } from '../../fixtures/chromium';

export const EXTENSION_ID = 'sextant.sextant';

export type AriaRole = Parameters<Page['getByRole']>[0];

/** Rethrows a Playwright timeout as an error that says what the user-level step was waiting for. */
export async function waitUntil<T>(what: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (err) {
    const msg = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new Error(`E2E: ${what}: ${msg}`);
  }
}

/** Polls `check` until it returns a truthy value or the time runs out. */
export async function poll<T>(
  what: string,
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      const why = last instanceof Error ? ` (last error: ${last.message.split('\n')[0]})` : '';
      throw new Error(`E2E: timed out after ${timeoutMs / 1000}s waiting for ${what}${why}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

export interface WorkbenchPaths {
  /** The folder the workbench has open. */
  workspace: string;
  /** code-server's --user-data-dir (logs live under it). */
  userDataDir: string;
  /** Where screenshots go. */
  resultsDir: string;
}

export class Workbench {
  constructor(
    readonly page: Page,
    readonly paths: WorkbenchPaths,
  ) {}

  /** Waits until the workbench has rendered its activity bar. */
  async waitReady(timeoutMs = 90_000): Promise<void> {
    await waitUntil('the VS Code workbench to load', () =>
      this.page
        .locator('.monaco-workbench .part.activitybar')
        .first()
        .waitFor({ state: 'visible', timeout: timeoutMs }),
    );
  }

  activityTab(name: string): Locator {
    return this.page
      .locator('.part.activitybar')
      .getByRole('tab', { name: new RegExp(`^${name}\\b`) })
      .first();
  }

  /** Clicks an activity bar entry (unless it is already the open one, which would close the side bar). */
  async openActivity(name: string): Promise<void> {
    const tab = this.activityTab(name);
    await waitUntil(`the "${name}" entry in the activity bar`, () =>
      tab.waitFor({ state: 'visible', timeout: 20_000 }),
    );
    const selected =
      (await tab.getAttribute('aria-selected')) === 'true' || (await tab.getAttribute('aria-checked')) === 'true';
    const sidebarVisible = await this.page.locator('.part.sidebar').isVisible();
    if (!selected || !sidebarVisible) await tab.click();
  }

  /** The Sextant webview's content frame (the extension's HTML). */
  webviewFrame(): FrameLocator {
    return this.page
      .locator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]:visible`)
      .first()
      .contentFrame()
      .locator('iframe#active-frame')
      .contentFrame();
  }

  /**
   * A Sextant chat frame by where it is: the sidebar's (leftmost) or an editor tab's (rightmost). Webview
   * iframes live in an overlay outside the views' DOM, so their place on screen tells them apart.
   */
  async chatFrame(where: 'sidebar' | 'editor'): Promise<FrameLocator> {
    const frames = this.page.locator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]:visible`);
    // Webviews float above the workbench (not inside its parts), so where one is is told by its box: inside the
    // editor part's box or not. The leftmost/rightmost frame alone is not enough — while an editor tab's webview
    // is still loading, the only visible frame is the sidebar's, and a scenario would type into the wrong chat.
    const editorPart = await this.page.locator('.part.editor').first().boundingBox();
    const inEditor = (box: { x: number; width: number }) =>
      editorPart !== null &&
      box.x + box.width / 2 >= editorPart.x &&
      box.x + box.width / 2 <= editorPart.x + editorPart.width;
    let pick = -1;
    let best = where === 'sidebar' ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    const count = await frames.count();
    for (let i = 0; i < count; i++) {
      const box = await frames.nth(i).boundingBox();
      if (!box || inEditor(box) !== (where === 'editor')) continue;
      if (where === 'sidebar' ? box.x < best : box.x > best) {
        best = box.x;
        pick = i;
      }
    }
    if (pick < 0) throw new Error(`E2E: no visible Sextant chat in the ${where}`);
    return frames.nth(pick).contentFrame().locator('iframe#active-frame').contentFrame();
  }

  /** Opens the Sextant view from the activity bar and waits for its composer. */
  async openSextantView(): Promise<FrameLocator> {
    await this.openActivity('Sextant');
    const frame = this.webviewFrame();
    const composer = frame.getByRole('textbox', { name: 'Message' });
    try {
      await composer.waitFor({ state: 'visible', timeout: 10_000 });
    } catch {
      // Right after a window reload the side bar may still be restoring, and the activity click can
      // land on a toggle that closes it again: reveal the view with our own command instead.
      await this.runPaletteCommand('Sextant: Focus Chat');
    }
    await waitUntil('the Sextant chat view to show its "Message" textbox', () =>
      composer.waitFor({ state: 'visible', timeout: 30_000 }),
    );
    return frame;
  }

  async showExplorer(): Promise<void> {
    await this.openActivity('Explorer');
    await waitUntil('the Explorer view', () =>
      this.page
        .locator('.part.sidebar .composite.title')
        .getByText(/Explorer/i)
        .first()
        .waitFor({ state: 'visible', timeout: 15_000 }),
    );
  }

  /**
   * Starts a clock at the next keydown inside the Sextant webview (captured before Sextant's own
   * handlers), in the page's time origin: keydownAt() reads it back. For first-use figures measured
   * from the key itself, not from the harness delivering it into the nested frame.
   */
  async armKeydownClock(): Promise<void> {
    await this.inWebview('textbox', 'Message').evaluate((el) => {
      const w = el.ownerDocument.defaultView as (Window & { sextantKeydownAt?: number }) | null;
      el.ownerDocument.addEventListener(
        'keydown',
        () => {
          if (w) w.sextantKeydownAt = performance.timeOrigin + performance.now();
        },
        { capture: true, once: true },
      );
    });
  }

  /** When the keydown armed by armKeydownClock() happened (epoch ms), if it has. */
  keydownAt(): Promise<number | undefined> {
    return this.inWebview('textbox', 'Message').evaluate(
      (el) => (el.ownerDocument.defaultView as (Window & { sextantKeydownAt?: number }) | null)?.sextantKeydownAt,
    );
  }

  inWebview(role: AriaRole, name: string | RegExp): Locator {
    return this.webviewFrame().getByRole(role, { name, exact: typeof name === 'string' ? true : undefined });
  }

  /** Types into the composer; `send` presses Enter. */
  async typeMessage(text: string, opts: { send?: boolean } = {}): Promise<void> {
    const box = this.inWebview('textbox', 'Message');
    await waitUntil('the "Message" textbox', () => box.click({ timeout: 15_000 }));
    await box.press('ControlOrMeta+a');
    await box.press('Delete');
    await box.pressSequentially(text, { delay: 5 });
    if (opts.send ?? true) await box.press('Enter');
  }

  async clickInWebview(role: AriaRole, name: string | RegExp): Promise<void> {
    const target = this.inWebview(role, name).first();
    await waitUntil(`${role} "${String(name)}" in the Sextant view`, () => target.click({ timeout: 15_000 }));
  }

  /** Messages shown in the chat: `article` elements named "You" / "Sextant". */
  articles(who: 'You' | 'Sextant'): Locator {
    return this.webviewFrame().getByRole('article', { name: who, exact: true });
  }

  /** Moves focus out of any webview so workbench keybindings (F1) reach the workbench. */
  async focusWorkbench(): Promise<void> {
    await this.page.evaluate(() => {
      const el = document.activeElement;
      if (el instanceof HTMLElement) el.blur();
    });
  }

  /**
   * Runs a command from the command palette by its full title, e.g. "Sextant: New Chat".
   * `opensInput`: the command shows its own quick pick / dialog, so the palette does not close.
   */
  async runPaletteCommand(
    title: string,
    opts: { opensInput?: boolean; fromEditor?: boolean; patienceMs?: number } = {},
  ): Promise<void> {
    // From the editor (`fromEditor`): the focus stays there, so commands shown only for its state
    // (`editorHasSelection`, …) are listed.
    if (!opts.fromEditor) await this.focusWorkbench();
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    // The command itself, not a longer one that starts with its title ("New Chat" vs "New Chat in Editor").
    const t = title.replace(/"/g, '\\"');
    const row = this.page
      .locator(`.quick-input-list .monaco-list-row[aria-label^="${t}"]:not([aria-label^="${t} "])`)
      .first();
    // A view that takes the focus back while the palette is open (a webview re-rendering its composer,
    // the walkthrough ticking a step off) closes it under us: the input goes inert or the row away
    // before the click. Nothing ran then, so open it again and pick the command — up to three times, or
    // until `patienceMs` has passed: right after a window reload the palette lists only the workbench's own
    // commands until the extensions' contributions are registered, which a loaded machine can take long to do.
    const deadline = Date.now() + (opts.patienceMs ?? 0);
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press('F1');
      await waitUntil('the command palette to open', () => input.waitFor({ state: 'visible', timeout: 10_000 }));
      try {
        await input.fill(`>${title}`, { timeout: 5_000 });
        await row.waitFor({ state: 'visible', timeout: 10_000 });
        await row.click({ timeout: 5_000 });
        break;
      } catch (err) {
        if (attempt >= 3 && Date.now() >= deadline)
          throw new Error(
            `the command "${title}" in the palette: ${(err as Error).message}\n${await this.paletteState()}`,
          );
        if (await input.isVisible()) await this.page.keyboard.press('Escape');
        if (!opts.fromEditor) await this.focusWorkbench();
      }
    }
    if (opts.opensInput) return;
    await waitUntil('the command palette to close', () => input.waitFor({ state: 'hidden', timeout: 10_000 }));
  }

  /** What the palette shows (its input and first rows) and where the focus is: for a failure's message. */
  private async paletteState(): Promise<string> {
    return this.page
      .evaluate(() => {
        const input = document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input');
        const rows = [...document.querySelectorAll('.quick-input-list .monaco-list-row')]
          .slice(0, 6)
          .map((r) => r.getAttribute('aria-label'));
        const active = document.activeElement;
        const value = JSON.stringify(input?.value ?? null);
        const visible = input?.checkVisibility() ?? false;
        const focus = `${active?.tagName}.${active?.className}`;
        return `palette input: ${value} (visible: ${visible}); rows: ${JSON.stringify(rows)}; focus: ${focus}`;
      })
      .catch((err: Error) => `palette state unknown: ${err.message}`);
  }

  /**
   * Runs a key command ("Sextant: Set API Key", …): picks `row`, types `secret` into the password box
   * and waits for a *new* toast containing `saved`. A toast left by an earlier scenario must not
   * satisfy the wait before this secret is stored (that let a scenario go on without its key in CI),
   * and the box is checked to hold the secret before Enter (the picker's input is reused: a value
   * typed while it turns into the password box can be reset).
   */
  async enterSecret(command: string, row: string, secret: string, saved: string): Promise<void> {
    await this.runPaletteCommand('Notifications: Clear All Notifications').catch(() =>
      this.page.keyboard.press('Escape'),
    );
    const toasts = this.page.locator('.notifications-toasts .notification-toast', { hasText: saved });
    const before = await toasts.count();
    await this.runPaletteCommand(command, { opensInput: true });
    const pick = this.page.locator(`.quick-input-list .monaco-list-row[aria-label^="${row}"]`).first();
    await waitUntil(`the picker row "${row}"`, () => pick.click({ timeout: 10_000 }));
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    await poll('the password box holding the secret', async () => {
      if ((await input.getAttribute('type')) !== 'password') return false;
      if ((await input.inputValue()) !== secret) await input.fill(secret);
      return (await input.inputValue()) === secret;
    });
    await input.press('Enter');
    await poll(`a new "${saved}" notification`, async () => (await toasts.count()) > before);
  }

  /** Opens a workspace file in its editor through Quick Open (Ctrl+P), as a user would. */
  async openFile(rel: string): Promise<void> {
    const name = rel.split('/').pop() ?? rel;
    const tab = this.page.locator('.tabs-container .tab', { hasText: name }).first();
    // Quick Open's list re-sorts as results arrive (recent files first, then the search's): the row picked can
    // move under the pointer and another file opens. Check the tab, and pick again when it is not there.
    for (let attempt = 1; ; attempt++) {
      await this.pickInQuickOpen(rel, name);
      const opened = await tab.waitFor({ state: 'visible', timeout: attempt < 3 ? 5_000 : 15_000 }).then(
        () => true,
        () => false,
      );
      if (opened) return;
      if (attempt >= 3) throw new Error(`E2E: the editor tab of ${name} did not open from Quick Open`);
    }
  }

  private async pickInQuickOpen(rel: string, name: string): Promise<void> {
    await this.focusWorkbench();
    await this.page.keyboard.press('ControlOrMeta+p');
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    await waitUntil('Quick Open', () => input.waitFor({ state: 'visible', timeout: 10_000 }));
    // A file written a moment ago reaches Quick Open's index after the file watcher sees it: retype until listed.
    const focused = this.page.locator('.quick-input-list .monaco-list-row.focused .label-name').first();
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
    let tries = 0;
    const listed = await poll(
      `${rel} in Quick Open`,
      async () => {
        // A view that takes the focus back (the walkthrough on a first activation) closes Quick Open: reopen it.
        if (!(await input.isVisible())) {
          await this.focusWorkbench();
          await this.page.keyboard.press('ControlOrMeta+p');
          await input.waitFor({ state: 'visible', timeout: 2_000 });
        }
        // Quick Open searches again only when its text changes: retype now and then until the index has the file.
        if ((await input.inputValue()) !== rel || ++tries % 10 === 0) {
          await input.fill('', { timeout: 2_000 });
          await input.fill(rel, { timeout: 2_000 });
        }
        const label = await focused.innerText({ timeout: 2_000 }).catch(() => '');
        if (label.trim() === name) return 'focused';
        // Some rows (a notebook's) do not show the name as the focused label: the listed row will do.
        return (await row.isVisible()) ? 'listed' : undefined;
      },
      45_000,
    );
    if (listed === 'focused') await input.press('Enter');
    else await row.click();
  }

  /**
   * Selects the whole text of the active editor, once it shows `text`, and waits until the selection
   * is made (the status bar counts the selected characters) — commands that need a selection are only
   * listed then.
   */
  async selectAllInEditor(text: string): Promise<void> {
    const editor = this.page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
    await poll('the editor to show its text', async () =>
      (await editor.innerText()).replace(/\u00a0/g, ' ').includes(text),
    );
    const selection = this.page.locator('.statusbar-item', { hasText: /\(\d+ selected\)/ });
    await poll('the editor to have a selection', async () => {
      await editor.click();
      await this.page.keyboard.press('ControlOrMeta+a');
      return (await selection.count()) > 0;
    });
  }

  /** Reloads the browser window (the workbench and the extension host restart). */
  async reloadWindow(): Promise<void> {
    await this.page.reload();
    await this.waitReady();
  }

  async screenshot(name: string, path?: string): Promise<string> {
    const file = path ?? join(this.paths.resultsDir, `${name.replace(/[^\w.-]+/g, '_')}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /**
   * With SEXTANT_E2E_DOCS_SCREENSHOT set, writes the screenshot to docs/<name>.webp (what README shows
   * and the VSIX ships: WebP is about half the size of PNG), converted in a blank page of this browser.
   */
  async docsScreenshot(png: string, name: string, docsDir: string): Promise<void> {
    if (!process.env.SEXTANT_E2E_DOCS_SCREENSHOT) return;
    const scratch = await this.page.context().newPage();
    try {
      writeFileSync(join(docsDir, `${name}.webp`), await pngToWebp(scratch, readFileSync(png)));
    } finally {
      await scratch.close();
    }
  }

  readWorkspaceFile(rel: string): string {
    return readFileSync(join(this.paths.workspace, rel), 'utf8');
  }

  /** Writes a file into the open workspace (as another program would; VS Code's watcher sees it). */
  writeWorkspaceFile(rel: string, content: string): void {
    const file = join(this.paths.workspace, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }

  /** The user settings (`<user-data-dir>/User/settings.json`) as an object. */
  readUserSettings(): Record<string, unknown> {
    return JSON.parse(readFileSync(join(this.paths.userDataDir, 'User', 'settings.json'), 'utf8'));
  }

  /**
   * Changes user settings as a user does, in the settings.json editor (code-server does not notice
   * a file written behind its back); a key set to undefined is removed. Waits until the "Sextant"
   * output channel shows `marker` once more than before: the extension has seen the change.
   */
  async setUserSettings(patch: Record<string, unknown>, marker: string): Promise<void> {
    const next: Record<string, unknown> = { ...this.readUserSettings(), ...patch };
    for (const [k, v] of Object.entries(patch)) if (v === undefined) delete next[k];
    const count = () => this.outputChannelText('Sextant').split(marker).length;
    const before = count();
    await this.runPaletteCommand('Preferences: Open User Settings (JSON)');
    const editor = this.page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
    await waitUntil('the user settings.json editor', () => editor.click({ timeout: 15_000 }));
    await this.page.keyboard.press('ControlOrMeta+a');
    await this.page.keyboard.press('Delete');
    // One line inserted at once: no auto-indentation, no auto-closed brackets or quotes.
    await this.page.keyboard.insertText(JSON.stringify(next));
    await this.page.keyboard.press('ControlOrMeta+s');
    try {
      const saved = () => JSON.stringify(this.readUserSettings()) === JSON.stringify(next);
      await poll('the settings.json editor to save', async () => {
        if (saved()) return true;
        await this.page.keyboard.press('ControlOrMeta+s');
        return saved();
      });
      await poll(`"${marker}" in the Sextant output`, async () => count() > before, 20_000);
    } finally {
      await this.runPaletteCommand('View: Close Editor');
    }
  }

  /**
   * Text of an extension output channel, read from the log file VS Code backs it with
   * (`<user-data-dir>/logs/<session>/…/<n>-<name>.log` or `<name>.log`). Newest session wins.
   */
  outputChannelText(name: string): string {
    const files = findFiles(join(this.paths.userDataDir, 'logs'), (f) => {
      const base = f.split('/').pop() ?? '';
      return base === `${name}.log` || new RegExp(`^\\d+-${name}\\.log$`).test(base);
    });
    files.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
    const newest = files.pop();
    return newest ? readFileSync(newest, 'utf8') : '';
  }
}

export function findFiles(dir: string, match: (path: string) => boolean, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) findFiles(full, match, out);
    else if (match(full)) out.push(full);
  }
  return out;
}
