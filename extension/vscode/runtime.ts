// The runtime bundle: wires core to VS Code. Loaded the first time the chat or a command is used,
// never at activation (see runtime-host.ts).
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { dispatchInbound, parseInbound, type Inbound, type Mode, type Outbound } from '../protocol';
import { ChatController } from '../core/agent/controller';
import { systemPromptFor } from '../core/agent/prompts';
import type { Logger } from '../core/ports';
import { ApprovalBroker } from '../core/agent/approval-broker';
import { errorText } from '../core/util/error-text';
import {
  listModelChoices,
  mergeProviderConfigs,
  withLmModelInfo,
  ProviderRegistry,
  type ProviderModule,
} from '../core/providers/registry';
import { ProviderGuards } from '../core/providers/guarded-provider';
import { lookupApiKey } from '../core/providers/keys';
import { checkKeyDestination, destinationOfUrl, embedderWithKeyCheck } from '../core/providers/key-binding';
import type { ProviderConfig, ProviderKind } from '../core/providers/types';
import { createVscodeLmProvider } from '../core/providers/vscode-lm';
import type { ReasoningChoices } from '../core/agent/chat-services';
import { REASONING_STATE_KEY, reasoningChoicesIn } from '../core/providers/reasoning-choices';
import { createLanguageModels, type LanguageModelsAdapter } from './adapters/language-models';
import { createToolRegistry, createToolSessionState, disposeToolSession } from '../core/tools/registry';
import { createMemorySearchTool } from '../core/tools/memory-search';
import { ProjectContext } from '../core/extensions/project-context';
import { projectFilesOver } from '../core/extensions/project-files';
import { createSkillTool } from '../core/extensions/skill-tool';
import { PromptHistory } from '../core/extensions/prompt-history';
import { createWebFetchTool } from '../core/tools/web-fetch';
import { createPageFetcher } from '../core/web/fetch/page-fetcher';
import type { HtmlConverter } from '../core/web/fetch/html-converter';
import { createPageAnswerer } from '../core/web/page-answer';
import { toolsWithWeb } from '../core/research/tool-set';
import { openAiEmbedder, openSessionStoreLazily } from '../core/store';
import { searchSessions } from '../core/store/session-search';
import { CurrentSessionFile } from './current-session';
import { KeyDirectory } from './key-directory';
import { createInboundHandlers } from './handlers';
import { PlanDocuments } from './plan-documents';
import { DiffReviews } from './diff-review';
import { secretsPort } from './secrets';
import { readPermissionSettings, readSearchSettings, readSettings, watchIgnoredWorkspaceSettings } from './settings';
import { SearchKeyCommands } from './search-key-commands';
import { SearchClient } from '../core/web/search/client';
import { createResearchHost } from './research-host';
import { ResearchNotifier } from './research-progress';
import { SEARCH_APIS, SEARCH_KEY_ENV_NAMES } from '../core/web/search/catalog';
import { searchKeySecretName } from '../core/web/search/keys';
import { SEARCH_PROVIDER_IDS } from '../core/web/types';
import { confirmKeyDestination, KeyCommands } from './key-commands';
import { WorkspaceSettingsFile } from './workspace-settings';
import { createPermissionHost } from './permission-host';
import { exportReportToWorkspace, exportSessionToWorkspace } from './export-command';
import { showStorage } from './storage-command';
import { createWorkspacePort } from './adapters/workspace';
import { createSearchPort } from './adapters/search';
import { createTerminalPort } from './adapters/terminal';
import { toolSecurityPorts } from './adapters/tool-security';
import { redactLogSecrets } from './adapters/log-channel';
import { FileCheckpointBlobs, withLocalFileOps } from '../core/checkpoints';

