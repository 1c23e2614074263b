// What the permission policy knows about a tool, declared by the tool itself (defineTool in
// core/tools/types.ts) and handed to createPolicy: its kind and what its calls touch. The policy,
// the gate and "Always allow" read these declarations and nothing else, so a new file tool declared
// once is covered by path rules, protected paths and refused reads with no other file edited. The
// same shape serves tools that arrive at run time (MCP: see factsFromAnnotations).
import type { ToolKind } from '../../protocol';

/** What a tool's rule pattern is matched against: `edit(src/**)`, `bash(npm test*)`, `web_fetch(domain:x)`. */
export type RuleSubject = 'path' | 'command' | 'url' | 'text';

/** The permission facts of a tool. `I` is its parsed input. */
export interface ToolPermission<I = never> {
  subject: RuleSubject;
  /**
   * For `path` tools: the paths the call touches, as the model wrote them (absolute, or relative to
   * the first workspace folder; the file tools do not expand `~`). An absent path is the workspace root for a
   * `folder` tool and "cannot judge" otherwise.
   */
  paths?(input: I): ReadonlyArray<string | undefined>;
  /** A `path` tool that works on a folder and everything below it (glob, grep, ls). */
  folder?: boolean;
  /** For `command`, `url` and `text` tools: the text rules match (the command, the URL, the query). */
  text?(input: I): string | undefined;
}

/** A tool as the policy sees it. */
export interface ToolFacts {
  name: string;
  kind: ToolKind;
  // biome-ignore lint/suspicious/noExplicitAny: each tool declares facts over its own input type
  permission: ToolPermission<any>;
}

const SUBJECTS: readonly RuleSubject[] = ['path', 'command', 'url', 'text'];
const KINDS: readonly ToolKind[] = ['read', 'write', 'execute', 'network'];

/**
 * Why these facts cannot be used (a tool without a permission declaration, a path tool that names
 * no paths …), or undefined when they are complete. Registration refuses a tool with a problem.
 */
export function factsProblem(t: { name?: unknown; kind?: unknown; permission?: unknown }): string | undefined {
  const name = typeof t.name === 'string' && /^[A-Za-z_][\w-]*$/.test(t.name) ? t.name : undefined;
  if (!name) return `a tool needs a name of letters, digits, _ and - (got ${JSON.stringify(t.name)})`;
  if (!KINDS.includes(t.kind as ToolKind)) return `${name} declares no kind (one of ${KINDS.join(', ')})`;
  const p = t.permission as Partial<ToolPermission<unknown>> | undefined;
  if (!p || typeof p !== 'object') return `${name} declares no permission facts (permission: { subject, … })`;
  if (!SUBJECTS.includes(p.subject as RuleSubject))
    return `${name}'s permission.subject is one of ${SUBJECTS.join(', ')}`;
  if (p.subject === 'path' && typeof p.paths !== 'function')
    return `${name} is a path tool, so it declares permission.paths(input)`;
  if (p.subject !== 'path' && typeof p.text !== 'function')
    return `${name} declares permission.text(input), the text its rules match`;
  return undefined;
}

/** MCP's tool annotations (the spec's hints; none of them is a promise). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  openWorldHint?: boolean;
}

/** The text rules match for a tool without a declaration of its own: its string arguments, in order. */
export function argumentText(input: unknown): string {
  if (typeof input !== 'object' || input === null) return '';
  return Object.values(input)
    .filter((v): v is string => typeof v === 'string')
    .join(' ');
}

/**
 * Facts for a tool known only by name and annotations (an MCP server's): read-only if it says so,
 * network if it reaches the open world, else it may change things (execute). Rules match its
 * string arguments (argumentText).
 */
export function factsFromAnnotations(name: string, annotations: ToolAnnotations = {}): ToolFacts {
  const kind: ToolKind =
    annotations.readOnlyHint === true && annotations.destructiveHint !== true
      ? 'read'
      : annotations.openWorldHint === true && annotations.destructiveHint !== true
        ? 'network'
        : 'execute';
  return { name, kind, permission: { subject: 'text', text: argumentText } };
}
