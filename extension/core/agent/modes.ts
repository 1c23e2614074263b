// Which modes are offered, and why the others are not. Enforcement is capability-based: a mode's
// turn is built with only the tools it may use, so a forbidden call cannot even be expressed.
import { MODES, type Mode, type ModeAvailability } from '../../protocol';

export interface ModeContext {
  trusted: boolean;
  hasWorkspaceFolder: boolean;
  /** Whether the host wired Research mode's services (web search and fetch). */
  research?: boolean;
}

export function modeAvailability(ctx: ModeContext): ModeAvailability[] {
  return MODES.map((mode) => {
    if (mode === 'research') {
      // Research reaches the web with the user's keys: not from a workspace the user has not trusted.
      if (!ctx.research) return { mode, enabled: false, reason: 'Research mode is not available in this window.' };
      if (!ctx.trusted)
        return {
          mode,
          enabled: false,
          reason: 'Research mode needs a trusted workspace: in Restricted Mode only Chat is offered.',
        };
      return { mode, enabled: true };
    }
    // Plan explores the workspace (read-only) and hands its plan to Agent: both need the same.
    const name = mode === 'agent' ? 'Agent' : mode === 'plan' ? 'Plan' : undefined;
    if (name && !ctx.trusted) {
      return {
        mode,
        enabled: false,
        reason: `${name} mode needs a trusted workspace: in Restricted Mode only Chat is offered.`,
      };
    }
    if (name && !ctx.hasWorkspaceFolder) {
      return { mode, enabled: false, reason: `${name} mode needs an open folder to work in.` };
    }
    return { mode, enabled: true };
  });
}

/** The mode a request actually runs in: a disabled mode falls back to Chat. */
export function effectiveMode(requested: Mode, ctx: ModeContext): Mode {
  const a = modeAvailability(ctx).find((m) => m.mode === requested);
  return a?.enabled ? requested : 'chat';
}
