// A Chat, Agent or Plan turn: the model with the mode's tools, the history compacted first when the
// next prompt nears the context window, and again between the model calls of a long run.
import { turnWriteGuard } from './turn-write-guard';
import { latestCompaction, type Compaction, type Mode, type PlanGrant, type Usage } from '../../protocol';
import { rulesSection } from '../extensions/project-prompt';
import type { RulesFile } from '../extensions/rules';
import { SpendRateWatch } from '../usage/spend-rate';
import { withNestedRules } from '../extensions/nested-rules';
import { toolRedactor } from '../tools/util/redaction';
import { SessionHooks } from '../extensions/hooks/session-hooks';
import { spokenNotes } from '../extensions/hooks/hook-output';
import type { ModelMessage } from '../providers/types';
import { acceptsImages } from '../providers/registry';
import type { ToolPorts } from '../ports';
import { type RunBudget, tokensOf } from '../usage/budget';
import type { ChatServices } from './chat-services';
import { subagentModelRef } from './subagent-model';
import {
  COMPACT_AT,
  DEFAULT_CONTEXT_WINDOW,
  estimatePromptTokens,
  estimateTextTokens,
  modelFacingHistory,
} from './compaction';
import type { CurrentChat } from './current-chat';
import { reasoningFor, type Target, withFallback } from './run-target';
import { compactSession, nextPromptTokens } from './session-compaction';
import { withDelegation } from './task-tool';
import { runTurn, type TurnEvent } from './turn';
import { gateWithPreApproval, type PermissionGate } from './permission-gate';
import { auditPlanGrant, gateWithRunGrant } from './run-grant-gate';
import { runShellCommandsOf } from './command-shell';
import { turnReviewer } from './auto-review/turn-reviewer';
import type { ToolSessionState } from '../tools/types';
import type { PreApproval } from '../extensions/allowed-tools';
import type { TelemetryScope } from '../telemetry/telemetry-sink';
import { auditWithTelemetry } from '../telemetry/traced-audit';
import type { SteerSource } from './steering';
import type { ImageBlock } from '../extensions/images/chat-images';
import { markFirstRequest } from '../util/first-request-trace';

export interface AgentTurnRequest {
  text: string;
  mode: Mode;
  signal: AbortSignal;
  target: Target;
  /** The approval and ask ports of this request (the approval broker's). */
  asking: Pick<ToolPorts, 'approval' | 'ask' | 'memory'>;
  /** Steps this run may take (sextant.agent.maxSteps; a Continue grants another batch). */
  maxSteps: number;
  beforeWrite?: (absPath: string) => Promise<void>;
  /** Before each command the turn runs; the result once it ended (the checkpoint's command coverage). */
  beforeCommand?: () => Promise<() => Promise<readonly string[] | undefined>>;
  budget?: RunBudget;
  /** A slash command's `allowed-tools`, pre-approved for this turn only. */
  preApproved?: PreApproval;
  /** An approved plan's grant, for this run only (core/permissions/run-grant.ts). */
  planGrant?: PlanGrant;
  /** Messages the user steers the turn with (delivered at step boundaries). */
  steers?: SteerSource;
  /** Images the user attached to the message (checked): image parts after its text. */
  images?: ImageBlock[];
  /**
   * A command file's body is the first this many characters of `text`: its `` !`command` `` lines run
   * (command-shell.ts) before it is sent. What follows (attached files) is data and is never run.
   */
  commandShellChars?: number;
  /**
   * The window's sessions together (fleet-seat.ts): the run's spending so far — its own calls and its
   * sub-agents', live — as it grows; a warning to show. With it, the spend-rate warning is the window's.
   */
  spend?: (run: { tokens: number; costUsd: number | undefined }) => string | undefined;
  /** The request's telemetry (request-telemetry.ts): its tool calls and sub-agents are reported there. */
  telemetry?: TelemetryScope;
}

