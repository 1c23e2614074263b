// The runtime bundle: wires core to VS Code. Loaded the first time the chat or a command is used,
// never at activation (see runtime-host.ts). It composes hosts — providers (providers-host.ts), tools
// and the web part (tools-host.ts), research (research-host.ts), permissions, the quick picks — and
// one table of settings → what reloads (setting-reactions.ts).
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { ApprovalBroker } from '../core/agent/approval-broker';
import type { ChatController } from '../core/agent/controller';
import { WorkerChangeFeed } from '../platform/watch/worker-change-feed';
import type { Logger } from '../core/ports';
import { ProjectContext } from '../core/extensions/project-context';
import { projectFilesOver } from '../core/extensions/project-files';
import { createSkillTool } from '../core/extensions/skill-tool';
import { createRememberTool } from '../core/tools/remember';
import type { AnyTool } from '../core/tools/types';
import { searchSessions } from '../core/store/session-search';
import { createToolSessionState, disposeToolSession } from '../core/tools/registry';
import { createLanguageModels } from './adapters/language-models';
import { redactLogSecrets } from './adapters/log-channel';
import { CurrentSessionFile } from './current-session';
import { DiffReviews } from './diff-review';
import { configureEmbeddings } from './embeddings-host';
import { exportReportToWorkspace, exportStoredSession } from './export-command';
import { openSourceQuote, registerSourceDocuments } from './source-quote';
import { windowKeyCommands } from './window-key-commands';
import { createPermissionHost } from './permission-host';
import { createSandboxHost } from './sandbox-host';
import { createRuntimeMcp } from './mcp-runtime';
import { createRuntimeHooks } from './hooks-host';
import { createRuntimePlugins } from './plugins-host';
import { addMcpServer, showMcpServers } from './mcp-commands';
import { ProvidersHost } from './providers-host';
import { pickMode, pickModel, startResearch } from './quick-picks';
import { chatResearch } from './research-host';
import { ResearchNotifier } from './research-progress';
import { secretsPort } from './secrets';
import { runtimeReactions, watchSettings } from './setting-reactions';
import { openHistoryStore } from './history-store-host';
import { modelServices } from './model-services';
import { readPermissionSettings, readSettings, watchIgnoredWorkspaceSettings, watchSettingsCache } from './settings';
import { watchManagedSettings } from './managed-notice';
import { showStorage } from './storage-command';
import { UsagePanel } from './usage-panel';
import { onTrustGranted, ToolsHost } from './tools-host';
import { WorkspaceSettingsFile } from './workspace-settings';
import { firstUseClock, windowWarmUp } from './first-use';
import type { BundleCodeCaches } from '../platform/code-cache';
import { whenRequestWritten } from '../platform/net/request-written';
import type { SessionHub, SessionViewer } from '../core/sessions/session-hub';
import type { SessionView } from '../core/sessions/session-view';
import { WindowChats } from './window-chats';
import { sharedHandlerParts } from './handler-parts';
import { type ChatSlotServices, createChatHub, READS_HISTORY } from './chat-slots';
import { createWindowFleet } from './window-fleet';
import { TelemetryHost } from './telemetry-host';
import { SessionStatusBar } from './status-bar';
import type { AgentsTree } from './agents-tree';
import { WorktreeHost } from './worktree-host';
import { autoModeSettings, chatLimits, subagentLimits } from './chat-limits';
import { windowCheckpoints } from './window-checkpoints';
import { createGitHost } from './git-host';
import type { Runtime } from './runtime-api';
export type { Runtime } from './runtime-api';