export interface Runtime {
  controller: ChatController;
  handle(raw: unknown): Promise<void>;
  pickMode(): Promise<void>;
  pickModel(): Promise<void>;
  setApiKey(): Promise<void>;
  clearApiKey(): Promise<void>;
  setSearchApiKey(): Promise<void>;
  clearSearchApiKey(): Promise<void>;
  exportSession(format?: 'markdown' | 'html' | 'json'): Promise<void>;
  /** Sextant: Show Storage — where history's disk space goes, and reclaiming it. */
  showStorage(): Promise<void>;
  /** Runs Research (or Plan Research) on a question in the chat, switching its mode. */
  research(question: string, opts: { plan: boolean }): Promise<void>;
  /** A report of the current chat (the one named, else a pick among them) to a workspace file. */
  exportReport(reportId?: string, format?: 'markdown' | 'html' | 'json'): Promise<void>;
  showAuditLog(): Promise<void>;
  /** "Sextant: Approve Change" / "Deny Change": the proposal shown in `target` (a diff's URI) or the active tab. */
  decideChange(decision: 'approve' | 'deny', target?: unknown): Promise<void>;
  dispose(): Promise<void>;
}

/** linkedom, Readability and turndown are their own bundle, loaded on the first HTML page fetched. */
function loadHtmlConverter(): Promise<HtmlConverter> {
  return Promise.resolve(require(path.join(__dirname, 'research-html.js')) as HtmlConverter);
}

function providerKindLoader(languageModels: LanguageModelsAdapter): (kind: ProviderKind) => Promise<ProviderModule> {
  return (kind) => {
    // VS Code's own models need no SDK: the provider talks to the editor through its port.
    if (kind === 'vscode-lm')
      return Promise.resolve({ createProvider: (config) => createVscodeLmProvider(config, languageModels) });
    // Each SDK is its own bundle, loaded on the first request that needs it.
    return Promise.resolve(require(path.join(__dirname, `provider-${kind}.js`)) as ProviderModule);
  };
}

/**
 * The model picker's reasoning choice per model, in global state: a per-user preference like the
 * picked model, shared by every workspace. Not a setting: the picker changes it often, and a
 * workspace cannot set it (spending stays bounded by the user-only sextant.budget.* caps).
 */
function reasoningStore(state: vscode.Memento): ReasoningChoices {
  const all = () => reasoningChoicesIn(state.get<unknown>(REASONING_STATE_KEY));
  return {
    all,
    get: (ref) => all()[ref],
    set: (ref, choice) => {
      const next = { ...all() };
      if (choice === 'off') delete next[ref];
      else next[ref] = choice;
      void state.update(REASONING_STATE_KEY, next);
    },
  };
}

/** Inbound messages whose handlers read the session store (all others run while it is still opening). */
const READS_HISTORY: ReadonlySet<Inbound['type']> = new Set<Inbound['type']>([
  'history',
  'resume',
  'renameSession',
  'deleteSession',
  'undoDelete',
  'export',
  'redoRewind',
]);

/** Where the workspace's prompt history is kept (workspace state: per workspace, across windows). */
const PROMPT_HISTORY_KEY = 'sextant.promptHistory';

