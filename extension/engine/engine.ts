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
import type { Envelope, PendingApproval, Usage } from '../protocol';
import { ApprovalBroker } from '../core/agent/approval-broker';
import { ChatController } from '../core/agent/controller';
import { FleetBudget } from '../core/usage/fleet-budget';
import { type GoalOutcome, promptRequestId, sendPrompt } from './goal-prompt';
import { SubagentStops } from '../core/agent/task-tool';
import { checkpointStorage, FileCheckpointBlobs, withLocalFileOps } from '../core/checkpoints';
import { ProjectContext } from '../core/extensions/project-context';
import { projectFilesOver } from '../core/extensions/project-files';
import { createSkillTool } from '../core/extensions/skill-tool';
import { searchSessions } from '../core/store/session-search';
import { createToolSessionState, disposeToolSession } from '../core/tools/registry';
import type { AnyTool } from '../core/tools/types';
import { errorText } from '../core/util/error-text';
import { WorkerChangeFeed } from '../platform/watch/worker-change-feed';
import { createEngineHooks } from './hooks';
import { openHistoryStore } from './history-store';
import { createMcpManager, loadMcpSources, prepareMcpTools } from './mcp';
import { mcpResearchPort } from '../core/mcp/research-port';
import { modelServices } from './model-services';
import { createPermissions } from './permissions';
import { ProvidersHost } from './providers';
import { createResearchHost } from './research';
import { createEngineSandbox } from './sandbox';
import {
  readFleetLimits,
  readHooksSetting,
  readMcpServersSetting,
  readPermissionSettings,
  readSandboxSettings,
  readAutoModeSettings,
  readSettings,
  researchSetting,
} from './settings';
import { ToolsHost } from './tools';
import type { Engine, EngineHost } from './engine-host';
import { readWorkspaceSettings, reportUntrusted, trustWorkspaceExtensions } from './workspace-trust';

export type { Engine, EngineHost, PromptOutcome } from './engine-host';

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
    // The database opens when history is read (resume, search) or at dispose: a request never waits
    // for it, and its records are journaled meanwhile.
    openOnFirstUse: true,
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
      const run = runs.get(promptRequestId(env.requestId)); // a goal's attempts belong to its prompt
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
    autoMode: {
      reviewerModel: () => readAutoModeSettings(settings).reviewerModel,
      timeoutMs: () => readAutoModeSettings(settings).timeoutMs,
    },
    limits: {
      maxSteps: () => readSettings(settings).maxSteps,
      budget: () => readSettings(settings).budget,
      maxCostUsdPerMinute: () => readSettings(settings).subagents.maxCostUsdPerMinute,
      goalMaxAttempts: () => readSettings(settings).goalMaxAttempts,
    },
    // The total caps, the parallel limit and the spend rate over the sessions this engine's host runs.
    fleet: host.fleet ?? new FleetBudget({ limits: () => readFleetLimits(settings), now: Date.now }),
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
      mcp: mcpResearchPort(mcp),
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
      let goal: GoalOutcome | undefined;
      try {
        goal = await sendPrompt(controller, requestId, text, mode);
      } finally {
        runs.delete(requestId);
      }
      if (goal?.problem && !run.error) run.error = goal.problem;
      const last = goal?.problem && !run.budget ? 'error' : controller.lastEnd();
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