export async function* agentTurn(chat: CurrentChat, services: ChatServices, r: AgentTurnRequest) {
  const s = chat.session;
  const { target, signal, budget } = r;
  const hooks = services.hooks && new SessionHooks(services.hooks, s.id);
  const base =
    r.preApproved && services.tools.permissions
      ? gateWithPreApproval(services.tools.permissions, r.preApproved)
      : services.tools.permissions;
  // A grant of this run only (an approved plan's, edits approved for the rest of the turn): a new one per request.
  const permissions = base && gateWithRunGrant(base, r.planGrant);
  if (permissions && r.planGrant) auditPlanGrant(services.tools.audit, s.id, services.host.newId(), r.planGrant);
  const text = await withCommandOutputs(services, r, permissions, s.tools);
  markFirstRequest('command lines run');
  if (signal.aborted) return;
  // Files another running chat changed ask before this one writes them; this one's writes are recorded.
  const guarded = turnWriteGuard(services, () => ({ id: s.id, title: s.title }), r.beforeWrite, r.beforeCommand);
  const beforeWrite = guarded?.beforeWrite ?? r.beforeWrite;
  const beforeCommand = guarded?.beforeCommand ?? r.beforeCommand;
  // SessionStart (the session's first turn) and UserPromptSubmit hooks: context for the model, or a block.
  const opening = hooks ? await promptHooks(hooks, text, s.modelMessages.length === 0, signal) : undefined;
  markFirstRequest('prompt hooks');
  if (signal.aborted) return;
  for (const note of opening?.notes ?? []) yield { type: 'notice', text: note } as TurnEvent;
  if (opening?.blocked !== undefined) {
    yield { type: 'notice', text: `A UserPromptSubmit hook blocked this prompt: ${opening.blocked}` } as TurnEvent;
    return;
  }
  const said = opening?.context ? `${text}\n\n${HOOK_CONTEXT_LABEL}\n${opening.context}` : text;
  const userMessage: ModelMessage = {
    role: 'user',
    content: r.images?.length ? [{ type: 'text', text: said }, ...r.images] : said,
  };
  if (opening?.context || text !== r.text) yield { type: 'prompt', message: userMessage } as TurnEvent;
  await services.tools.prepareTools?.(r.mode, r.signal);
  markFirstRequest('tools prepared');
  if (r.signal.aborted) return;
  const prompt = await turnPrompt(services, r.mode, s.createdAt);
  markFirstRequest('system prompt');
  const { tools, system } = prompt;
  for (const text of skippedRulesNotices(s.tools.extras, prompt.rules))
    yield { type: 'notice', kind: 'info', text } as TurnEvent;
  const fixedTokens = estimatePromptTokens(system, tools?.specs() ?? [], []);
  const near = (extra: number, midTurn: boolean) =>
    compactNearWindow(chat, services, { target, fixedTokens, extraTokens: extra, signal, budget, midTurn, hooks });
  const first = await near(estimateTextTokens(text), false);
  markFirstRequest('compaction check');
  if (signal.aborted) return;
  for (const ev of first?.events ?? []) yield ev;
  // The marker reaches the chat when the outbox flushes: the compaction in force is taken from here.
  const compaction = first?.compaction ?? latestCompaction(s.chat);
  s.tools.compacted = Boolean(compaction);
  // A long agent run grows the prompt step by step: between its model calls the same check runs (once
  // more after a failure would only fail again, so a failed compaction is not retried in this turn).
  let failed = first !== undefined && !first.compaction;
  const compactBetweenSteps = async () => {
    if (failed) return undefined;
    const done = await near(0, true);
    if (!done) return undefined;
    failed = !done.compaction;
    if (done.compaction) s.tools.compacted = true;
    const messages = done.compaction ? modelFacingHistory(s.modelMessages, done.compaction) : undefined;
    return { events: done.events, ...(messages ? { messages } : {}) };
  };
  const reasoning = reasoningFor(services.models, target.ref);
  const ports = { ...services.tools.ports, ...r.asking };
  // The parent's own spending so far, read by its sub-agents' caps.
  let parentUsage: Usage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0 };
  const delegation =
    services.subagents && tools && (r.mode === 'agent' || r.mode === 'plan')
      ? await withDelegation(services.project?.files, {
          services: services.subagents,
          parentTools: tools,
          parentTarget: target,
          resolveModel: async (wanted) => {
            const { ref, note } = await subagentModelRef(wanted, target.ref, () => services.models.modelChoices());
            return { ...(await services.models.resolveModel(ref)), ref, ...(note ? { note } : {}) };
          },
          rulesSection: rulesSection(prompt.rules),
          sessionId: s.id,
          ports,
          ...(services.tools.permissions ? { permissions: services.tools.permissions } : {}),
          ...(services.tools.audit ? { audit: services.tools.audit } : {}),
          ...(r.telemetry ? { telemetry: r.telemetry } : {}),
          now: services.host.now,
          newId: services.host.newId,
          ...(beforeWrite ? { beforeWrite } : {}),
          ...(beforeCommand ? { beforeCommand } : {}),
          createSession: (id) => services.tools.createSession(id),
          disposeSession: (state) => services.tools.disposeSession(state),
          limits: services.subagents.limits,
          ...(budget ? { budget } : {}),
          parentSpent: () => parentUsage,
          ...(services.research ? { research: services.research } : {}),
          ...(hooks ? { hooks } : {}),
        })
      : undefined;
  markFirstRequest('sub-agents');
  for (const problem of delegation?.problems ?? []) {
    // Once per chat and file: the other definitions load; this one is named until it is fixed.
    const shown = (s.tools.extras.get(SHOWN_PROBLEMS) as Set<string> | undefined) ?? new Set<string>();
    s.tools.extras.set(SHOWN_PROBLEMS, shown);
    if (shown.has(problem)) continue;
    shown.add(problem);
    yield { type: 'notice', kind: 'info', text: `Sub-agent definition not loaded: ${problem}` } as TurnEvent;
  }
  // The window's spend rate counts every session (fleet-budget.ts); a run alone judges its own.
  const rate = new SpendRateWatch(r.spend ? undefined : services.limits.maxCostUsdPerMinute?.(), services.host.now());
  const autoReview = turnReviewer({
    services,
    permissions,
    chatModel: target.ref,
    chat: () => {
      chat.flush();
      return s.chat;
    },
    ...(budget ? { budget } : {}),
    runUsage: () => parentUsage,
  });
  const turn = runTurn([...modelFacingHistory(s.modelMessages, compaction), userMessage], {
    sessionId: s.id,
    // The turn may fail over (and says so); the compaction above never does: its summary uses the chat's model.
    provider: withFallback(services.models, s.model, target).provider,
    model: target.model,
    system,
    price: target.config.price,
    tools: delegation?.tools ?? tools,
    toolSession: s.tools,
    ports,
    maxSteps: r.maxSteps,
    supportsImages: acceptsImages(target.config),
    ...(services.history.persistence.images ? { images: services.history.persistence.images } : {}),
    signal,
    now: services.host.now,
    permissions,
    audit: auditWithTelemetry(services.tools.audit, r.telemetry, services.host.now),
    newId: services.host.newId,
    ...(beforeWrite ? { beforeWrite } : {}),
    ...(beforeCommand ? { beforeCommand } : {}),
    ...(budget ? { budget } : {}),
    ...(reasoning ? { reasoning } : {}),
    compactBetweenSteps,
    ...(hooks ? { hooks } : {}),
    ...(r.steers ? { steers: r.steers } : {}),
    ...(autoReview ? { autoReview } : {}),
    ...(guarded ? { writeGuard: guarded.writeGuard } : {}),
  });
  try {
    for (;;) {
      const next = await turn.next();
      if (next.done) return next.value;
      const ev = next.value;
      if (ev.type === 'usage') {
        parentUsage = ev.usage;
        delegation?.parentReported();
      }
      yield ev;
      if (ev.type === 'usage' || ev.type === 'subagent_updated') {
        const cost =
          parentUsage.costUsd === undefined ? undefined : parentUsage.costUsd + (delegation?.liveCostUsd() ?? 0);
        const tokens = tokensOf(parentUsage) + (delegation?.liveTokens() ?? 0);
        const warning = r.spend ? r.spend({ tokens, costUsd: cost }) : rate.check(cost, services.host.now());
        if (warning) yield { type: 'notice', kind: 'budget', text: warning } as TurnEvent;
      }
    }
  } finally {
    guarded?.writeGuard.ended(); // this request's changes no longer hold the other chats back
  }
}

