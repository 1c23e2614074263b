// The window's one FleetBudget (core/usage/fleet-budget.ts): every chat slot of the window — the sidebar,
// editor tabs, background sessions and their sub-agents — takes its running slot from it and reports its
// spending to it, so sextant.agents.maxParallelSessions, the total caps and the spend-rate warning count
// all of them. Its limits are read on every check; setting-reactions.ts wakes waiting requests when they
// change. The rate warning is also a notification: the session that crossed it may be a hidden one.
import * as vscode from 'vscode';
import { FleetBudget } from '../core/usage/fleet-budget';
import { readFleetLimits } from './settings';

export function createWindowFleet(own: (d: vscode.Disposable) => void): FleetBudget {
  const fleet = new FleetBudget({ limits: readFleetLimits, now: Date.now });
  const unsubscribe = fleet.onWarning((text) => void vscode.window.showWarningMessage(`Sextant: ${text}`));
  own({ dispose: unsubscribe });
  return fleet;
}
