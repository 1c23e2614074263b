// The palette's ways into the chat: Switch Mode and Select Model as quick picks, and Research… /
// Plan Research… (which first check the modes they need are available here).
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ChatController } from '../core/agent/controller';

export async function pickMode(controller: ChatController): Promise<void> {
  const snap = await controller.snapshot();
  const items = snap.modes.map((m) => ({
    label: m.mode[0].toUpperCase() + m.mode.slice(1),
    description: m.enabled ? (m.mode === snap.mode ? 'current' : '') : m.reason,
    mode: m.mode,
    enabled: m.enabled,
  }));
  const pick = await vscode.window.showQuickPick(items, { title: 'Sextant: Switch Mode' });
  if (pick?.enabled) controller.setMode(pick.mode);
  else if (pick) void vscode.window.showInformationMessage(pick.description ?? 'That mode is not available.');
}

export async function pickModel(controller: ChatController): Promise<void> {
  const snap = await controller.snapshot();
  const pick = await vscode.window.showQuickPick(
    snap.models.map((m) => ({
      label: m.ref,
      description: m.unavailable ? `${m.label} — ${m.unavailable}` : m.hasKey ? m.label : `${m.label} — no API key yet`,
      ref: m.ref,
      unavailable: m.unavailable,
    })),
    { title: 'Sextant: Select Model', placeHolder: `current: ${snap.model}` },
  );
  if (pick?.unavailable) void vscode.window.showInformationMessage(`Sextant: ${pick.unavailable}`);
  else if (pick) controller.setModel(pick.ref);
}

/** Runs Research (or Plan Research) on a question in the chat, switching its mode. */
export async function startResearch(controller: ChatController, question: string, plan: boolean): Promise<void> {
  const mode = plan ? 'plan' : 'research';
  const modes = (await controller.snapshot()).modes;
  for (const needed of plan ? (['research', 'plan'] as const) : (['research'] as const)) {
    const m = modes.find((x) => x.mode === needed);
    if (!m?.enabled) {
      void vscode.window.showWarningMessage(`Sextant: ${m?.reason ?? `${needed} mode is not available.`}`);
      return;
    }
  }
  controller.setMode(mode);
  void controller.send(randomUUID(), question, mode, { planResearch: plan });
}
