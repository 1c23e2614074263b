// The built-in slash commands the view carries out itself (most are existing messages to the host);
// composer-commands.ts decides which command a message is, this file does it.
import { ModeSchema } from '../../extension/protocol';
import type { ViewContext } from './base';

/** Carries out a built-in command; false (the draft kept) when it cannot be done now. */
export function runBuiltinCommand(ctx: ViewContext, name: string, args: string): boolean {
  const { host, store } = ctx;
  switch (name) {
    case 'clear':
      host.post({ type: 'newChat' });
      return true;
    case 'compact':
      host.post({ type: 'compactNow' });
      return true;
    case 'goal': // `/goal clear` (a goal to set goes to the host)
      host.post({ type: 'stopGoal' });
      return true;
    case 'context':
    case 'cost':
      store.setContextOpen(true);
      return true;
    case 'export':
      host.post({ type: 'runCommand', command: 'exportSession' });
      return true;
    case 'model':
      host.post({ type: 'runCommand', command: 'selectModel' });
      return true;
    case 'mode': {
      const mode = ModeSchema.parse(args.toLowerCase());
      store.setMode(mode);
      host.post({ type: 'setMode', mode });
      return true;
    }
    case 'rewind': {
      const last = [...store.chat.messages].reverse().find((m) => m.role === 'user');
      if (!last) {
        store.refuse('There is nothing to rewind in this chat yet.');
        return false;
      }
      store.startRewind(last.id);
      host.post({ type: 'rewindPreview', messageId: last.id });
      return true;
    }
    default:
      return false;
  }
}
