// The runtime bundle: wires core to VS Code. Loaded the first time the chat or a command is used,
// never at activation (see runtime-host.ts). It composes hosts — providers (providers-host.ts), tools
// and the web part (tools-host.ts), research (research-host.ts), permissions, the quick picks — and
// one table of settings → what reloads (setting-reactions.ts).
import { warmHttpClient } from '../platform/net/warm-http-client';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { dispatchInbound, parseInbound, type Inbound, type Outbound } from '../protocol';
import { ApprovalBroker } from '../core/agent/approval-broker';
import { ChatController } from '../core/agent/controller';
import { checkpointStorage, FileCheckpointBlobs, withLocalFileOps } from '../core/checkpoints';
import { WorkerChangeFeed } from '../platform/watch/worker-change-feed';
import type { Logger } from '../core/ports';
import { ProjectContext } from '../core/extensions/project-context';
import { projectFilesOver } from '../core/extensions/project-files';
import { PromptHistory } from '../core/extensions/prompt-history';
import { createSkillTool } from '../core/extensions/skill-tool';
import type { AnyTool } from '../core/tools/types';
import { searchSessions } from '../core/store/session-search';
import { createToolSessionState, disposeToolSession } from '../core/tools/registry';
import { errorText } from '../core/util/error-text';
import { createLanguageModels } from './adapters/language-models';
import { redactLogSecrets } from './adapters/log-channel';
import { CurrentSessionFile } from './current-session';
import { DiffReviews } from './diff-review';
import { configureEmbeddings } from './embeddings-host';
import { exportReportToWorkspace, exportSessionToWorkspace } from './export-command';
import { createInboundHandlers } from './handlers';
import { commandGrantHost, confirmReferenceRead, EditorReferences } from './reference-editor';
import { referencesFor } from '../core/extensions/references/service';
import { KeyCommands } from './key-commands';
import { createPermissionHost } from './permission-host';
import { createSandboxHost } from './sandbox-host';
import { createRuntimeMcp } from './mcp-runtime';
import { createRuntimeHooks } from './hooks-host';
import { MessageQueue } from '../core/agent/message-queue';
import { addMcpServer, showMcpServers } from './mcp-commands';
import { PlanDocuments } from './plan-documents';
import { ProvidersHost } from './providers-host';
import { pickMode, pickModel, startResearch } from './quick-picks';
import { createResearchHost } from './research-host';
import { ResearchNotifier } from './research-progress';
import { SearchKeyCommands } from './search-key-commands';
import { secretsPort } from './secrets';
import { runtimeReactions, watchSettings } from './setting-reactions';
import { openHistoryStore } from './history-store-host';
import { modelServices } from './model-services';
import { readPermissionSettings, readSettings, watchIgnoredWorkspaceSettings } from './settings';
import { showStorage } from './storage-command';
import { onTrustGranted, ToolsHost } from './tools-host';
import { SubagentStops } from '../core/agent/task-tool';
import { WorkspaceSettingsFile } from './workspace-settings';

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
  /** Sextant: MCP Servers — each server's state, tools, prompts and resources, and what to do with it. */
  showMcpServers(): Promise<void>;
  /** Sextant: Add MCP Server — to user settings or the workspace's .mcp.json. */
  addMcpServer(): Promise<void>;
  /** The browser came back from an MCP server's OAuth sign-in (the URI handler). */
  mcpOAuthRedirect(params: URLSearchParams): void;
  /** "Sextant: Approve Change" / "Deny Change": the proposal shown in `target` (a diff's URI) or the active tab. */
  decideChange(decision: 'approve' | 'deny', target?: unknown): Promise<void>;
  dispose(): Promise<void>;
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
/** Messages queued while a turn runs (workspace state: a reloaded window still shows and sends them). */
const QUEUE_KEY = 'sextant.queuedMessages';