export async function createRuntime(
  context: vscode.ExtensionContext,
  channel: vscode.LogOutputChannel,
  post: (message: Outbound) => void,
): Promise<Runtime> {
  const log: Logger = { info: (m) => channel.info(m), warn: (m) => channel.warn(m), error: (m) => channel.error(m) };
  const secrets = secretsPort(context.secrets);
  context.subscriptions.push(secrets);
  // Trust settings are read from user settings only; say so when a workspace sets one. The workspace's
  // own .sextant/settings.json may only tighten permissions.
  const workspaceSettings = new WorkspaceSettingsFile(log);
  context.subscriptions.push(watchIgnoredWorkspaceSettings(log), workspaceSettings);
  void workspaceSettings.reload();
  // VS Code's Language Model API: listed now and whenever VS Code says the models changed.
  const languageModels = createLanguageModels(log);
  context.subscriptions.push(languageModels);
  const configs = (): ProviderConfig[] => {
    const merged = mergeProviderConfigs(readSettings().providers);
    for (const e of merged.errors) log.warn(`sextant.providers: ${e}`);
    return withLmModelInfo(merged.configs, languageModels.cached());
  };
  // Rate limits and circuit breakers per provider, kept across settings changes (a new registry).
  const guards = new ProviderGuards({
    onBreakerChange: (name, state, detail) =>
      (state === 'open' ? log.warn : log.info)(`providers: ${name} circuit breaker ${state}: ${detail}`),
  });
  const loadProviderKind = providerKindLoader(languageModels);
  const newRegistry = () =>
    new ProviderRegistry({
      configs: configs(),
      secrets,
      env: process.env,
      loadKind: loadProviderKind,
      confirmKeyDestination,
      guards,
    });
  let registry = newRegistry();
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('sextant.providers')) return;
      registry = newRegistry();
      log.info('providers: settings changed; the next request uses them');
    }),
    // A model's context window comes with VS Code's list: the registry takes the new list.
    languageModels.onDidChange(() => {
      registry = newRegistry();
    }),
  );

  const keyDirectory = new KeyDirectory(secrets, configs, process.env, () =>
    SEARCH_PROVIDER_IDS.map((id) => ({ secret: searchKeySecretName(id), env: SEARCH_APIS[id].envVar })),
  );
  const knownSecrets = keyDirectory.secretValues();
  redactLogSecrets(channel, knownSecrets);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('sextant.providers')) void keyDirectory.refresh();
    }),
  );
  // The first request never waits for history: the journal writer opens now (cheap), the database
  // (wasm + snapshot + journal replay) in the background; appends meanwhile are journaled at once and
  // replayed into it when it opens. Only the key lookups are awaited (the first request needs its key,
  // and the journal's redaction needs the stored values).
  const started = performance.now();
  const secretsReady = keyDirectory.refresh().then(() => performance.now() - started);
  const store = openSessionStoreLazily({
    dir: context.globalStorageUri.fsPath,
    wasmPath: path.join(__dirname, 'sql-wasm.wasm'),
    log,
    secrets: () => knownSecrets,
    purgeDeletedAfterDays: readSettings().purgeDeletedAfterDays,
    onUnavailable: (err) => {
      // The chat must still work; the user is told plainly that this window keeps no history.
      const why = err instanceof Error ? err.message : String(err);
      log.error(`history store unavailable: ${why}`);
      void vscode.window.showErrorMessage(
        `Sextant: chat history is unavailable — ${why} Chats in this window will not be saved.`,
      );
    },
  });
  void store.ready.then((ok) => {
    if (ok) log.info(`history store open in ${(performance.now() - started).toFixed(0)} ms`);
  });
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('sextant.history.purgeDeletedAfterDays'))
        store.setRetention(readSettings().purgeDeletedAfterDays);
    }),
  );
  const secretsMs = await secretsReady;
  log.info(`keys looked up in ${secretsMs.toFixed(0)} ms`);
  const configureEmbeddings = async () => {
    const e = readSettings().embeddings;
    if (!e) return store.setEmbedder(undefined);
    const provider = configs().find((c) => c.name === e.provider);
    const baseUrl = e.baseUrl ?? provider?.baseUrl;
    if (!baseUrl) {
      log.warn(
        'sextant.memory.embeddings: set "baseUrl", or "provider" naming a provider with one; memory search uses ' +
          'BM25 alone.',
      );
      return store.setEmbedder(undefined);
    }
    const key = provider ? await lookupApiKey(provider, secrets, process.env).catch(() => undefined) : undefined;
    const apiKey = provider ? key?.value : e.apiKeyEnv ? process.env[e.apiKeyEnv] : undefined;
    const embedder = openAiEmbedder({ baseUrl, model: e.model, apiKey });
    // A provider's key goes to the embeddings URL only if it is bound there or the user says so.
    const check = () =>
      key && provider
        ? checkKeyDestination({
            config: provider,
            key,
            destination: destinationOfUrl(baseUrl),
            secrets,
            confirm: confirmKeyDestination,
            setting: 'sextant.memory.embeddings',
          })
        : Promise.resolve();
    store.setEmbedder(embedderWithKeyCheck(embedder, check));
    log.info(`memory search fuses BM25 with ${e.model} embeddings`);
  };
  await configureEmbeddings();
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('sextant.memory.embeddings') || e.affectsConfiguration('sextant.providers'))
        void configureEmbeddings();
    }),
  );

  // Per workspace (storageUri); without a folder open there is nothing to reopen.
  const currentSession = new CurrentSessionFile(context.storageUri?.fsPath);
  const toolRegistries = new Map<Mode, ReturnType<typeof createToolRegistry> | undefined>();
  const trusted = () => vscode.workspace.isTrusted;
  // One fetch pipeline (guard, caps, one 15-minute cache) for every session's web_fetch — and for
  // Research mode's loop (`pageFetcher.fetch(url)`). web_fetch's answer comes from
  // sextant.research.fastModel, else the chat's current model.
  const pageFetcher = createPageFetcher({
    allowPrivateHosts: () => readSettings().allowPrivateHosts,
    loadHtmlConverter,
  });
  const webTools = [
    createWebFetchTool({
      fetcher: pageFetcher,
      answerer: createPageAnswerer({
        resolveModel: (ref) => registry.resolve(ref),
        modelRef: () => readSettings().fastModel ?? controller.currentModel(),
      }),
    }),
  ];
  const logPrivateHosts = () => {
    const hosts = readSettings().allowPrivateHosts;
    const what = hosts.length
      ? `web_fetch may reach ${hosts.join(', ')}`
      : 'none (web_fetch reaches public hosts only)';
    log.info(`sextant.web.allowPrivateHosts: ${what}`);
  };
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('sextant.web.allowPrivateHosts')) logPrivateHosts();
    }),
  );
  if (readSettings().allowPrivateHosts.length) logPrivateHosts();
  const workspacePort = createWorkspacePort();
  // Rules files, skills and slash commands: the workspace's and the user's own (in the home folder).
  const project = new ProjectContext(projectFilesOver(workspacePort, os.homedir()));
  const toolsFor = (mode: Mode) => {
    const key = mode;
    if (!toolRegistries.has(key)) {
      const tools = toolsWithWeb(mode, { trusted: trusted() }, webTools);
      // Memory search reads only Sextant's own history, so every mode with tools may use it.
      // Skills load through their own read-only tool, so every mode with tools may use them too.
      if (tools.length) tools.push(createMemorySearchTool(store), createSkillTool(project.files));
      toolRegistries.set(key, tools.length ? createToolRegistry(tools) : undefined);
    }
    return toolRegistries.get(key);
  };
  context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(() => toolRegistries.clear()));

  // Web search: settings are read on every search; problems in them are logged once per change.
  let searchProblems = '';
  const searchSettings = () => {
    const parsed = readSearchSettings();
    const problems = parsed.problems.join('\n');
    if (problems && problems !== searchProblems) for (const p of parsed.problems) log.warn(p);
    searchProblems = problems;
    return parsed;
  };
  const searchClient = new SearchClient({
    settings: searchSettings,
    secrets,
    env: process.env,
    confirmKeyDestination,
    log,
  });
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('sextant.research'))
        log.info('web search: settings changed; the next search uses them');
    }),
  );

  // Whether each tool call runs, asks or is refused: the user's rules, tightened by the workspace file.
  const permissions = createPermissionHost({
    globalStorage: context.globalStorageUri.fsPath,
    log,
    userSettings: readPermissionSettings,
    workspaceSettings: () => workspaceSettings.current().permissions,
    secrets: knownSecrets,
  });
  context.subscriptions.push(
    permissions,
    workspaceSettings.onDidChange(() => permissions.invalidate()),
  );

  // The one place approvals are answered: the card, the diff view and Approve/Deny Change all reach it.
  const approvals = new ApprovalBroker(log);
  const diffReviews = new DiffReviews({ decide: approvals.approve, log });
  context.subscriptions.push(diffReviews);

  const researchNotifier = new ResearchNotifier((requestId) => void controller.abort(requestId));
  context.subscriptions.push(researchNotifier);
  const controller: ChatController = new ChatController({
    approvals,
    project,
    host: {
      // Every message passes the research notifier on its way: it shows a run's progress with Cancel.
      post: (message) => {
        researchNotifier.observe(message);
        post(message);
      },
      log,
      now: () => Date.now(),
      newId: () => randomUUID(),
      trusted,
      hasWorkspaceFolder: () => (vscode.workspace.workspaceFolders?.length ?? 0) > 0,
      onCurrentSessionChanged: (id) => {
        try {
          currentSession.write(id);
        } catch (err) {
          log.warn(`could not remember the current chat: ${errorText(err)}`);
        }
      },
    },
    models: {
      resolveModel: (ref) => registry.resolve(ref),
      modelChoices: async () =>
        listModelChoices(configs(), (name) => keyDirectory.hasKey(name), await languageModels.list()),
      defaultModel: () => readSettings().defaultModel,
      plannerModel: () => readSettings().plannerModel,
      fallbackModel: () => readSettings().fallbackModel,
      reasoning: reasoningStore(context.globalState),
      systemPrompt: (mode, sessionStartedAt) =>
        systemPromptFor(mode, {
          workspaceRoots: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
          platform: process.platform,
          date: new Date(sessionStartedAt),
        }),
    },
    limits: { maxSteps: () => readSettings().maxSteps, budget: () => readSettings().budget },
    tools: {
      toolsFor,
      ports: {
        workspace: workspacePort,
        search: createSearchPort(),
        terminal: createTerminalPort(),
        log,
        webSearch: searchClient,
        // Commands get no keys; every tool result is redacted (key shapes and these exact values).
        ...toolSecurityPorts({
          configs,
          extraKeyEnvNames: () => [readSettings().embeddings?.apiKeyEnv, ...SEARCH_KEY_ENV_NAMES],
          secrets: () => knownSecrets,
        }),
      },
      createSession: createToolSessionState,
      disposeSession: disposeToolSession,
      permissions: permissions.gate,
      audit: (entry) => permissions.audit(entry),
      diffReview: diffReviews,
      // Turn checkpoints: file contents as content-addressed blobs in global storage, never in the user's repo.
      checkpoints: {
        files: withLocalFileOps(workspacePort),
        blobs: new FileCheckpointBlobs(path.join(context.globalStorageUri.fsPath, 'checkpoints')),
      },
    },
    history: { persistence: store, searchSessions: (query) => searchSessions(store, query) },
    research: createResearchHost({
      searchClient,
      pageFetcher,
      resolveModel: (ref) => registry.resolve(ref),
      fastModelRef: (): string => readSettings().fastModel ?? controller.currentModel(),
    }),
  });

  // Models installed or removed in VS Code (e.g. Copilot Chat signed in) show up in the picker at once.
  context.subscriptions.push(languageModels.onDidChange(() => void controller.postSnapshot()));

  // A reloaded window (or a restarted VS Code) reopens the chat this workspace had open — read from
  // history, so that one waits for the store; every message waits for it too, so nothing is shown or
  // sent in a chat about to be replaced. A window with no chat to reopen waits for nothing.
  const lastSession = currentSession.read();
  const restored: Promise<void> = lastSession
    ? store.ready.then(async () => {
        if (!(await controller.resume(lastSession)))
          log.info('the last chat of this workspace is gone from history; starting a new one');
      })
    : Promise.resolve();
  restored.catch((err: unknown) => log.error(`could not reopen the last chat: ${String(err)}`));

  // A key set or cleared (here, or in another window) updates the picker's "no key" marks.
  context.subscriptions.push(
    context.secrets.onDidChange(() => void keyDirectory.refresh().then(() => controller.postSnapshot())),
  );
  // Embeddings may use a provider's key too.
  const keys = new KeyCommands(secrets, configs, () => void configureEmbeddings());
  const searchKeys = new SearchKeyCommands(secrets, searchSettings, process.env, () => void keyDirectory.refresh());

  const runtime: Runtime = {
    controller,
    handle: async (raw) => {
      const parsed = parseInbound(raw);
      if (!parsed.ok) {
        log.warn(parsed.error.message);
        post({ type: 'protocolError', error: parsed.error });
        return;
      }
      await restored.catch(() => undefined);
      // Messages that read history wait until it is open; a send, an approval or a Stop never does.
      if (READS_HISTORY.has(parsed.message.type)) await store.ready;
      await dispatchInbound(handlers, parsed.message);
    },
    pickMode: async () => {
      const snap = await controller.snapshot();
      const items = snap.modes.map((m) => ({
        label: m.mode[0].toUpperCase() + m.mode.slice(1),
        description: m.enabled ? (m.mode === snap.mode ? 'current' : '') : m.reason,
        mode: m.mode,
        enabled: m.enabled,
      }));
      const pick = await vscode.window.showQuickPick(items, { title: 'Sextant: Switch Mode' });
      if (pick?.enabled) controller.setMode(pick.mode);
      else if (pick) void vscode.window.showInformationMessage(pick.description ?? 'That mode is not available.');
    },
    pickModel: async () => {
      const snap = await controller.snapshot();
      const pick = await vscode.window.showQuickPick(
        snap.models.map((m) => ({
          label: m.ref,
          description: m.unavailable
            ? `${m.label} — ${m.unavailable}`
            : m.hasKey
              ? m.label
              : `${m.label} — no API key yet`,
          ref: m.ref,
          unavailable: m.unavailable,
        })),
        { title: 'Sextant: Select Model', placeHolder: `current: ${snap.model}` },
      );
      if (pick?.unavailable) void vscode.window.showInformationMessage(`Sextant: ${pick.unavailable}`);
      else if (pick) controller.setModel(pick.ref);
    },
    setApiKey: () => keys.setApiKey(),
    clearApiKey: () => keys.clearApiKey(),
    setSearchApiKey: () => searchKeys.setSearchApiKey(),
    clearSearchApiKey: () => searchKeys.clearSearchApiKey(),
    showAuditLog: () => permissions.showAuditLog(),
    showStorage: () => showStorage(store, readSettings().purgeDeletedAfterDays, log),
    decideChange: (decision, target) => diffReviews.decideActive(decision, target),
    exportSession: async (format) => {
      await store.ready;
      return exportSessionToWorkspace(
        {
          current: () => controller.currentSessionRef(),
          render: (id, f) => store.exportSession(id, f, { secrets: knownSecrets }),
        },
        format,
        log,
      );
    },
    research: async (question, { plan }) => {
      const mode = plan ? 'plan' : 'research';
      const modes = (await controller.snapshot()).modes;
      for (const needed of plan ? (['research', 'plan'] as const) : (['research'] as const)) {
        const m = modes.find((x) => x.mode === needed);
        if (!m?.enabled) {
          void vscode.window.showWarningMessage(`Sextant: ${m?.reason ?? `${needed} mode is not available.`}`);
          return;
        }
      }
      controller.setMode(mode);
      void controller.send(randomUUID(), question, mode, { planResearch: plan });
    },
    exportReport: (reportId, format) =>
      exportReportToWorkspace(controller.reports(), reportId, format, knownSecrets, log),
    dispose: async () => {
      await controller.dispose();
      await store.close();
    },
  };
  const handlers = createInboundHandlers({
    controller,
    log: channel,
    setApiKey: runtime.setApiKey,
    pickModel: runtime.pickModel,
    exportSession: runtime.exportSession,
    exportReport: runtime.exportReport,
    planDocuments: new PlanDocuments(),
    diffReviews,
    project,
    prompts: new PromptHistory({
      read: () => context.workspaceState.get(PROMPT_HISTORY_KEY),
      write: (prompts) => void context.workspaceState.update(PROMPT_HISTORY_KEY, prompts),
    }),
    post,
  });
  // While the user reads the view and types, do what the first request needs — load its SDK bundle,
  // read its key and the key's bound host (each a round trip to the workbench) — so the first Send goes
  // straight to the wire. Best effort: the request meets (and reports) any problem itself.
  setTimeout(() => void registry.warm(controller.currentModel()).catch(() => undefined), 0);
  // Node loads its fetch implementation (undici) on the first call: do that now too, with a data: URL
  // (nothing leaves the machine), instead of on the first request.
  setTimeout(
    () =>
      void fetch('data:,')
        .then((r) => r.arrayBuffer())
        .catch(() => undefined),
    0,
  );
  return runtime;
}
