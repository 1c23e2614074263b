// The end-to-end suite's fixture: one code-server with the freshly packaged Sextant VSIX, one fake
// LLM, one headless Chromium on the workbench, shared by every scenario (starting VS Code costs
// ~15 s; scenarios run in file order and each starts from a fresh fake-LLM script).
//
//   const e2e = new E2E();
//   e2e.scenario('streams an answer', async ({ wb, fake }) => { … });
//
// On a failed scenario it saves a screenshot, the "Sextant" output channel, the extension host
// log and code-server's own log under test-results/e2e/.
import { after, before, describe, test } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm';
import { installExtension, QUIET_SETTINGS, startCodeServer, writeUserSettings, type CodeServer } from './code-server';
import { CHROMIUM_ARGS, findChromium, findToolchain } from './paths';
import { findFiles, Workbench } from './workbench';
import { installLmToolExtension } from './second-extension';

export const ROOT = findRoot();

function findRoot(): string {
  // The bundle runs from dist-test/e2e/test/e2e/; walk up to the repository (package.json + test/e2e).
  let dir = __dirname;
  while (dir !== '/' && !(existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'test', 'e2e'))))
    dir = resolve(dir, '..');
  return dir;
}

/** The test key handed to the extension host through the environment (apiKeyEnv), never a real one. */
export const E2E_KEY_ENV = 'SEXTANT_E2E_KEY';
export const E2E_KEY = 'sk-e2e-not-a-real-key-4f1d2c';
/**
 * A variable only the code-server process tree holds: were the extension host's environment
 * (/proc/self/environ) ever read into a prompt, this value would show in the fake LLM's requests.
 */
export const E2E_ENV_MARKER_NAME = 'SEXTANT_E2E_ENV_MARKER';
export const E2E_ENV_MARKER = 'env-marker-never-sent-9c2f71e4';

/**
 * The test-only managed settings file (core/config/managed-file.ts) code-server is pointed at: absent,
 * so nothing is managed, unless a scenario writes it (and removes it again).
 */
export const MANAGED_SETTINGS_ENV = 'SEXTANT_MANAGED_SETTINGS_FILE';

export interface E2EContext {
  wb: Workbench;
  page: Page;
  fake: FakeLlm;
  /** The throwaway copy of sample-workspace/ that the workbench has open. */
  workspace: string;
  /** Where a scenario may write the administrator's managed settings (absent by default). */
  managedSettingsFile: string;
  /** Records a figure for the summary (test-results/e2e/figures.json). */
  figure(name: string, value: number | string): void;
}

export interface ScenarioOptions {
  timeoutMs?: number;
}

export class E2E {
  readonly resultsDir = join(ROOT, 'test-results', 'e2e');
  readonly runDir: string;
  private server?: CodeServer;
  private browser?: BrowserContext;
  private ctx?: E2EContext;
  private readonly figures: Record<string, number | string> = {};
  private userDataDir = '';
  private readonly scenarios: Array<{ name: string; fn: (ctx: E2EContext) => Promise<void>; opts: ScenarioOptions }> =
    [];

  constructor() {
    this.runDir = process.env.SEXTANT_E2E_RUN_DIR ?? mkdtempSync(join(tmpdir(), 'sextant-e2e-'));
  }

  /** Registers a scenario; they run in registration order inside one `describe`. */
  scenario(name: string, fn: (ctx: E2EContext) => Promise<void>, opts: ScenarioOptions = {}): void {
    this.scenarios.push({ name, fn, opts });
  }

  /** Declares the node:test suite: start once, run the scenarios, always stop. */
  run(title = 'Sextant in a real VS Code (code-server)'): void {
    describe(title, () => {
      before(() => this.start(), { timeout: 240_000 });
      after(() => this.stop(), { timeout: 60_000 });
      for (const s of this.scenarios) {
        test(s.name, { timeout: s.opts.timeoutMs ?? 90_000 }, async () => {
          const ctx = this.context();
          ctx.fake.reset();
          ctx.fake.onRequest(undefined);
          const t0 = Date.now();
          try {
            await s.fn(ctx);
          } catch (err) {
            await this.saveFailure(s.name);
            throw err;
          } finally {
            this.figures[`scenario ms: ${s.name}`] = Date.now() - t0;
          }
        });
      }
    });
  }

  private context(): E2EContext {
    if (!this.ctx) throw new Error('E2E: the workbench did not start (see the error of the `before` hook above)');
    return this.ctx;
  }

  private log(msg: string): void {
    process.stdout.write(`[e2e] ${msg}\n`);
  }

