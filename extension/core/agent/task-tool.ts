// Delegation for one Agent or Plan request: the `task` tool (declared in core/tools/task.ts) added to
// the turn's tools, running the sub-agents the workspace, the user and Sextant define (subagent-run.ts)
// under one concurrency gate, one set of per-file turns, and the run's budgets. Sub-agents cannot
// start sub-agents: depth is at most 1 (their tools never include `task`).
import type { Usage } from '../../protocol';
import { tokensOf } from '../usage/budget';
import { type AgentDefinition, BUILTIN_AGENTS, discoverAgents } from '../extensions/agent-definitions';
import type { ProjectFiles } from '../extensions/project-files';
import { createToolRegistry } from '../tools/registry';
import { type TaskInput, taskDeclaration } from '../tools/task';
import { type AnyTool, defineTool, errorResult } from '../tools/types';
import { runSubagent, type SubagentLimits, type SubagentScope } from './subagent-run';
import { tracedSubagent } from './subagent-telemetry';
import { ConcurrencyGate, FileLocks } from './subagent-tools';
import type { ToolRuntime } from './turn';

/** The Stop of each running sub-agent, by its `task` call's id (the card's Stop button). */
export class SubagentStops {
  private readonly stops = new Map<string, () => void>();

  register(callId: string, stop: () => void): () => void {
    this.stops.set(callId, stop);
    return () => {
      if (this.stops.get(callId) === stop) this.stops.delete(callId);
    };
  }

  /** Stops one sub-agent; false when none runs under that id. */
  stop(callId: string): boolean {
    const stop = this.stops.get(callId);
    stop?.();
    return Boolean(stop);
  }

  get running(): number {
    return this.stops.size;
  }
}

/** What the host gives delegation: the settings (read on every use) and the Stop registry. */
export interface SubagentServices {
  limits: SubagentLimits;
  stops: SubagentStops;
}

export type DelegationScope = Omit<
  SubagentScope,
  'definitions' | 'gate' | 'locks' | 'spent' | 'settled' | 'register'
> & {
  services: SubagentServices;
};

/**
 * The request's tools with `task` added, and the problems found in definition files (each naming its
 * file). Undefined tools: the mode has none, so nothing can be delegated either.
 */
export async function withDelegation(files: ProjectFiles | undefined, scope: DelegationScope): Promise<Delegation> {
  const found = files ? await discoverAgents(files) : { agents: [...BUILTIN_AGENTS], problems: [] };
  const definitions = found.agents;
  const { services, ...rest } = scope;
  const full: SubagentScope = {
    ...rest,
    definitions,
    gate: new ConcurrencyGate(() => services.limits.maxConcurrent()),
    locks: new FileLocks(),
    spent: new Map<string, Usage>(),
    settled: new Set<string>(),
    register: (callId, stop) => services.stops.register(callId, stop),
  };
  const task = createTaskTool(full);
  return {
    tools: joinTools(scope.parentTools, task),
    problems: found.problems.map((p) => p.message),
    liveCostUsd: () => {
      let sum = 0;
      for (const u of full.spent.values()) sum += u.costUsd ?? 0;
      return sum;
    },
    liveTokens: () => {
      let sum = 0;
      for (const u of full.spent.values()) sum += tokensOf(u);
      return sum;
    },
    parentReported: () => {
      for (const id of full.settled) full.spent.delete(id);
      full.settled.clear();
    },
  };
}

export interface Delegation {
  tools: ToolRuntime;
  /** Definition files that could not be read, each message naming its file. */
  problems: string[];
  /** What running (and finished, not yet folded) sub-agents have spent so far. */
  liveCostUsd(): number;
  /** The same in tokens (sent and received). */
  liveTokens(): number;
  /** The parent reported its usage: finished sub-agents' spending is in it from now on. */
  parentReported(): void;
}

export function createTaskTool(scope: SubagentScope): AnyTool {
  const list = scope.definitions.map((d) => `- ${d.name}: ${d.description}`).join('\n');
  return defineTool({
    ...taskDeclaration,
    description: `${taskDeclaration.description}\n\nAvailable sub-agents (subagent_type):\n${list}`,
    async execute(input: TaskInput, ctx) {
      const definition = scope.definitions.find((d) => d.name === input.subagent_type);
      if (!definition)
        return errorResult(
          `There is no sub-agent named "${input.subagent_type}". Available: ` +
            `${scope.definitions.map((d) => d.name).join(', ')}.`,
        );
      return tracedSubagent(scope, definition.name, (traced, seen) =>
        runSubagent(traced, {
          callId: ctx.callId,
          definition,
          description: input.description,
          prompt: input.prompt,
          signal: ctx.signal,
          update: (view) => {
            seen(view);
            ctx.subagentUpdated?.(view);
          },
        }),
      );
    },
  });
}

/** The mode's tools and `task` as one runtime (task's own calls go to its registry). */
function joinTools(base: ToolRuntime, task: AnyTool): ToolRuntime {
  const own = createToolRegistry([task]);
  const specs = [...base.specs().filter((s) => s.name !== task.name), ...own.specs()];
  return {
    specs: () => specs,
    prepare: (call) => (call.name === task.name ? own.prepare(call) : base.prepare(call)),
    execute: (call, ctx) => (call.tool?.name === task.name ? own.execute(call, ctx) : base.execute(call, ctx)),
  };
}

export type { AgentDefinition };
