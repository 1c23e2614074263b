// TerminalPort: shows each agent command and the output core captured in a "Sextant" terminal.
// It is a pseudoterminal, so nothing runs twice: the child process core started is the only
// execution, whether or not the user's shell integration works.
import * as vscode from 'vscode';
import type { TerminalMirror, TerminalPort } from '../../core/ports';

const NAME = 'Sextant';

function crlf(s: string): string {
  return s.replace(/\r?\n/g, '\r\n');
}

interface Mirror {
  terminal: vscode.Terminal;
  emitter: vscode.EventEmitter<string>;
  open: boolean;
  /** Writes before the pseudoterminal opens would be lost; they wait here. */
  pending: string[];
}

export function createTerminalPort(): TerminalPort {
  let current: Mirror | undefined;

  const ensure = (): Mirror => {
    if (current) return current;
    const emitter = new vscode.EventEmitter<string>();
    const m: Mirror = { terminal: undefined as unknown as vscode.Terminal, emitter, open: false, pending: [] };
    const pty: vscode.Pseudoterminal = {
      onDidWrite: emitter.event,
      open: () => {
        emitter.fire(
          '\x1b[2mCommands run by the Sextant agent appear here (display only; Sextant captures their ' +
            'output).\x1b[0m\r\n',
        );
        m.open = true;
        for (const s of m.pending.splice(0)) emitter.fire(s);
      },
      close: () => {
        if (current === m) current = undefined;
        emitter.dispose();
      },
    };
    m.terminal = vscode.window.createTerminal({ name: NAME, pty, isTransient: true });
    // Revealed without taking focus from the chat.
    m.terminal.show(true);
    current = m;
    return m;
  };

  const write = (s: string) => {
    const m = ensure();
    if (m.open) m.emitter.fire(s);
    else m.pending.push(s);
  };

  return {
    show(command: string, cwd: string): TerminalMirror {
      write(`\r\n\x1b[2m${cwd}\x1b[0m\r\n\x1b[1m$ ${crlf(command)}\x1b[0m\r\n`);
      return {
        write: (chunk) => write(crlf(chunk)),
        end: (summary) => write(`\x1b[2m${summary}\x1b[0m\r\n`),
      };
    },
  };
}
