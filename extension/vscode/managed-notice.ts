// Says which settings the administrator manages (core/config/managed-settings.ts): in the Sextant output at
// start and whenever the settings change, and once in a notification each time what is managed changes —
// so a user whose "off" or "auto" is not used, or whose model is denied, is told why and by what file.
import * as vscode from 'vscode';
import type { Logger } from '../core/ports';
import { readManagedNotes } from './settings';

export function watchManagedSettings(log: Logger): vscode.Disposable & { check(): void } {
  let shown = '';
  const check = () => {
    const notes = readManagedNotes();
    const text = notes.join('\n');
    if (text === shown) return;
    shown = text;
    if (!notes.length) return;
    for (const line of notes) log.warn(`managed settings: ${line}`);
    void vscode.window.showWarningMessage(`Sextant: ${notes.slice(1).join(' ') || notes[0]}`);
  };
  const subscription = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('sextant')) check();
  });
  check();
  return Object.assign(subscription, { check });
}
