// The tools a sub-agent gets: its parent's mode's tools (never more), narrowed to what its definition
// names, without the ones that belong to the parent's conversation (task — a sub-agent cannot spawn
// sub-agents, depth ≤ 1 —, submit_plan, todo_write, ask_user), and, for a read-only definition
// (`mode: plan`), without anything that writes or runs commands. A tool left out is not offered to
// the model, and a forged call to it is refused like a call to a tool that does not exist.
// Writers of sibling sub-agents running at the same time take turns per file (FileLocks).
import type { ToolKind } from '../../protocol';
import type { ToolPorts } from '../ports';
import type { ToolCall, ToolSpec } from '../providers/types';
import { errorResult, type PreparedCall } from '../tools/types';
import { writeTarget } from './tool-phases';
import type { ToolRuntime } from './turn';

/** Never offered to a sub-agent, whatever its definition says. */
export const PARENT_ONLY_TOOLS: ReadonlySet<string> = new Set(['task', 'submit_plan', 'todo_write', 'ask_user']);
const READ_ONLY_KINDS: ReadonlySet<ToolKind> = new Set(['read', 'network']);

export interface ToolRestriction {
  /** Tool names the definition allows; undefined: all of the parent's. */
  allowed?: readonly string[];
  /** Tool names it takes away (`disallowedTools`); `mcp__server` takes away that server's every tool. */
  denied?: readonly string[];
  /** Nothing that writes files or runs commands. */
  readOnly: boolean;
}

/** The kind of a tool in a runtime, found through its own prepare (which resolves the tool first). */
function kindOf(base: ToolRuntime, name: string): ToolKind | undefined {
  return base.prepare({ id: 'kind-probe', name, argumentsJson: '{}' }).tool?.kind;
}

export function restrictTools(
  base: ToolRuntime,
  r: ToolRestriction,
  locks: FileLocks,
  ports: ToolPorts,
): ToolRuntime | undefined {
  const allowed = r.allowed ? new Set(r.allowed) : undefined;
  const offered = (name: string) => {
    if (PARENT_ONLY_TOOLS.has(name)) return false;
    if (allowed && !allowed.has(name)) return false;
    if (r.denied?.some((d) => name === d || name.startsWith(`${d}__`))) return false;
    const kind = kindOf(base, name);
    return kind !== undefined && (!r.readOnly || READ_ONLY_KINDS.has(kind));
  };
  const specs: ToolSpec[] = base.specs().filter((s) => offered(s.name));
  if (!specs.length) return undefined;
  const names = new Set(specs.map((s) => s.name));
  const refusal = (name: string) => `There is no tool named "${name}" here. Available tools: ${[...names].join(', ')}.`;
  return {
    specs: () => specs,
    prepare(call: ToolCall): PreparedCall {
      if (!names.has(call.name)) return { ok: false, tool: undefined, error: refusal(call.name) };
      return base.prepare(call);
    },
    async execute(call, ctx) {
      // The last line: whatever reached here must be one of the offered tools, of an allowed kind.
      const name = call.tool?.name ?? '';
      if (!call.ok || !names.has(name) || (r.readOnly && !READ_ONLY_KINDS.has(call.tool.kind)))
        return call.ok ? errorResult(refusal(name)) : base.execute(call, ctx);
      if (call.tool.kind !== 'write') return base.execute(call, ctx);
      const target = await writeTarget(call, ports);
      return target ? locks.with(target, () => base.execute(call, ctx)) : base.execute(call, ctx);
    },
  };
}

/** Per-file turns for writers of sub-agents running side by side: one change to a file at a time. */
export class FileLocks {
  private readonly tails = new Map<string, Promise<unknown>>();

  async with<T>(file: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(file) ?? Promise.resolve();
    const mine = before.then(work, work);
    const tail = mine.catch(() => undefined);
    this.tails.set(file, tail);
    try {
      return await mine;
    } finally {
      if (this.tails.get(file) === tail) this.tails.delete(file);
    }
  }
}

/** At most `cap()` sub-agents at once; the rest wait their turn in call order (or for the signal). */
export class ConcurrencyGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly cap: () => number) {}

  get active(): number {
    return this.running;
  }

  async run<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    while (this.running >= Math.max(1, this.cap())) {
      if (signal.aborted) throw new Error('stopped');
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener('abort', done);
          resolve();
        };
        this.waiting.push(done);
        signal.addEventListener('abort', done, { once: true });
      });
    }
    if (signal.aborted) throw new Error('stopped');
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      // Every waiter looks again (one that was stopped meanwhile leaves; the first of the rest goes on).
      for (const wake of this.waiting.splice(0)) wake();
    }
  }
}