export async function createRuntime(
  context: vscode.ExtensionContext,
  channel: vscode.LogOutputChannel,
  /** The sidebar chat view (RuntimeHost forwards to whichever webview is alive). */
  sidebarViewer: SessionViewer,
  /** The Agents view's tree (registered at activation), when VS Code has made it. */
  agentsTree?: AgentsTree,
  /** The code caches runtime.js was loaded with (runtime-host.ts): the SDK bundles load through them too. */
  codeCaches?: BundleCodeCaches,
): Promise<Runtime> {
  // The chats and the sidebar exist only once everything they use does (below); what fires before then
  // (a setting read, a server's card) has no chat to reach, so these are read through `late`.
  const late: { hub?: SessionHub<ChatController>; sidebar?: SessionView<ChatController> } = {};
  const log: Logger = { info: (m) => channel.info(m), warn: (m) => channel.warn(m), error: (m) => channel.error(m) };
  const own = <T extends vscode.Disposable>(d: T): T => {
    context.subscriptions.push(d);
    return d;
  };
  // The workspace's own .sextant/settings.json may only tighten permissions.
  // What the administrator's managed settings pin (and which of the user's values they override).
  own(watchManagedSettings(log));
  const workspaceSettings = own(new WorkspaceSettingsFile(log));
  // Settings are read once per change, not on every use (a request reads ~20 of them several times):
  // registered before any other listener, so every reaction to a change reads the new values.
  own(watchSettingsCache(workspaceSettings.onDidChange));
  void workspaceSettings.reload();
  // Times the first request; the SDK bundles' compiled code is kept for the next window (first-use.ts).
  const { clock: firstSend, requireBundle } = firstUseClock(log, codeCaches);
  const secrets = own(secretsPort(context.secrets));
  // Trust settings are read from user settings only; say so when a workspace sets one.
  const ignoredSettings = own(watchIgnoredWorkspaceSettings(log));
  // VS Code's Language Model API: listed now and whenever VS Code says the models changed.
  const languageModels = own(createLanguageModels(log));
  const providers = new ProvidersHost(secrets, languageModels, log, requireBundle);
  const configs = () => providers.configs();
  const knownSecrets = providers.keys.secretValues();
  redactLogSecrets(channel, knownSecrets);

  // History never makes the first request wait (history-store-host.ts); only the key lookups are awaited
  // (the first request needs its key, and the journal's redaction needs the stored values).
  const started = performance.now();
  const secretsReady = providers.keys.refresh().then(() => performance.now() - started);
  const store = openHistoryStore({
    context,
    log,
    secrets: () => knownSecrets,
    notice: (t) => {
      for (const s of late.hub?.slots() ?? []) s.controller.notice(t);
    },
  });
  log.info(`keys looked up in ${(await secretsReady).toFixed(0)} ms`);
  const usage = own(new UsagePanel(context.extensionUri, store, channel));
  const embeddings = () => configureEmbeddings(store, configs, secrets, log);
  const readResearch = (reportId: string) => store.research?.({ reportId });
  own(registerSourceDocuments(readResearch));
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
      currentModel: () => late.sidebar?.slot.controller.currentModel() ?? readSettings().defaultModel,
      trusted,
      // Skills load through their own read-only tool, so every mode with tools may use them.
      // remember: a memory the user reviews on a card (home: where ~/.sextant/memory.md is).
      moreTools: (): AnyTool[] => [createSkillTool(project.files), createRememberTool(() => project.files.home())],
    }),
  );
  own(onTrustGranted(tools));
  // Claude Code plugins (marketplaces, installs): their parts join the loaders below (rules, skills, commands).
  const plugins = own(createRuntimePlugins({ context, log }));
  const folders = () => plugins.manager.folders();
  const project: ProjectContext = new ProjectContext(projectFilesOver(tools.ports.workspace, os.homedir(), folders));
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
      changed: () => late.hub?.postSnapshots(),
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
    post: (message) => late.hub?.broadcast(message),
    tools,
    secrets,
    knownSecrets,
    trusted,
  });

  // Sessions in their own git worktree: their tools and hooks are rooted there (worktree-host.ts).
  const worktrees = own(new WorktreeHost(context.workspaceState, channel));

  // Hooks (Claude Code's format): the user's, and the workspace's once approved on their card; in the box.
  const hooks = createRuntimeHooks({
    context,
    log,
    post: (message) => late.hub?.broadcast(message),
    tools,
    audit: (entry) => permissions.audit(entry),
    policy: () => permissions.gate.policy(),
    sessionWorktree: (sessionId) => worktrees.sessions.get(sessionId),
  });
  plugins.connect({ hooks: hooks.settings, mcp });

  // The one place approvals are answered: the card, the diff view and Approve/Deny Change all reach it.
  const approvals = new ApprovalBroker(log);
  const changeFeed = own(new WorkerChangeFeed({ file: path.join(__dirname, 'change-watcher.js') }));
  const checkpointsOver = windowCheckpoints(context.globalStorageUri.fsPath, changeFeed, log);
  const diffReviews = own(new DiffReviews({ decide: approvals.approve, log }));
  // A research run's Cancel stops that request wherever it runs (stop with an id matches only its own).
  const researchNotifier = own(
    new ResearchNotifier((requestId) => {
      for (const s of late.hub?.slots() ?? []) void s.controller.stop(requestId);
    }),
  );
  // Per workspace (storageUri); without a folder open there is nothing to reopen.
  const currentSession = new CurrentSessionFile(context.storageUri?.fsPath);
  const rememberSidebarChat = (id: string | undefined) => currentSession.remember(id, log);
  // One fleet for the window: every chat's requests count against its limits (window-fleet.ts).
  const fleet = createWindowFleet(own);
  // The user's own OpenTelemetry export, when they turn it on (telemetry-host.ts); off, nothing is loaded.
  const telemetry = own(new TelemetryHost(context, log, () => knownSecrets));
  // What every chat (the sidebar's, each editor tab's) shares; chat-slots.ts gives each its own controller.
  const slotServices: ChatSlotServices = {
    shared: {
      approvals,
      project,
      hooks: hooks.engine,
      models: modelServices(providers, context.globalState),
      autoMode: autoModeSettings,
      limits: chatLimits,
      fleet,
      telemetry: telemetry.sink,
      history: { persistence: store, searchSessions: (query) => searchSessions(store, query) },
    },
    host: {
      log,
      now: () => Date.now(),
      newId: () => randomUUID(),
      trusted,
      hasWorkspaceFolder: () => (vscode.workspace.workspaceFolders?.length ?? 0) > 0,
      // A request's start is recorded once the call is on its connection, not while one is being opened.
      afterModelCallSent: (written) => whenRequestWritten(written),
    },
    // Every message passes the research notifier on its way: it shows a run's progress with Cancel.
    observe: (message) => {
      researchNotifier.observe(message);
      firstSend.observe(message);
    },
    arrived: (raw) => firstSend.arrived(raw),
    // The sidebar's chat is the one a reloaded window reopens (editor tabs restore their own).
    onCurrentSessionChanged: (slot, id) => {
      if (late.sidebar?.slot === slot) rememberSidebarChat(id);
    },
    subagentLimits,
    tools: {
      toolsFor: tools.toolsFor,
      prepareTools,
      ports: tools.ports,
      createSession: createToolSessionState,
      disposeSession: disposeToolSession,
      permissions: permissions.gate,
      audit: (entry) => permissions.audit(entry),
      diffReview: diffReviews,
    },
    checkpoints: (workspace = tools.ports.workspace) => checkpointsOver(workspace),
    research: chatResearch({ tools, providers, permissions, memento: context.workspaceState, log, mcp: mcp.manager }),
    queueState: context.workspaceState,
    handlers: () => handlerParts,
    // Every message waits for the last chat to reopen; those that read history wait until it is open.
    beforeHandle: async (type) => {
      await restored.catch(() => undefined);
      if (READS_HISTORY.has(type)) await store.ready;
    },
    afterReady: () => {
      mcp.post();
      hooks.post();
    },
    rooting: worktrees.rooting({ ports: tools.ports, permissions, handlerParts: () => handlerParts, plugins: folders }),
    log,
  };

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
        fleetLimitsChanged: () => fleet.limitsChanged(),
      }),
      log,
    ),
  );
  // A model's context window comes with VS Code's list: the registry takes the new list, and models
  // installed or removed in VS Code (e.g. Copilot Chat signed in) show up in the picker at once.
  own(
    languageModels.onDidChange(() => {
      providers.reload();
      late.hub?.postSnapshots();
    }),
  );
  // A key set or cleared (here, or in another window) updates the picker's "no key" marks.
  own(context.secrets.onDidChange(() => void providers.keys.refresh().then(() => late.hub?.postSnapshots())));

  // The live chats of this window (core/sessions): each slot runs on its own, whichever view shows it.
  const hub: SessionHub<ChatController> = createChatHub(slotServices, (slot, wait) => chats.unseen.notify(slot, wait));
  // Where the chats are shown: the sidebar, editor tabs, the Agents view, notifications.
  const chats = own(
    new WindowChats({
      hub,
      sidebarViewer,
      agentsTree,
      extensionUri: context.extensionUri,
      memento: context.workspaceState,
      channel,
      storeReady: store.ready,
      onSidebarMoved: (id) => rememberSidebarChat(id),
      interrupted: () => store.interruptedSessions(),
      fleet,
      newRequestId: randomUUID,
      worktrees: worktrees.agents,
    }),
  );
  worktrees.attach(hub, chats, store.ready);
  own(new SessionStatusBar(hub, chats));
  const sidebar = chats.sidebar;
  late.hub = hub;
  late.sidebar = sidebar;
  const git = own(
    createGitHost({ providers, fleet, gate: permissions.gate, ports: tools.ports, sidebar, hub, worktrees }),
  );

  // A reloaded window reopens the chat this workspace had open; every message waits for that (current-session.ts).
  const restored = currentSession.reopen(store.ready, (id) => sidebar.slot.controller.resume(id), log);

  const runtime: Runtime = {
    get controller() {
      return sidebar.slot.controller;
    },
    hub,
    git,
    agents: chats.agents,
    handle: (raw) => sidebar.handle(raw),
    openInEditor: (sessionId) => (sessionId ? chats.openInEditor(sessionId) : worktrees.newEditorChat()),
    newChatInWorktree: () => worktrees.newChatInWorktree(),
    mergeBackWorktree: () => worktrees.mergeBack(),
    restorePanel: (panel, state) => chats.restorePanel(panel, state),
    showSlot: (slotId) => chats.showSlot(slotId),
    pickMode: () => pickMode(sidebar.slot.controller),
    pickModel: () => pickModel(sidebar.slot.controller),
    ...windowKeyCommands({
      secrets,
      configs,
      providerKeyChanged: () => void embeddings(),
      searchSettings: () => tools.searchSettings(),
      searchKeyChanged: () => void providers.keys.refresh(),
    }),
    setTelemetryHeaders: () => telemetry.setHeaders(),
    showAuditLog: () => permissions.showAuditLog(),
    showMcpServers: () => showMcpServers(mcp.manager, mcpChannel, mcp),
    addMcpServer: () => addMcpServer(log),
    plugins: plugins.picks,
    mcpOAuthRedirect: (params) => mcp.oauthRedirect(params),
    showStorage: () => showStorage(store, readSettings().purgeDeletedAfterDays, log),
    showUsage: async () => usage.show(),
    decideChange: (decision, target) => diffReviews.decideActive(decision, target),
    exportSession: (format) =>
      exportStoredSession(
        { store, current: () => sidebar.slot.controller.currentSessionRef(), secrets: knownSecrets },
        format,
        log,
      ),
    research: (question, { plan }) => startResearch(sidebar.slot.controller, question, plan),
    openSourceQuote: (m) => openSourceQuote(m, readResearch, log),
    exportReport: (reportId, format) =>
      exportReportToWorkspace(sidebar.slot.controller.reports(), reportId, format, knownSecrets, log),
    dispose: async () => {
      await mcp.manager.dispose();
      await hub.dispose();
      await store.close();
    },
  };
  const warmUp = windowWarmUp(providers, store, project, () => sidebar.slot.controller.currentSessionRef()?.id);
  // What every slot's handler table shares; each slot adds its controller, queue and post.
  const handlerParts = sharedHandlerParts({
    composing: (model) => void warmUp.composing(model),
    context,
    channel,
    runtime,
    diffReviews,
    mcp,
    hooks,
    project,
    tools,
    permissions,
    reviewAnswered: (answer, sessionId) => git.reviewAnswered(answer, sessionId),
  });
  warmUp.start(() => sidebar.slot.controller.currentModel());
  return runtime;
}