export async function createRuntime(
  context: vscode.ExtensionContext,
  channel: vscode.LogOutputChannel,
  post: (message: Outbound) => void,
): Promise<Runtime> {
  const log: Logger = { info: (m) => channel.info(m), warn: (m) => channel.warn(m), error: (m) => channel.error(m) };
  const own = <T extends vscode.Disposable>(d: T): T => {
    context.subscriptions.push(d);
    return d;
  };
  const secrets = own(secretsPort(context.secrets));
  // Trust settings are read from user settings only; say so when a workspace sets one. The workspace's
  // own .sextant/settings.json may only tighten permissions.
  const ignoredSettings = own(watchIgnoredWorkspaceSettings(log));
  const workspaceSettings = own(new WorkspaceSettingsFile(log));
  void workspaceSettings.reload();
  // VS Code's Language Model API: listed now and whenever VS Code says the models changed.
  const languageModels = own(createLanguageModels(log));
  const providers = new ProvidersHost(secrets, languageModels, log);
  const configs = () => providers.configs();
  const knownSecrets = providers.keys.secretValues();
  redactLogSecrets(channel, knownSecrets);

  // History never makes the first request wait (history-store-host.ts); only the key lookups are awaited
  // (the first request needs its key, and the journal's redaction needs the stored values).
  const started = performance.now();
  const secretsReady = providers.keys.refresh().then(() => performance.now() - started);
  const store = openHistoryStore({ context, log, secrets: () => knownSecrets, notice: (t) => controller.notice(t) });
  log.info(`keys looked up in ${(await secretsReady).toFixed(0)} ms`);
  const embeddings = () => configureEmbeddings(store, configs, secrets, log);
  await embeddings();

  const trusted = () => vscode.workspace.isTrusted;
  const tools = own(
    new ToolsHost({
      store,
      secrets,
      log,
      configs,
      knownSecrets: () => knownSecrets,
      resolveModel: (ref) => providers.resolve(ref),
      currentModel: () => controller.currentModel(),
      trusted,
      // Skills load through their own read-only tool, so every mode with tools may use them.
      moreTools: (): AnyTool[] => [createSkillTool(project.files)],
    }),
  );
  own(onTrustGranted(tools));
  // Rules files, skills and slash commands: the workspace's and the user's own (in the home folder).
  const project: ProjectContext = new ProjectContext(projectFilesOver(tools.ports.workspace, os.homedir()));
  // Whether each tool call runs, asks or is refused: the user's rules, tightened by the workspace file.
  const permissions = own(
    createPermissionHost({
      globalStorage: context.globalStorageUri.fsPath,
      log,
      userSettings: readPermissionSettings,
      workspaceSettings: () => workspaceSettings.current().permissions,
      secrets: knownSecrets,
    }),
  );
  own(workspaceSettings.onDidChange(() => permissions.invalidate()));
  // Commands run in the box (bubblewrap / sandbox-exec) where one works; its connections go to the audit log.
  const sandbox = own(
    createSandboxHost({
      log,
      gate: permissions.gate,
      audit: (entry) => permissions.audit(entry),
      changed: () => void controller.postSnapshot(),
    }),
  );
  tools.ports.sandbox = sandbox;
  // MCP servers: approvals in the chat view, tools through the same registry and policy as the built-ins.
  const {
    host: mcp,
    channel: mcpChannel,
    prepareTools,
  } = createRuntimeMcp({
    context,
    log,
    post: (message) => post(message),
    tools,
    secrets,
    knownSecrets,
    trusted,
  });

  // Hooks (Claude Code's format): the user's, and the workspace's once approved on their card; in the box.
  const hooks = createRuntimeHooks({
    context,
    log,
    post,
    tools,
    audit: (entry) => permissions.audit(entry),
    policy: () => permissions.gate.policy(),
  });

  // The one place approvals are answered: the card, the diff view and Approve/Deny Change all reach it.
  const approvals = new ApprovalBroker(log);
  const changeFeed = own(new WorkerChangeFeed({ file: path.join(__dirname, 'change-watcher.js') }));
  const diffReviews = own(new DiffReviews({ decide: approvals.approve, log }));
  const researchNotifier = own(new ResearchNotifier((requestId) => void controller.stop(requestId)));
  // Per workspace (storageUri); without a folder open there is nothing to reopen.
  const currentSession = new CurrentSessionFile(context.storageUri?.fsPath);
  const controller: ChatController = new ChatController({
    approvals,
    project,
    hooks: hooks.engine,
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
    models: modelServices(providers, context.globalState),
    limits: {
      maxSteps: () => readSettings().maxSteps,
      budget: () => readSettings().budget,
      maxCostUsdPerMinute: () => readSettings().subagents.maxCostUsdPerMinute,
      goalMaxAttempts: () => readSettings().goalMaxAttempts,
    },
    subagents: {
      limits: {
        maxConcurrent: () => readSettings().subagents.maxConcurrent,
        maxSteps: () => readSettings().subagents.maxSteps,
        maxCostUsd: () => readSettings().subagents.maxCostUsd,
      },
      stops: new SubagentStops(),
    },
    tools: {
      toolsFor: tools.toolsFor,
      prepareTools,
      ports: tools.ports,
      createSession: createToolSessionState,
      disposeSession: disposeToolSession,
      permissions: permissions.gate,
      audit: (entry) => permissions.audit(entry),
      diffReview: diffReviews,
      // Turn checkpoints: file contents as content-addressed blobs in global storage, never in the user's repo.
      checkpoints: checkpointStorage(
        withLocalFileOps(tools.ports.workspace),
        new FileCheckpointBlobs(path.join(context.globalStorageUri.fsPath, 'checkpoints')),
        // File events so a command's coverage looks only at what changed (a worker, started on first use).
        {
          feed: changeFeed,
          onScan: (r) => r.mode === 'full' && log.info(`command coverage: scanned ${r.root} (${r.reason})`),
        },
      ),
    },
    history: { persistence: store, searchSessions: (query) => searchSessions(store, query) },
    research: createResearchHost({
      searchClient: tools.searchClient,
      pageFetcher: tools.pageFetcher,
      resolveModel: (ref) => providers.resolve(ref),
      fastModelRef: (): string => readSettings().fastModel ?? controller.currentModel(),
      workspace: () => ({
        ws: tools.ports.workspace,
        rgPath: tools.ports.search.ripgrepPath(),
        policy: () => permissions.gate.policy(),
      }),
      memento: context.workspaceState,
      log,
      browser: (runId) => tools.researchBrowser(runId),
    }),
  });

  // Settings → what reloads (the table is in setting-reactions.ts). Everything else is read on every use.
  own(
    watchSettings(
      runtimeReactions({
        checkIgnoredSettings: () => ignoredSettings.check(),
        reloadProviders: () => {
          providers.reload();
          void providers.keys.refresh();
        },
        reloadEmbeddings: () => void embeddings(),
        setRetention: (days) => store.setRetention(days),
        purgeDeletedAfterDays: () => readSettings().purgeDeletedAfterDays,
        logPrivateHosts: () => tools.logPrivateHosts(),
        reloadUserHooks: () => hooks.reloadUser(),
        invalidatePermissions: () => permissions.invalidate(),
      }),
      log,
    ),
  );
  // A model's context window comes with VS Code's list: the registry takes the new list, and models
  // installed or removed in VS Code (e.g. Copilot Chat signed in) show up in the picker at once.
  own(
    languageModels.onDidChange(() => {
      providers.reload();
      void controller.postSnapshot();
    }),
  );
  // A key set or cleared (here, or in another window) updates the picker's "no key" marks.
  own(context.secrets.onDidChange(() => void providers.keys.refresh().then(() => controller.postSnapshot())));

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

  // Embeddings may use a provider's key too.
  const keys = new KeyCommands(secrets, configs, () => void embeddings());
  const searchKeys = new SearchKeyCommands(
    secrets,
    () => tools.searchSettings(),
    process.env,
    () => void providers.keys.refresh(),
  );

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
      if (parsed.message.type === 'ready') {
        mcp.post();
        hooks.post();
      }
    },
    pickMode: () => pickMode(controller),
    pickModel: () => pickModel(controller),
    setApiKey: () => keys.setApiKey(),
    clearApiKey: () => keys.clearApiKey(),
    setSearchApiKey: () => searchKeys.setSearchApiKey(),
    clearSearchApiKey: () => searchKeys.clearSearchApiKey(),
    showAuditLog: () => permissions.showAuditLog(),
    showMcpServers: () => showMcpServers(mcp.manager, mcpChannel, mcp),
    addMcpServer: () => addMcpServer(log),
    mcpOAuthRedirect: (params) => mcp.oauthRedirect(params),
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
    research: (question, { plan }) => startResearch(controller, question, plan),
    exportReport: (reportId, format) =>
      exportReportToWorkspace(controller.reports(), reportId, format, knownSecrets, log),
    dispose: async () => {
      await mcp.manager.dispose();
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
    mcpDecide: async (server, decision, card) => void (await mcp.manager.decide(server, decision, card)),
    hookDecide: (hash, decision) => hooks.decide(hash, decision),
    expandMessage: (text) => mcp.expandMessage(text),
    project,
    references: referencesFor({
      workspace: tools.ports.workspace,
      ripgrepPath: () => tools.ports.search.ripgrepPath(),
      permissions: permissions.gate,
      editor: own(new EditorReferences()),
      fetchPage: async (url, signal) => {
        const { page } = await tools.pageFetcher.fetch(url, signal ? { signal } : {});
        return { url: page.finalUrl, title: page.title, markdown: page.markdown };
      },
      readMcpResource: (server, uri) => mcp.readResourceText(server, uri),
      confirmRead: confirmReferenceRead,
    }),
    grants: commandGrantHost(context.workspaceState),
    queue: new MessageQueue(
      {
        read: () => context.workspaceState.get(QUEUE_KEY),
        write: (items) => void context.workspaceState.update(QUEUE_KEY, items),
      },
      randomUUID,
    ),
    newRequestId: randomUUID,
    prompts: new PromptHistory({
      read: () => context.workspaceState.get(PROMPT_HISTORY_KEY),
      write: (prompts) => void context.workspaceState.update(PROMPT_HISTORY_KEY, prompts),
    }),
    post,
  });
  // While the user reads the view and types, do what the first request needs — load its SDK bundle,
  // read its key and the key's bound host (each a round trip to the workbench) — so the first Send goes
  // straight to the wire. Best effort: the request meets (and reports) any problem itself.
  setTimeout(() => void providers.warm(controller.currentModel()).catch(() => undefined), 0);
  // Node's HTTP client (undici) loads on the first request: warm it against a local throwaway server.
  setTimeout(() => void warmHttpClient().catch(() => undefined), 0);
  return runtime;
}