const SHOWN_PROBLEMS = 'subagent-definition-problems';
const SHOWN_SKIPPED_RULES = 'skipped-rules-files';

/**
 * A notice for each rules file the safe reader refused (a link out of the workspace, to a key, to
 * /proc): once per chat and file and reason, so the user knows why their CLAUDE.md is not followed.
 */
function skippedRulesNotices(extras: Map<string, unknown>, rules: readonly RulesFile[]): string[] {
  const shown = (extras.get(SHOWN_SKIPPED_RULES) as Set<string> | undefined) ?? new Set<string>();
  extras.set(SHOWN_SKIPPED_RULES, shown);
  const out: string[] = [];
  for (const r of rules) {
    const text = `Rules file ${r.label} skipped: ${r.note}.`;
    if (!r.refused || shown.has(text)) continue;
    shown.add(text);
    out.push(text);
  }
  return out;
}

/** The request's text with its command body's `` !`…` `` outputs in place (the rest as it was). */
async function withCommandOutputs(
  services: ChatServices,
  r: AgentTurnRequest,
  permissions: PermissionGate | undefined,
  session: ToolSessionState,
): Promise<string> {
  if (r.commandShellChars === undefined) return r.text;
  const body = r.text.slice(0, r.commandShellChars);
  const ran = await runShellCommandsOf(body, {
    mode: r.mode,
    ...(permissions ? { permissions } : {}),
    ports: { ...services.tools.ports, ...r.asking },
    session,
    signal: r.signal,
    ...(r.beforeCommand ? { beforeCommand: r.beforeCommand } : {}),
    ...(services.tools.audit ? { audit: auditWithTelemetry(services.tools.audit, r.telemetry) } : {}),
    newId: services.host.newId,
    now: services.host.now,
  });
  return ran + r.text.slice(r.commandShellChars);
}
/** Where hooks' context starts in the user's message (the model sees it; the chat shows the text typed). */
export const HOOK_CONTEXT_LABEL = "[Context added by the user's hooks]";

