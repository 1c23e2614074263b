// One chat per hub slot (the sidebar's, each editor tab's, a background one): its own controller, message
// queue and handler table over the services every chat shares. runtime.ts composes those services once.
import { randomUUID } from 'node:crypto';
import type * as vscode from 'vscode';
import { ChatController } from '../core/agent/controller';
import type { ChatHost, ChatServices } from '../core/agent/chat-services';
import { MessageQueue } from '../core/agent/message-queue';
import type { CheckpointStorage } from '../core/agent/rewind-session';
import { SubagentStops, type SubagentServices } from '../core/agent/task-tool';
import type { Logger, WorkspacePort } from '../core/ports';
import type { ResearchHost } from '../core/research/host';
import { SessionHub, type SessionSlot, type UnseenWait } from '../core/sessions/session-hub';
import { SessionWrites } from '../core/sessions/session-writes';
import { dispatchInbound, parseInbound, type Inbound, type Outbound } from '../protocol';
import { createInboundHandlers, type HandlerHost } from './handlers';
import type { SlotRooting } from './worktree-slots';
import { offerRunningElsewhere } from './running-elsewhere-offer';
import { markFirstRequest } from '../core/util/first-request-trace';

/** Messages queued while a turn runs (workspace state: a reloaded window still shows and sends them). */
const QUEUE_KEY = 'sextant.queuedMessages';

/** Inbound messages whose handlers read the session store (all others run while it is still opening). */
export const READS_HISTORY: ReadonlySet<Inbound['type']> = new Set<Inbound['type']>([
  'history',
  'resume',
  'renameSession',
  'deleteSession',
  'undoDelete',
  'export',
  'redoRewind',
  'openInEditor',
]);

export interface ChatSlotServices {
  /**
   * The controller's services that every chat shares as they are — among them the window's one fleet
   * (window-fleet.ts): every slot's requests count against its parallel limit, total caps and spend rate.
   */
  shared: Pick<
    ChatServices,
    'approvals' | 'project' | 'hooks' | 'models' | 'limits' | 'history' | 'fleet' | 'autoMode' | 'telemetry'
  >;
  host: Omit<ChatHost, 'post' | 'onCurrentSessionChanged'>;
  tools: Omit<ChatServices['tools'], 'checkpoints'>;
  subagentLimits: SubagentServices['limits'];
  /** A chat's own checkpoint storage (over its own files: a worktree session's) and research host. */
  checkpoints(workspace?: WorkspacePort): CheckpointStorage;
  research(currentModel: () => string): ResearchHost;
  /** Sees every message any chat posts (the research notifier, the first-send clock). */
  observe(message: Outbound): void;
  /** Sees every message from any chat view as it arrives, before it is parsed (the first-send clock). */
  arrived(raw: unknown): void;
  onCurrentSessionChanged(slot: SessionSlot<ChatController>, sessionId: string | undefined): void;
  queueState: vscode.Memento;
  /** What every chat's handler table shares (read when a slot is made: the runtime builds it last). */
  handlers(): Omit<HandlerHost, 'controller' | 'queue' | 'post'>;
  /** Awaited before a message of this type is handled (the reopening chat, the store for history). */
  beforeHandle(type: Inbound['type']): Promise<void>;
  /** After a view's `ready`: the cards that are not a chat's (MCP servers, hooks). */
  afterReady(): void;
  /** A chat's tools, rules and checkpoints rooted at its session's worktree, if it has one (worktree-slots.ts). */
  rooting?(sessionId: () => string): SlotRooting;
  log: Logger;
}

export function createChatHub(
  services: ChatSlotServices,
  onUnseenWait: (slot: SessionSlot<ChatController>, wait: UnseenWait) => void,
): SessionHub<ChatController> {
  let sidebarQueueTaken = false;
  // What the window's running chats changed: a chat without a worktree asks before writing one of those files.
  const writes = new SessionWrites(Date.now);
  return new SessionHub<ChatController>({
    newId: randomUUID,
    now: Date.now,
    onUnseenWait,
    create: (post, slot, from) => {
      const rooting = services.rooting?.(() => controller.sessionId);
      const controller = newController(services, slot, rooting, writes);
      if (from) {
        controller.setMode(from.status.mode ?? 'chat');
        if (from.status.model) controller.setModel(from.status.model);
      }
      // The sidebar's first chat keeps its queue in workspace state (a reloaded window still sends it);
      // other chats keep theirs in memory.
      const persisted = slot.options.place === 'sidebar' && !sidebarQueueTaken;
      if (persisted) sidebarQueueTaken = true;
      const queue = new MessageQueue(persisted ? mementoQueue(services.queueState) : memoryQueue(), randomUUID);
      // Built on the first message: the sidebar's slot is opened while the runtime is still being composed.
      let handlers: ReturnType<typeof createInboundHandlers> | undefined;
      return {
        controller,
        handle: async (raw) => {
          services.arrived(raw);
          const parsed = parseInbound(raw);
          markFirstRequest('parsed');
          if (!parsed.ok) {
            services.log.warn(parsed.error.message);
            post({ type: 'protocolError', error: parsed.error });
            return;
          }
          await services.beforeHandle(parsed.message.type);
          markFirstRequest('last chat reopened');
          handlers ??= createInboundHandlers({
            ...services.handlers(),
            ...rooting?.handlers(),
            controller,
            queue,
            post,
          });
          await dispatchInbound(handlers, parsed.message);
          if (parsed.message.type === 'ready') services.afterReady();
        },
        dispose: () => controller.dispose(),
      };
    },
  });
}

function newController(
  services: ChatSlotServices,
  slot: SessionSlot<ChatController>,
  rooting: SlotRooting | undefined,
  writes: SessionWrites,
): ChatController {
  const controller: ChatController = new ChatController({
    ...services.shared,
    ...(rooting ? { project: rooting.project } : {}),
    host: {
      ...services.host,
      post: (message) => {
        services.observe(message);
        slot.post(message);
      },
      onCurrentSessionChanged: (id) => services.onCurrentSessionChanged(slot, id),
      onRunningElsewhere: (id, message) => void offerRunningElsewhere(controller, id, message),
    },
    subagents: { limits: services.subagentLimits, stops: new SubagentStops() },
    tools: {
      ...services.tools,
      ...(rooting ? { ports: rooting.ports, permissions: rooting.permissions } : {}),
      checkpoints: services.checkpoints(rooting?.ports.workspace),
    },
    research: services.research(() => controller.currentModel()),
    writes: { all: writes, ownWorktree: () => slot.options.folder !== undefined || (rooting?.inWorktree() ?? false) },
  });
  return controller;
}

function mementoQueue(memento: vscode.Memento) {
  return {
    read: () => memento.get(QUEUE_KEY),
    write: (items: unknown) => void memento.update(QUEUE_KEY, items),
  };
}

function memoryQueue() {
  let memory: unknown;
  return {
    read: () => memory,
    write: (items: unknown) => {
      memory = items;
    },
  };
}
