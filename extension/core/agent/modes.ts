// Which modes are offered, and why the others are not. Enforcement is capability-based: a mode's
// turn is built with only the tools it may use, so a forbidden call cannot even be expressed.
import { MODES, type Mode } from '../../protocol';

export interface ModeContext {
  trusted: boolean;
  hasWorkspaceFolder: boolean;
}

export interface ModeAvailability {
  mode: Mode;
  enabled: boolean;
  reason?: string;
}

/** Modes whose features have not shipped yet. */
const NOT_YET: Partial<Record<Mode, string>> = {
  plan: 'Plan mode is not available yet: plan artifacts with Approve / Edit / Reject ship with the planning work.',
  research: 'Research mode is not available yet: web search, fetching and cited reports ship with the research work.',
};

export function modeAvailability(ctx: ModeContext): ModeAvailability[] {
  return MODES.map((mode) => {
    const notYet = NOT_YET[mode];
    if (notYet) return { mode, enabled: false, reason: notYet };
    if (mode === 'agent' && !ctx.trusted) {
      return {
        mode,
        enabled: false,
        reason: 'Agent mode needs a trusted workspace: in Restricted Mode only Chat is offered.',
      };
    }
    if (mode === 'agent' && !ctx.hasWorkspaceFolder) {
      return { mode, enabled: false, reason: 'Agent mode needs an open folder to work in.' };
    }
    return { mode, enabled: true };
  });
}

/** The mode a request actually runs in: a disabled mode falls back to Chat. */
export function effectiveMode(requested: Mode, ctx: ModeContext): Mode {
  const a = modeAvailability(ctx).find((m) => m.mode === requested);
  return a?.enabled ? requested : 'chat';
}
