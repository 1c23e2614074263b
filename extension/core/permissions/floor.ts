// The floor: what asks the user or is refused in every permission mode, whatever a reviewer model
// (auto mode), a hook's allow or a permissive mode says. Written down once here — the guide's "Auto mode"
// (docs/guide/permissions.md) lists the same items — and table-tested in test/unit/permissions/floor.test.ts.
//
// Most items are decided before anything could lift them: the policy (decide.ts) gives them a source
// other than `default` (a rule, `protected`, `confinement`, `parse`), the box (sandbox/command-gate.ts)
// turns a request to leave it into a `confinement` ask, and the MCP manager and hook trust keep a
// changed or unapproved server's tools and a repository's hooks from being offered at all. What is
// left for a reviewer is only the mode's default question — "no rule covers this" — minus the two
// cases below that are floor items too although the policy calls them default: a command while no box
// confines it, and a call that reaches the network by URL.
import type { ToolKind } from '../../protocol';
import type { Decision } from './types';

export type FloorId =
  | 'deny-rules'
  | 'protected-paths'
  | 'secret-reads'
  | 'outside-writes'
  | 'leaving-the-box'
  | 'network'
  | 'cannot-judge'
  | 'changed-mcp-tools'
  | 'unapproved-repository-code';

export interface FloorItem {
  id: FloorId;
  /** As the guide (docs/guide/permissions.md) lists it. */
  title: string;
  /** Why no reviewer or mode may lift it. */
  reason: string;
  /** Where it is enforced. */
  enforcedBy: string;
}

export const FLOOR: readonly FloorItem[] = [
  {
    id: 'deny-rules',
    title: 'Deny rules, and your own ask rules',
    reason: 'what you wrote down is never overruled: a deny refuses, an ask rule asks',
    enforcedBy: 'the policy (a rule decides; source "rule")',
  },
  {
    id: 'protected-paths',
    title: 'Protected paths (.git, .vscode, .sextant, shell profiles, …)',
    reason: 'a write there can make code run later, outside any review',
    enforcedBy: 'the policy (source "protected")',
  },
  {
    id: 'secret-reads',
    title: 'Secret reads (keys, credentials, .env files)',
    reason: 'a secret read into the conversation can be sent anywhere afterwards',
    enforcedBy: 'the policy (refused, or source "confinement")',
  },
  {
    id: 'outside-writes',
    title: 'Writes outside the workspace (and sextant.sandbox.extraWriteRoots)',
    reason: 'the workspace is what checkpoints, the box and you are watching',
    enforcedBy: 'the policy (source "confinement")',
  },
  {
    id: 'leaving-the-box',
    title: 'Leaving the box, or running a command while no box works',
    reason: 'an unboxed command can reach everything you can',
    enforcedBy: 'the box (sandbox/command-gate.ts) and this floor',
  },
  {
    id: 'network',
    title: 'Network outside the allowed hosts',
    reason:
      'a command reaches only sextant.sandbox.network.allowedHosts (the box refuses the rest); a fetch by URL ' +
      'can carry data out, so it is yours to allow',
    enforcedBy: "the box's proxy, and this floor for URL tools",
  },
  {
    id: 'cannot-judge',
    title: 'Commands the policy cannot judge',
    reason: 'a reviewer would judge text whose meaning only bash knows at run time',
    enforcedBy: 'the policy (source "parse")',
  },
  {
    id: 'changed-mcp-tools',
    title: 'MCP tools whose list changed',
    reason: 'a server that changed what it offers waits for your approval; its tools are not offered until then',
    enforcedBy: 'the MCP manager',
  },
  {
    id: 'unapproved-repository-code',
    title: "A repository's hooks and MCP servers you have not approved",
    reason: 'code the repository brings runs only after you approved it',
    enforcedBy: 'hook trust and the MCP manager',
  },
];

/** What the floor needs to know about a call beyond the policy's decision. */
export interface FloorFacts {
  kind: ToolKind;
  /** The call starts programs (bash). */
  runsCommands: boolean;
  /** A box confines the commands now (a backend works, sandbox mode not off). */
  boxed: boolean;
  /** The tool's subject is a URL (web_fetch, browser). */
  byUrl: boolean;
}

export function floorItem(id: FloorId): FloorItem {
  const item = FLOOR.find((f) => f.id === id);
  if (!item) throw new Error(`no floor item ${id}`);
  return item;
}

/**
 * The floor item a decided call stands on, or undefined when it is only the mode's default question
 * (the one thing a reviewer may answer). An allow is not the floor's business: nothing asks.
 */
export function floorHolding(judged: Decision, facts: FloorFacts): FloorItem | undefined {
  if (judged.decision === 'allow') return undefined;
  if (judged.decision === 'deny') return floorItem(judged.source === 'confinement' ? 'secret-reads' : 'deny-rules');
  switch (judged.source) {
    case 'default':
      if (facts.runsCommands && !facts.boxed) return floorItem('leaving-the-box');
      if (facts.byUrl) return floorItem('network');
      return undefined;
    case 'protected':
      return floorItem('protected-paths');
    case 'parse':
      return floorItem('cannot-judge');
    case 'confinement':
      if (facts.runsCommands && /sandbox/.test(judged.reason)) return floorItem('leaving-the-box');
      if (facts.kind === 'read' || /\.env|secret|credential|key/i.test(judged.reason)) return floorItem('secret-reads');
      return floorItem('outside-writes');
    default:
      // A rule's ask, a hook's ask: the user's own word.
      return floorItem('deny-rules');
  }
}
