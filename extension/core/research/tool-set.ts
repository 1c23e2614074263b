// The tool sets with the web tools in them. web_fetch (and web_search) are built by factories — they
// need the fetch pipeline, a model and search keys — so the runtime builds them once and hands them
// here. Agent mode gets them, where a network call asks unless the user's rules allow it
// (permissions/policy.ts, `web_fetch(domain:…)`). Research mode uses the same services from its own
// loop, not as tools.
import type { Mode } from '../../protocol';
import { toolsForMode } from '../tools/registry';
import type { AnyTool } from '../tools/types';

/** `toolsForMode(mode)` plus the web tools where the mode may use them (never in Restricted Mode). */
export function toolsWithWeb(mode: Mode, opts: { trusted: boolean }, web: readonly AnyTool[]): AnyTool[] {
  const base = toolsForMode(mode, opts);
  if (base.length === 0) return base;
  const names = new Set(base.map((t) => t.name));
  return [...base, ...web.filter((t) => t.modes.includes(mode) && !names.has(t.name))];
}