  async start(): Promise<void> {
    const t0 = Date.now();
    rmSync(this.resultsDir, { recursive: true, force: true });
    mkdirSync(this.resultsDir, { recursive: true });
    const tc = findToolchain(ROOT);
    const chromiumPath = findChromium();
    const vsix = process.env.SEXTANT_E2E_VSIX ?? join(ROOT, 'dist-vsix', 'sextant.vsix');
    if (!existsSync(vsix))
      throw new Error(`E2E: no VSIX at ${vsix}; run 'npm run package' (npm run test:e2e does it for you)`);

    const workspace = join(this.runDir, 'workspace');
    cpSync(join(ROOT, 'sample-workspace'), workspace, { recursive: true });
    const dirs = { userDataDir: join(this.runDir, 'user-data'), extensionsDir: join(this.runDir, 'extensions') };
    this.userDataDir = dirs.userDataDir;
    mkdirSync(dirs.extensionsDir, { recursive: true });

    let t = Date.now();
    await installExtension(tc, dirs, vsix);
    this.figures['install VSIX ms'] = Date.now() - t;
    this.log(`installed ${basename(vsix)} (${Date.now() - t} ms)`);
    // A second extension with a language-model tool (scenarios/lm-tools.ts).
    await installLmToolExtension(ROOT, tc, dirs, this.runDir);

    const fake = await startFakeLlm();
    writeUserSettings(dirs, {
      ...QUIET_SETTINGS,
      'sextant.providers': [
        { name: 'fake', kind: 'openai', baseUrl: `${fake.baseUrl}/v1`, models: ['fake-model'], apiKeyEnv: E2E_KEY_ENV },
      ],
      'sextant.defaultModel': 'fake/fake-model',
      // A loaded 2-core machine may take the TypeScript server seconds to answer: the quiet period
      // (not this cap) ends the wait after an edit, so a long cap costs nothing when it answers.
      'sextant.diagnostics.waitMs': 20_000,
    });

    t = Date.now();
    this.server = await startCodeServer(tc, {
      ...dirs,
      folder: workspace,
      env: {
        [E2E_KEY_ENV]: E2E_KEY,
        [E2E_ENV_MARKER_NAME]: E2E_ENV_MARKER,
        [MANAGED_SETTINGS_ENV]: join(this.runDir, 'managed-settings.json'),
      },
      logFile: join(this.resultsDir, 'code-server.log'),
      configFile: join(this.runDir, 'code-server.yaml'),
    });
    this.figures['code-server ready ms'] = Date.now() - t;
    this.log(`code-server ${this.server.url} ready (${Date.now() - t} ms)`);

    t = Date.now();
    this.browser = await chromium.launchPersistentContext(join(this.runDir, 'chromium'), {
      executablePath: chromiumPath,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 820 },
    });
    this.browser.setDefaultTimeout(15_000);
    const page = this.browser.pages()[0] ?? (await this.browser.newPage());
    const consoleLog = join(this.resultsDir, 'browser-console.log');
    page.on('console', (m) => appendFileSync(consoleLog, `[${m.type()}] ${m.text()}\n`));
    page.on('pageerror', (e) => appendFileSync(consoleLog, `[pageerror] ${e.message}\n`));
    await page.goto(this.server.folderUrl);
    const wb = new Workbench(page, { workspace, userDataDir: dirs.userDataDir, resultsDir: this.resultsDir });
    await wb.waitReady();
    this.figures['workbench load ms'] = Date.now() - t;
    this.log(`workbench loaded in Chromium (${Date.now() - t} ms; ${Date.now() - t0} ms since start)`);

    this.ctx = {
      wb,
      page,
      fake,
      workspace,
      managedSettingsFile: join(this.runDir, 'managed-settings.json'),
      figure: (name, value) => {
        this.figures[name] = value;
        this.log(`${name}: ${value}`);
      },
    };
  }

  async stop(): Promise<void> {
    writeFileSync(join(this.resultsDir, 'figures.json'), `${JSON.stringify(this.figures, null, 2)}\n`);
    await this.browser?.close().catch(() => undefined);
    await this.server?.stop();
    await this.ctx?.fake.close();
    this.copyLogs('logs');
    if (!process.env.SEXTANT_E2E_KEEP) rmSync(this.runDir, { recursive: true, force: true });
  }

  /** Copies the extension host / server logs and the Sextant output channel into test-results. */
  private copyLogs(subdir: string): void {
    const dest = join(this.resultsDir, subdir);
    mkdirSync(dest, { recursive: true });
    const wanted = (f: string): boolean => {
      const base = f.split('/').pop() ?? '';
      return (
        /^(remoteexthost|exthost|remoteagent)\.log$/.test(base) ||
        /sextant/i.test(base) ||
        f.includes('/sextant.sextant/')
      );
    };
    const logs = findFiles(join(this.userDataDir, 'logs'), wanted);
    for (const f of logs) {
      const rel = f.slice(join(this.userDataDir, 'logs').length + 1).replace(/\//g, '__');
      copyFileSync(f, join(dest, rel));
    }
  }

  /** What the fake model was asked, a line per request: which task, and the last message (what it answered to). */
  private requestSummary(): string {
    const requests = this.ctx?.fake.requests ?? [];
    return requests
      .map((r) => {
        const messages = (r.body as { messages?: { role?: string; content?: unknown }[] } | undefined)?.messages ?? [];
        const firstUser = messages.find((m) => m.role === 'user');
        const last = messages.at(-1);
        const text = (m: { content?: unknown } | undefined, n: number) => JSON.stringify(m?.content ?? '').slice(0, n);
        return `#${r.seq} ${text(firstUser, 60)} … ${last?.role ?? '?'}: ${text(last, 300)}`;
      })
      .join('\n');
  }

  private async saveFailure(name: string): Promise<void> {
    const safe = name.replace(/[^\w.-]+/g, '_');
    try {
      const file = await this.ctx?.wb.screenshot(`FAILED-${safe}`);
      if (file) this.log(`screenshot: ${file}`);
    } catch (err) {
      this.log(`could not take a screenshot: ${String(err)}`);
    }
    try {
      const text = this.ctx?.wb.outputChannelText('Sextant') ?? '';
      writeFileSync(join(this.resultsDir, `FAILED-${safe}-sextant-output.log`), text);
      const html = await this.ctx?.wb
        .webviewFrame()
        .locator('body')
        .innerHTML({ timeout: 2_000 })
        .catch(() => '(no Sextant webview)');
      writeFileSync(join(this.resultsDir, `FAILED-${safe}-webview.html`), html ?? '');
      writeFileSync(join(this.resultsDir, `FAILED-${safe}-model-requests.txt`), this.requestSummary());
      this.copyLogs('logs');
      this.log(`logs: ${this.resultsDir}`);
    } catch (err) {
      this.log(`could not save logs: ${String(err)}`);
    }
  }
}
