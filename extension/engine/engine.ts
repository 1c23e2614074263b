// The engine a host drives outside VS Code: the same core the extension runs (controller, tools,
// permissions, box, hooks, MCP, research, store), composed from the host-neutral parts in this folder
// and the host's small adapters (files, terminal, secrets, settings, state). A host creates one, sends
// prompts, receives the very Outbound messages the webview gets, answers approvals through a callback,
// and cancels. The command line (extension/cli) is one host; an Agent Client Protocol server is another.
//
//   const engine = await createEngine(host);
//   const outcome = await engine.prompt('fix the test', { mode: 'agent' });
//   await engine.dispose();
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Envelope, Mode, Outbound, PendingApproval, PendingQuestion, Usage } from '../protocol';
import { ApprovalBroker } from '../core/agent/approval-broker';
import { ChatController } from '../core/agent/controller';
import { SubagentStops } from '../core/agent/task-tool';
import { checkpointStorage, FileCheckpointBlobs, withLocalFileOps } from '../core/checkpoints';
import { ProjectContext } from '../core/extensions/project-context';
import { projectFilesOver } from '../core/extensions/project-files';
import { createSkillTool } from '../core/extensions/skill-tool';
import type { LanguagePort } from '../core/language/types';
import type {
  ApprovalDecision,
  AskAnswer,
  Logger,
  SearchPort,
  SecretsPort,
  TerminalPort,
  WorkspacePort,
} from '../core/ports';
import type { KeyDestinationAnswer, KeyDestinationQuestion } from '../core/providers/key-binding';
import { searchSessions } from '../core/store/session-search';
import { createToolSessionState, disposeToolSession } from '../core/tools/registry';
import type { AnyTool } from '../core/tools/types';
import { errorText } from '../core/util/error-text';
import { WorkerChangeFeed } from '../platform/watch/worker-change-feed';
import { createEngineHooks } from './hooks';
import { openHistoryStore } from './history-store';
import { createMcpManager, loadMcpSources, prepareMcpTools } from './mcp';
import { modelServices } from './model-services';
import { createPermissions } from './permissions';
import { ProvidersHost } from './providers';
import { createResearchHost } from './research';
import { createEngineSandbox } from './sandbox';
import {
  readHooksSetting,
  readMcpServersSetting,
  readPermissionSettings,
  readSandboxSettings,
  readSettings,
  researchSetting,
  type SettingsSource,
} from './settings';
import type { KeyValueState } from './state';
import { ToolsHost } from './tools';

/** What a host gives the engine. Everything is read on use, so a host may change it between prompts. */
export interface EngineHost {
  log: Logger;
  settings: SettingsSource;
  secrets: SecretsPort;
  /** The environment keys are read from (`apiKeyEnv`) and commands inherit (scrubbed). */
  env: Record<string, string | undefined>;
  /** The workspace folders (absolute); the first is where commands run. */
  workspaceFolders: string[];
  /** Where sessions, checkpoints and the audit log are kept. */
  storageDir: string;
  /** The folder the engine's other bundles sit in (provider SDKs, workers, sql-wasm.wasm). */
  bundleDir: string;
  ports: { workspace: WorkspacePort; search: SearchPort; terminal: TerminalPort; language?: LanguagePort };
  globalState: KeyValueState;
  workspaceState: KeyValueState;
  /**
   * Whether the workspace's own MCP servers (`.mcp.json`) and hooks may run. In VS Code they also need
   * the user's approval on their card; a host without cards approves them all when this is true.
   */
  trustWorkspace: boolean;
  /** Every message the webview would get (snapshots, request events, MCP and hook states). */
  post(message: Outbound): void;
  /** An approval card: the host's answer (a non-interactive host denies). */
  approve(approval: PendingApproval): Promise<ApprovalDecision>;
  /** An ask_user form: the host's answers, or undefined to refuse it. */
  answer?(question: PendingQuestion): Promise<AskAnswer[] | undefined>;
  /** Before a key goes to a host it was not stored for (a non-interactive host refuses). */
  confirmKeyDestination(q: KeyDestinationQuestion): Promise<KeyDestinationAnswer>;
}

/** How one prompt ended. */
export interface PromptOutcome {
  requestId: string;
  sessionId: string;
  end: 'complete' | 'aborted' | 'error' | 'budget';
  /** The final answer's text (the assistant's text of this request). */
  text: string;
  /** Approvals the host refused (each was reported in the events and never run). */
  refused: PendingApproval[];
  /** Tokens and cost of the request, as last reported. */
  usage?: Usage;
  error?: string;
}