async function promptHooks(hooks: SessionHooks, text: string, first: boolean, signal: AbortSignal) {
  const start = first ? await hooks.sessionStart('startup', signal) : undefined;
  const submit = await hooks.userPromptSubmit(text, signal);
  const notes = [...(start ? spokenNotes(start) : []), ...spokenNotes(submit)];
  const context = [start?.additionalContext, submit.additionalContext].filter(Boolean).join('\n\n');
  const blocked = submit.block || submit.halt ? (submit.reason ?? submit.stopReason ?? 'no reason given') : undefined;
  return { notes, context, ...(blocked !== undefined ? { blocked } : {}) };
}

/**
 * The turn's tools and system prompt: the mode's prompt, then the project's rules files and skills list
 * (read afresh, so an edit counts from this request on; unchanged files keep the prefix byte-identical).
 * Tools attach a subfolder's rules to their result the first time they touch a file below it.
 */
export async function turnPrompt(services: ChatServices, mode: Mode, sessionStartedAt: number) {
  const base = services.tools.toolsFor(mode);
  const modePrompt = services.models.systemPrompt(mode, sessionStartedAt);
  const project = services.project;
  if (!project) return { tools: base, system: modePrompt, rules: [], skills: [] };
  const loaded = await project.load(Boolean(base?.specs().some((t) => t.name === 'skill')));
  // The last line of defence: a key that reached a rules file (or a skill's description) goes to the
  // model redacted, as tool output does — the reader already refuses links to keys and /proc.
  const redact = toolRedactor(services.tools.ports);
  const section = redact(loaded.section);
  return {
    tools: base ? withNestedRules(base, project.files) : undefined,
    system: section ? `${modePrompt}\n\n${section}` : modePrompt,
    rules: loaded.rules.map((r) => (r.text ? { ...r, text: redact(r.text) } : r)),
    skills: loaded.skills,
  };
}

/**
 * When the next prompt nears the context window, summarises the older turns (the summary uses the
 * chat's model, never the fallback). Undefined when there is no need; else the events to show — the
 * marker, or a notice when it failed (the request then goes in full) — and the compaction made. Its
 * cost counts in the session's caps at once.
 */
async function compactNearWindow(
  chat: CurrentChat,
  services: ChatServices,
  o: {
    target: Target;
    fixedTokens: number;
    extraTokens: number;
    signal: AbortSignal;
    budget: RunBudget | undefined;
    midTurn: boolean;
    hooks: SessionHooks | undefined;
  },
): Promise<{ events: TurnEvent[]; compaction?: Compaction } | undefined> {
  const s = chat.session;
  const window = o.target.config.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  chat.flush(); // the chat (and its latest compaction) up to date
  const tokensBefore = nextPromptTokens(s, o.fixedTokens, o.extraTokens);
  if (tokensBefore < COMPACT_AT * window) return undefined;
  const pre = await o.hooks?.preCompact('auto', o.signal);
  const hookNotes: TurnEvent[] = (pre ? spokenNotes(pre) : []).map((text) => ({ type: 'notice', text }));
  const how = {
    trigger: 'auto' as const,
    tokensBefore,
    fixedTokens: o.fixedTokens,
    signal: o.signal,
    midTurn: o.midTurn,
  };
  const done = await compactSession(s, o.target, how, services.host);
  if (!done.ok) {
    return {
      events: [
        ...hookNotes,
        {
          type: 'notice',
          kind: 'compaction',
          text: `Could not compact the conversation (${done.reason}); sent in full.`,
        },
      ],
    };
  }
  const compaction = done.compaction;
  if (o.budget && compaction.usage) {
    o.budget.sessionSpent.tokens += tokensOf(compaction.usage);
    o.budget.sessionSpent.costUsd += compaction.usage.costUsd ?? 0;
  }
  return { compaction, events: [...hookNotes, { type: 'compacted', compaction, messageId: services.host.newId() }] };
}
