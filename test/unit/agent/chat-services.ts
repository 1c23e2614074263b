// Test builders name each collaborator once, flat; this groups them into the controller's services.
import type { ChatServices } from '../../../extension/core/agent/chat-services';
import { MemoryPersistence } from '../../fixtures/memory-persistence';

type Flat = ChatServices['host'] &
  ChatServices['models'] &
  ChatServices['limits'] &
  Omit<ChatServices['tools'], 'ports' | 'createSession' | 'disposeSession'> &
  ChatServices['history'] & {
    toolPorts: ChatServices['tools']['ports'];
    createToolSession: ChatServices['tools']['createSession'];
    disposeToolSession: ChatServices['tools']['disposeSession'];
    approvals?: ChatServices['approvals'];
    research?: ChatServices['research'];
    project?: ChatServices['project'];
    subagents?: ChatServices['subagents'];
    hooks?: ChatServices['hooks'];
    fleet?: ChatServices['fleet'];
    autoMode?: ChatServices['autoMode'];
    writes?: ChatServices['writes'];
  };

export function chatServices(d: Flat): ChatServices {
  return {
    host: {
      post: d.post,
      log: d.log,
      now: d.now,
      newId: d.newId,
      trusted: d.trusted,
      hasWorkspaceFolder: d.hasWorkspaceFolder,
      ...(d.scheduler ? { scheduler: d.scheduler } : {}),
      ...(d.onCurrentSessionChanged ? { onCurrentSessionChanged: d.onCurrentSessionChanged } : {}),
      ...(d.afterModelCallSent ? { afterModelCallSent: d.afterModelCallSent } : {}),
      ...(d.onRunningElsewhere ? { onRunningElsewhere: d.onRunningElsewhere } : {}),
    },
    models: {
      resolveModel: d.resolveModel,
      modelChoices: d.modelChoices,
      defaultModel: d.defaultModel,
      systemPrompt: d.systemPrompt,
      ...(d.fallbackModel ? { fallbackModel: d.fallbackModel } : {}),
      ...(d.plannerModel ? { plannerModel: d.plannerModel } : {}),
      ...(d.reasoning ? { reasoning: d.reasoning } : {}),
    },
    limits: {
      maxSteps: d.maxSteps,
      ...(d.budget ? { budget: d.budget } : {}),
      ...(d.maxCostUsdPerMinute ? { maxCostUsdPerMinute: d.maxCostUsdPerMinute } : {}),
      ...(d.goalMaxAttempts ? { goalMaxAttempts: d.goalMaxAttempts } : {}),
    },
    tools: {
      toolsFor: d.toolsFor,
      ports: d.toolPorts,
      createSession: d.createToolSession,
      disposeSession: d.disposeToolSession,
      ...(d.permissions ? { permissions: d.permissions } : {}),
      ...(d.audit ? { audit: d.audit } : {}),
      ...(d.diffReview ? { diffReview: d.diffReview } : {}),
      ...(d.checkpoints ? { checkpoints: d.checkpoints } : {}),
    },
    history: { persistence: d.persistence, ...(d.searchSessions ? { searchSessions: d.searchSessions } : {}) },
    ...(d.approvals ? { approvals: d.approvals } : {}),
    ...(d.research ? { research: d.research } : {}),
    ...(d.project ? { project: d.project } : {}),
    ...(d.subagents ? { subagents: d.subagents } : {}),
    ...(d.hooks ? { hooks: d.hooks } : {}),
    ...(d.fleet ? { fleet: d.fleet } : {}),
    ...(d.autoMode ? { autoMode: d.autoMode } : {}),
    ...(d.writes ? { writes: d.writes } : {}),
  };
}

/**
 * The controller's services for a test that drives a model through a real registry: what is not
 * given is a quiet default (no tools, no workspace, a fixed prompt, ids id1, id2, …).
 */
export function sdkChatServices(d: Pick<Flat, 'resolveModel' | 'defaultModel' | 'post'> & Partial<Flat>): ChatServices {
  let n = 0;
  const quiet = { info() {}, warn() {}, error() {} };
  return chatServices({
    persistence: d.persistence ?? new MemoryPersistence(),
    modelChoices: async () => [],
    maxSteps: () => 5,
    toolsFor: () => undefined,
    toolPorts: { workspace: {} as never, search: { ripgrepPath: () => undefined }, terminal: {}, log: quiet },
    systemPrompt: () => 'You are a test.',
    trusted: () => true,
    hasWorkspaceFolder: () => false,
    createToolSession: (sessionId) => ({ sessionId, readFiles: new Map(), todos: [], extras: new Map() }),
    disposeToolSession: () => {},
    log: quiet,
    now: () => Date.now(),
    newId: () => `id${++n}`,
    ...d,
  });
}
