// Builds a ChatController with in-memory collaborators and records what it posts.
import type { SandboxPort } from '../../../extension/core/sandbox/types';
import type { ResearchHost } from '../../../extension/core/research/host';
import { z } from 'zod';
import { type ChatServices, ChatController, type ReasoningChoices } from '../../../extension/core/agent/controller';
import type { Envelope, Mode, Outbound } from '../../../extension/protocol';
import { defineTool, type AnyTool, type ToolSessionState } from '../../../extension/core/tools/types';
import { createToolRegistry } from '../../../extension/core/tools/registry';
import type { Provider } from '../../../extension/core/providers/types';
import { MemoryPersistence } from '../../fixtures/memory-persistence';
import type { PermissionGate } from '../../../extension/core/agent/permission-gate';
import type { DiffReviewPort, WorkspacePort } from '../../../extension/core/ports';
import type { LanguagePort } from '../../../extension/core/language/types';
import type { AuditEntry } from '../../../extension/core/security/audit-log';
import type { ToolRuntime } from '../../../extension/core/agent/turn';
import type { CheckpointStorage } from '../../../extension/core/agent/rewind-session';
import type { SessionPersistence } from '../../../extension/core/ports';
import type { BudgetLimits } from '../../../extension/core/usage/budget';
import type { ProjectContext } from '../../../extension/core/extensions/project-context';
import type { SubagentServices } from '../../../extension/core/agent/task-tool';
import type { HookEngine } from '../../../extension/core/extensions/hooks/hook-engine';
import { chatServices } from './chat-services';

export const readTool = (log: string[], delayMs = 20) =>
  defineTool({
    name: 'peek',
    description: 'reads',
    kind: 'read',
    permission: { subject: 'text', text: () => '' },
    modes: ['agent'],
    input: z.object({ path: z.string() }),
    subject: (i) => i.path,
    execute: async (i) => {
      log.push(`start ${i.path}`);
      await new Promise((r) => setTimeout(r, delayMs));
      log.push(`end ${i.path}`);
      return { forModel: `contents of ${i.path}`, forUi: `contents of ${i.path}`, isError: false };
    },
  });

export const writeTool = (log: string[]) =>
  defineTool({
    name: 'poke',
    description: 'writes',
    kind: 'write',
    permission: { subject: 'text', text: () => '' },
    modes: ['agent'],
    input: z.object({ path: z.string() }),
    subject: (i) => i.path,
    describeForApproval: async (i) => `write ${i.path}`,
    execute: async (i, ctx) => {
      log.push(`write ${i.path}`);
      ctx.progress('working…');
      return { forModel: `wrote ${i.path}`, forUi: `wrote ${i.path}`, isError: false };
    },
  });