export interface Engine {
  readonly controller: ChatController;
  /** Runs one request on the current session and resolves when it ended. */
  prompt(text: string, opts?: { mode?: Mode; model?: string }): Promise<PromptOutcome>;
  /** Stops the running request (its partial answer is kept). */
  cancel(): Promise<void>;
  /** Makes a stored session current; false when there is none with that id. */
  resume(sessionId: string): Promise<boolean>;
  /** The newest stored session of this workspace, if any. */
  latestSessionId(): Promise<string | undefined>;
  sessionId(): string;
  /** Why a request on this model could not start (no such provider, no key), or undefined. */
  modelProblem(ref?: string): string | undefined;
  /** The exact key values the engine holds (live): whatever the host prints is redacted of them. */
  knownSecrets(): ReadonlySet<string>;
  dispose(): Promise<void>;
}

export async function createEngine(host: EngineHost): Promise<Engine> {
  const { log, settings } = host;
  const folder = () => host.workspaceFolders[0];
  const trusted = () => true;
  const providers = new ProvidersHost({
    secrets: host.secrets,
    log,
    providersSetting: () => readSettings(settings).providers,
    env: host.env,
    confirmKeyDestination: host.confirmKeyDestination,
    bundleDir: host.bundleDir,
    managed: () => settings.managed?.() ?? {},
  });
  const configs = () => providers.configs();
  const knownSecrets = providers.keys.secretValues();
  await providers.keys.refresh();
  let controller!: ChatController;
  const store = openHistoryStore({
    dir: host.storageDir,
    bundleDir: host.bundleDir,
    log,
    secrets: () => knownSecrets,
    purgeDeletedAfterDays: readSettings(settings).purgeDeletedAfterDays,
    workspaceFolders: () => host.workspaceFolders,
    onWriteError: (text) => controller.notice(text),
    onWriteRecovered: () => controller.notice('Chat history is being saved again; nothing was lost.'),
    onUnavailable: (why) => log.error(`chat history is unavailable — ${why} This run will not be saved.`),
  });

  const project: ProjectContext = new ProjectContext(projectFilesOver(host.ports.workspace, os.homedir()));
  const tools = new ToolsHost({
    store,
    secrets: host.secrets,
    log,
    configs,
    knownSecrets: () => knownSecrets,
    resolveModel: (ref) => providers.resolve(ref),
    currentModel: () => controller.currentModel(),
    trusted,
    moreTools: (): AnyTool[] => [createSkillTool(project.files)],
    settings,
    env: host.env,
    hostPorts: host.ports,
    confirmKeyDestination: host.confirmKeyDestination,
    bundleDir: host.bundleDir,
  });
  const permissions = createPermissions({
    auditDir: path.join(host.storageDir, 'audit'),
    log,
    userSettings: () => readPermissionSettings(settings),
    // The workspace's .sextant/settings.json may only tighten: read through the project's own reader.
    workspaceSettings: () => workspaceSettings.permissions,
    workspaceFolders: () => host.workspaceFolders,
    secrets: knownSecrets,
  });
  const workspaceSettings = await readWorkspaceSettings(host.ports.workspace, folder(), log);
  const sandbox = createEngineSandbox({
    log,
    settings: () => readSandboxSettings(settings),
    gate: permissions.gate,
    workspaceFolders: () => host.workspaceFolders,
    audit: permissions.audit,
  });
  tools.ports.sandbox = sandbox;

  const mcp = createMcpManager({
    bundleDir: host.bundleDir,
    workspaceState: host.workspaceState,
    globalState: host.globalState,
    trusted,
    env: host.env,
    ports: () => tools.ports,
    cwd: folder,
    log: (server, line) => log.info(`mcp [${server}] ${line}`),
  });
  tools.useExternalTools(mcp);
  for (const p of await loadMcpSources(mcp, folder(), readMcpServersSetting(settings))) log.warn(`mcp: ${p}`);
  const hooks = createEngineHooks({
    log,
    post: host.post,
    ports: () => tools.ports,
    audit: permissions.audit,
    policy: () => permissions.gate.policy(),
    workspaceState: host.workspaceState,
    trusted,
    folder,
    readWorkspaceFile: async (file) => {
      const root = folder();
      if (!root) return undefined;
      try {
        return Buffer.from(
          await host.ports.workspace.readFile(path.join(root, file), { maxBytes: 1_000_000 }),
        ).toString('utf8');
      } catch {
        return undefined; // a missing file has no hooks
      }
    },
    userHooks: () => readHooksSetting(settings),
  });
  await hooks.reloadWorkspace();
  if (host.trustWorkspace) await trustWorkspaceExtensions(mcp, hooks, log);
  else reportUntrusted(mcp, hooks, log);

  const approvals = new ApprovalBroker(log);
  const changeFeed = new WorkerChangeFeed({ file: path.join(host.bundleDir, 'change-watcher.js') });
  const runs = new Map<string, RunRecord>();
  const onEvents = (envelopes: Envelope[]) => {
    for (const env of envelopes) {
      const run = runs.get(env.requestId);
      const e = env.event;
      if (e.type === 'approval_needed' && !run?.asked.has(e.approval.callId)) {
        run?.asked.add(e.approval.callId);
        void host.approve(e.approval).then(
          (decision) => {
            if (decision.decision === 'deny') run?.refused.push(e.approval);
            approvals.approve(e.approval.callId, decision);
          },
          (err: unknown) => approvals.approve(e.approval.callId, { decision: 'deny', reason: errorText(err) }),
        );
      } else if (e.type === 'question') {
        const q = e.question;
        void (host.answer?.(q) ?? Promise.resolve(undefined)).then((answers) => {
          if (answers) approvals.answer(q.callId, answers);
          else void controller.stop(env.requestId);
        });
      } else if (run) {
        if (e.type === 'text_delta') run.text += e.text;
        else if (e.type === 'usage') run.usage = e.usage;
        else if (e.type === 'budget_stop') run.budget = true;
        // Out of steps is a budget too: the run stopped at a cap, not on a failure.
        else if (e.type === 'error' && e.error.code === 'max_steps') run.budget = true;
        else if (e.type === 'error') run.error = e.error.message;
      }
    }
  };
  controller = new ChatController({
    approvals,
    project,
    hooks: hooks.engine,
    host: {
      post: (message) => {
        if (message.type === 'events') onEvents(message.envelopes);
        host.post(message);
      },
      log,
      now: () => Date.now(),
      newId: () => randomUUID(),
      trusted,
      hasWorkspaceFolder: () => host.workspaceFolders.length > 0,
    },
    models: modelServices(providers, host.globalState, settings, () => host.workspaceFolders),
    limits: {
      maxSteps: () => readSettings(settings).maxSteps,
      budget: () => readSettings(settings).budget,
      maxCostUsdPerMinute: () => readSettings(settings).subagents.maxCostUsdPerMinute,
    },
    subagents: {
      limits: {
        maxConcurrent: () => readSettings(settings).subagents.maxConcurrent,
        maxSteps: () => readSettings(settings).subagents.maxSteps,
        maxCostUsd: () => readSettings(settings).subagents.maxCostUsd,
      },
      stops: new SubagentStops(),
    },
    tools: {
      toolsFor: tools.toolsFor,
      prepareTools: (mode, signal) => prepareMcpTools(mcp, trusted(), mode, signal),
      ports: tools.ports,
      createSession: createToolSessionState,
      disposeSession: disposeToolSession,
      permissions: permissions.gate,
      audit: permissions.audit,
      checkpoints: checkpointStorage(
        withLocalFileOps(tools.ports.workspace),
        new FileCheckpointBlobs(path.join(host.storageDir, 'checkpoints')),
        { feed: changeFeed },
      ),
    },
    history: { persistence: store, searchSessions: (query) => searchSessions(store, query) },
    research: createResearchHost({
      searchClient: tools.searchClient,
      pageFetcher: tools.pageFetcher,
      resolveModel: (ref) => providers.resolve(ref),
      fastModelRef: (): string => readSettings(settings).fastModel ?? controller.currentModel(),
      workspace: () => ({
        ws: tools.ports.workspace,
        rgPath: tools.ports.search.ripgrepPath(),
        policy: () => permissions.gate.policy(),
      }),
      memento: host.workspaceState,
      log,
      setting: (key) => researchSetting(settings, key),
      browser: (runId) => tools.researchBrowser(runId),
    }),
  });

  return {
    controller,
    prompt: async (text, opts = {}) => {
      const requestId = randomUUID();
      const run: RunRecord = { text: '', refused: [], asked: new Set(), budget: false };
      runs.set(requestId, run);
      if (opts.model) controller.setModel(opts.model);
      const mode = opts.mode ?? 'chat';
      try {
        await controller.send(requestId, text, mode);
      } finally {
        runs.delete(requestId);
      }
      const last = controller.lastEnd();
      const end = run.budget ? 'budget' : (last ?? (run.error ? 'error' : 'complete'));
      return {
        requestId,
        sessionId: controller.sessionId,
        end,
        text: run.text,
        refused: run.refused,
        ...(run.usage ? { usage: run.usage } : {}),
        ...(run.error ? { error: run.error } : {}),
      };
    },
    cancel: () => controller.stop(),
    resume: async (sessionId) => {
      await store.ready;
      return controller.resume(sessionId);
    },
    latestSessionId: async () => {
      await store.ready;
      return store.listSessions({ limit: 1 })[0]?.id;
    },
    sessionId: () => controller.sessionId,
    modelProblem: (ref) => {
      const model = ref ?? controller.currentModel();
      const managed = providers.managedRefusal(model);
      if (managed) return managed;
      const name = model.includes('/') ? model.slice(0, model.indexOf('/')) : model;
      const config = configs().find((c) => c.name === name);
      if (!config) return `there is no provider "${name}" (add it to sextant.providers)`;
      if (providers.keys.hasKey(name)) return undefined;
      const env = config.apiKeyEnv ? `set ${config.apiKeyEnv}, or ` : '';
      return `no API key for "${name}": ${env}add it to the "keys" of ~/.sextant/config.json`;
    },
    knownSecrets: () => knownSecrets,
    dispose: async () => {
      await mcp.dispose();
      await controller.dispose();
      changeFeed.dispose();
      tools.dispose();
      sandbox.dispose();
      await store.close();
    },
  };
}

