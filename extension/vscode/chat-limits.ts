// The limits every chat of the window reads on use from the user's settings (cached per change in
// settings.ts): steps, budgets, the spend rate, /goal's attempts, sub-agents', and auto mode's reviewer.
import type { ChatServices } from '../core/agent/chat-services';
import type { ChatSlotServices } from './chat-slots';
import { readAutoModeSettings, readSettings } from './settings';

export const chatLimits: ChatServices['limits'] = {
  maxSteps: () => readSettings().maxSteps,
  budget: () => readSettings().budget,
  maxCostUsdPerMinute: () => readSettings().subagents.maxCostUsdPerMinute,
  goalMaxAttempts: () => readSettings().goalMaxAttempts,
};

export const subagentLimits: ChatSlotServices['subagentLimits'] = {
  maxConcurrent: () => readSettings().subagents.maxConcurrent,
  maxSteps: () => readSettings().subagents.maxSteps,
  maxCostUsd: () => readSettings().subagents.maxCostUsd,
};

export const autoModeSettings: NonNullable<ChatServices['autoMode']> = {
  reviewerModel: () => readAutoModeSettings().reviewerModel,
  timeoutMs: () => readAutoModeSettings().timeoutMs,
};