export function createHarness(opts: {
  provider: Provider;
  tools?: AnyTool[];
  maxSteps?: number;
  permissions?: PermissionGate;
  workspace?: WorkspacePort;
  audit?: (entry: AuditEntry) => void;
  diffReview?: DiffReviewPort;
  /** The editor's language features (diagnostics after writes, rename); none by default. */
  language?: LanguagePort;
  /** The box commands run in (its status decides what asks: core/sandbox/command-gate.ts). */
  sandbox?: SandboxPort;
  /** Overrides the tools per mode (default: `tools` in Agent mode, none elsewhere). */
  toolsFor?: (mode: Mode) => ToolRuntime | undefined;
  /** Turn checkpoints (files and blobs); none by default. */
  checkpoints?: CheckpointStorage;
  /** A real store instead of the in-memory one (records are then not kept in `persistence.records`). */
  store?: SessionPersistence;
  /** Prefix of generated ids, so two controllers on one store do not reuse ids. */
  idPrefix?: string;
  /** Research mode's host (search, fetch, limits); without it Research is not offered. */
  research?: ResearchHost;
  /** When the host says a model call is written to its connection (default: the next macrotask). */
  afterModelCallSent?: (written: () => void) => void;
  /** Spending caps (sextant.budget.*); none by default. */
  budget?: BudgetLimits;
  /** The system prompt (default `system for <mode>`). */
  systemPrompt?: (mode: Mode, sessionStartedAt: number) => string;
  /** The model's context window (compaction); none by default. */
  contextWindow?: number;
  /** More models by reference (`provider/model`), each with its own provider and price. */
  models?: Record<string, { provider: Provider; price?: { input: number; output: number } }>;
  /** sextant.plannerModel. */
  plannerModel?: string;
  /** The picker's reasoning choices per model reference. */
  reasoning?: ReasoningChoices;
  /** Rules files, skills and slash commands; none by default. */
  project?: ProjectContext;
  /** Sub-agents (the task tool): caps and Stop; none by default. */
  subagents?: SubagentServices;
  /** sextant.budget.maxCostUsdPerMinute. */
  maxCostUsdPerMinute?: number;
  /** Hooks (Claude Code's format); none by default. */
  hooks?: HookEngine;
  /** sextant.goal.maxAttempts. */
  goalMaxAttempts?: number;
  /** The window's fleet limits shared with other sessions (core/usage/fleet-budget.ts). */
  fleet?: ChatServices['fleet'];
  /** Whether the default model accepts images (its config's `images`); unset: the provider kind's default. */
  images?: boolean;
  /** Sees every post after it is recorded (a session hub's slot, in the hub's tests). */
  onPost?: (message: Outbound) => void;
  /** sextant.autoMode.* (the reviewer of defaultMode auto); none by default. */
  autoMode?: ChatServices['autoMode'];
  /** The window's record of what running chats changed (shared by two harnesses: two slots). */
  writes?: ChatServices['writes'];
}) {
  const posts: Outbound[] = [];
  const persistence = new MemoryPersistence();
  const journaled = new Set<string>();
  let id = 0;
  const postedBeforeJournal: string[] = [];
  const controller = new ChatController(
    chatServices({
      persistence: opts.store
        ? {
            append: (r) => {
              opts.store?.append(r);
              if (r.kind === 'events') for (const e of r.envelopes) journaled.add(`${e.requestId}:${e.seq}`);
            },
            getSession: (id) => opts.store?.getSession(id),
            listSessions: (o) => opts.store?.listSessions(o) ?? [],
            ...(opts.store.images ? { images: opts.store.images } : {}),
          }
        : persistence,
      checkpoints: opts.checkpoints,
      resolveModel: async (ref) => {
        const other = opts.models?.[ref];
        if (other) {
          const [name = ref, model = ''] = ref.split('/');
          return { provider: other.provider, model, config: { name, kind: 'openai', price: other.price } };
        }
        return {
          provider: opts.provider,
          model: 'm',
          config: {
            name: 'scripted',
            kind: 'openai',
            price: { input: 1, output: 2 },
            ...(opts.contextWindow ? { contextWindow: opts.contextWindow } : {}),
            ...(opts.images !== undefined ? { images: opts.images } : {}),
          },
        };
      },
      ...(opts.plannerModel ? { plannerModel: () => opts.plannerModel } : {}),
      ...(opts.reasoning ? { reasoning: opts.reasoning } : {}),
      // The extra models are configured ones too (a slash command's or sub-agent's alias picks among them).
      modelChoices: async () => [
        { ref: 'scripted/m', label: 'Scripted', hasKey: true },
        ...Object.keys(opts.models ?? {}).map((ref) => ({ ref, label: ref, hasKey: true })),
      ],
      defaultModel: () => 'scripted/m',
      maxSteps: () => opts.maxSteps ?? 50,
      ...(opts.budget ? { budget: () => opts.budget ?? {} } : {}),
      toolsFor:
        opts.toolsFor ??
        ((mode: Mode) => (mode === 'agent' && opts.tools ? createToolRegistry(opts.tools) : undefined)),
      toolPorts: {
        workspace: opts.workspace ?? ({} as never),
        search: { ripgrepPath: () => undefined },
        terminal: {},
        log: { info() {}, warn() {}, error() {} },
        ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
        ...(opts.language ? { language: opts.language } : {}),
      },
      systemPrompt: opts.systemPrompt ?? ((mode) => `system for ${mode}`),
      trusted: () => true,
      hasWorkspaceFolder: () => true,
      createToolSession: (sessionId): ToolSessionState => ({
        sessionId,
        readFiles: new Map(),
        todos: [],
        extras: new Map(),
      }),
      disposeToolSession: () => {},
      post: (m) => {
        if (m.type === 'events') {
          // Every posted envelope must already be in the journal.
          for (const r of persistence.records)
            if (r.kind === 'events') for (const e of r.envelopes) journaled.add(`${e.requestId}:${e.seq}`);
          for (const e of m.envelopes)
            if (!journaled.has(`${e.requestId}:${e.seq}`)) postedBeforeJournal.push(`${e.requestId}:${e.seq}`);
        }
        posts.push(structuredClone(m));
        opts.onPost?.(m);
      },
      log: { info() {}, warn() {}, error() {} },
      now: () => Date.now(),
      newId: () => `${opts.idPrefix ?? 'id'}${++id}`,
      permissions: opts.permissions,
      audit: opts.audit,
      diffReview: opts.diffReview,
      research: opts.research,
      project: opts.project,
      subagents: opts.subagents,
      ...(opts.maxCostUsdPerMinute ? { maxCostUsdPerMinute: () => opts.maxCostUsdPerMinute } : {}),
      ...(opts.goalMaxAttempts ? { goalMaxAttempts: () => opts.goalMaxAttempts } : {}),
      ...(opts.fleet ? { fleet: opts.fleet } : {}),
      hooks: opts.hooks,
      ...(opts.afterModelCallSent ? { afterModelCallSent: opts.afterModelCallSent } : {}),
      ...(opts.autoMode ? { autoMode: opts.autoMode } : {}),
      writes: opts.writes,
      scheduler: {
        setTimeout: (fn, _ms) => setTimeout(fn, 1),
        clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      },
    }),
  );
  const envelopes = (requestId?: string): Envelope[] =>
    posts
      .flatMap((p) => (p.type === 'events' ? p.envelopes : []))
      .filter((e) => !requestId || e.requestId === requestId);
  return { controller, posts, persistence, envelopes, postedBeforeJournal };
}

/**
 * Checks the envelope invariants for every request seen: seq strictly increasing, `started` first,
 * exactly one terminal event (complete, aborted or error) and nothing after it.
 */
export function assertEnvelopeInvariants(envs: Envelope[]): void {
  const byRequest = new Map<string, Envelope[]>();
  for (const e of envs) byRequest.set(e.requestId, [...(byRequest.get(e.requestId) ?? []), e]);
  for (const [id, list] of byRequest) {
    for (let i = 1; i < list.length; i++) {
      if (!(list[i].seq > list[i - 1].seq)) throw new Error(`${id}: seq not strictly increasing at ${i}`);
    }
    const terminals = list.filter((e) => ['complete', 'aborted', 'error'].includes(e.event.type));
    if (terminals.length !== 1) throw new Error(`${id}: ${terminals.length} terminal events`);
    if (list[list.length - 1] !== terminals[0]) throw new Error(`${id}: events after the terminal event`);
    if (list[0].event.type !== 'started') throw new Error(`${id}: first event is ${list[0].event.type}`);
  }
}

export function textOf(envs: Envelope[]): string {
  return envs.map((e) => (e.event.type === 'text_delta' ? e.event.text : '')).join('');
}