interface RunRecord {
  text: string;
  refused: PendingApproval[];
  /** Approval cards already handed to the host (a card is posted again when its diff is edited). */
  asked: Set<string>;
  budget: boolean;
  usage?: Usage;
  error?: string;
}

/** `.sextant/settings.json` of the first folder: it may only add ask/deny rules and a stricter mode. */
async function readWorkspaceSettings(workspace: WorkspacePort, root: string | undefined, log: Logger) {
  const { parseWorkspaceSettings, WORKSPACE_SETTINGS_PATH } = await import('../core/config/workspace-settings');
  if (!root) return { problems: [] };
  let text: string;
  try {
    text = Buffer.from(
      await workspace.readFile(path.join(root, ...WORKSPACE_SETTINGS_PATH.split('/')), { maxBytes: 1_000_000 }),
    ).toString('utf8');
  } catch {
    return { problems: [] };
  }
  const parsed = parseWorkspaceSettings(text);
  for (const p of parsed.problems) log.warn(`workspace settings: ${p}`);
  return parsed;
}

/** --trust-workspace (or the user's config): the workspace's servers and hooks run without a card. */
async function trustWorkspaceExtensions(
  mcp: ReturnType<typeof createMcpManager>,
  hooks: ReturnType<typeof createEngineHooks>,
  log: Logger,
): Promise<void> {
  for (const view of mcp.views()) {
    if (view.state !== 'needs_approval' || !view.approval) continue;
    await mcp.decide(view.name, 'approve', {
      configHash: view.approval.configHash,
      ...(view.approval.toolsHash ? { toolsHash: view.approval.toolsHash } : {}),
    });
    log.info(`mcp: the workspace's server "${view.name}" runs (the workspace is trusted)`);
  }
  const ws = hooks.settings.view().workspace;
  if (ws && ws.state !== 'approved') {
    await hooks.decide(ws.hash, 'approve');
    log.info("hooks: the workspace's hooks run (the workspace is trusted)");
  }
}

const UNTRUSTED =
  'the workspace is not trusted (pass --trust-workspace, or list it in ~/.sextant/config.json "trustedWorkspaces")';

/** Without trust the workspace's servers and hooks stay off: said once, with how to allow them. */
function reportUntrusted(
  mcp: ReturnType<typeof createMcpManager>,
  hooks: ReturnType<typeof createEngineHooks>,
  log: Logger,
): void {
  const servers = mcp.views().filter((v) => v.state === 'needs_approval' || v.state === 'untrusted');
  if (servers.length)
    log.warn(`mcp: the workspace's servers ${servers.map((s) => `"${s.name}"`).join(', ')} do not start: ${UNTRUSTED}`);
  const ws = hooks.settings.view().workspace;
  if (ws && ws.state !== 'approved') log.warn(`hooks: the workspace's hooks do not run: ${UNTRUSTED}`);
}
