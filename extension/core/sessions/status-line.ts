// What the status bar says of this window's chats, in one line: the state of the session in front of the
// user (idle, thinking, running a tool, waiting for you) and what that session cost so far. Anything that
// waits for the user — in whichever chat — takes the line, so a click there goes to what waits.
import type { SessionStatus } from './session-status';

export interface StatusLineSlot {
  id: string;
  status: SessionStatus;
}

export interface StatusLine {
  /** With a codicon, e.g. `$(loading~spin) Sextant: running bash · $0.04`. */
  text: string;
  tooltip: string;
  /** The chat a click shows. */
  slotId: string;
  state: 'idle' | 'thinking' | 'tool' | 'waiting';
}

/**
 * The line for `slots` (every live chat), centred on `activeId` (the chat the user looks at): the oldest
 * waiting chat if any waits, else the active one. Undefined when there is no chat.
 */
export function statusLine(slots: readonly StatusLineSlot[], activeId: string | undefined): StatusLine | undefined {
  const waiting = slots.filter((s) => s.status.state === 'waiting');
  const active = slots.find((s) => s.id === activeId);
  const slot = (active?.status.state === 'waiting' ? active : waiting[0]) ?? active;
  if (!slot) return undefined;
  const st = slot.status;
  const cost = costText(st);
  const title = st.title || 'New chat';
  const more = waiting.length > 1 ? ` (+${waiting.length - 1} more)` : '';
  if (st.state === 'waiting') {
    const what = st.approvals[0] ? `approve ${st.approvals[0].tool}` : 'answer a question';
    return line(
      slot.id,
      'waiting',
      `$(bell-dot) Sextant: waiting for you${more}`,
      cost,
      `“${title}” waits for you to ${what}. Click to show it.`,
    );
  }
  if (st.state === 'running') {
    if (st.tool)
      return line(
        slot.id,
        'tool',
        `$(loading~spin) Sextant: running ${st.tool}`,
        cost,
        `“${title}” is running ${st.tool}.`,
      );
    return line(slot.id, 'thinking', '$(loading~spin) Sextant: thinking', cost, `“${title}” is waiting for the model.`);
  }
  return line(slot.id, 'idle', '$(compass) Sextant: idle', cost, `“${title}”: nothing runs.`);
}

function line(slotId: string, state: StatusLine['state'], head: string, cost: string, tip: string): StatusLine {
  return {
    slotId,
    state,
    text: cost ? `${head} · ${cost}` : head,
    tooltip: `${tip}${cost ? ` This session so far: ${cost}.` : ''}`,
  };
}

/** Dollars when the session's models are priced; tokens when not (never a made-up figure); '' before any. */
function costText(st: SessionStatus): string {
  if (st.costUsd !== undefined) return `$${st.costUsd < 10 ? st.costUsd.toFixed(2) : st.costUsd.toFixed(0)}`;
  if (!st.tokens) return '';
  return st.tokens < 1000 ? `${st.tokens} tokens` : `${(st.tokens / 1000).toFixed(1)}k tokens`;
}
