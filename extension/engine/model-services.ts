// What the chat controller asks about models, answered from the engine's providers and the host's
// settings: resolving a reference to a client, reading a provider's settings without one, the picker's
// choices, the default / planner / fallback models, the reasoning choice per model and the mode's
// system prompt.
import type { ModelServices, ReasoningChoices } from '../core/agent/chat-services';
import { systemPromptFor } from '../core/agent/prompts';
import { REASONING_STATE_KEY, reasoningChoicesIn } from '../core/providers/reasoning-choices';
import type { ProvidersHost } from './providers';
import { readSettings, type SettingsSource } from './settings';
import type { KeyValueState } from './state';

export function modelServices(
  providers: ProvidersHost,
  state: KeyValueState,
  settings: SettingsSource,
  workspaceRoots: () => string[],
): ModelServices {
  return {
    resolveModel: (ref) => providers.resolve(ref),
    modelConfig: (ref) => {
      const name = ref.includes('/') ? ref.slice(0, ref.indexOf('/')) : ref;
      return providers.configs().find((c) => c.name === name);
    },
    modelChoices: () => providers.modelChoices(),
    defaultModel: () => readSettings(settings).defaultModel,
    plannerModel: () => readSettings(settings).plannerModel,
    fallbackModel: () => readSettings(settings).fallbackModel,
    reasoning: reasoningStore(state),
    systemPrompt: (mode, sessionStartedAt) =>
      systemPromptFor(mode, {
        workspaceRoots: workspaceRoots(),
        platform: process.platform,
        date: new Date(sessionStartedAt),
      }),
  };
}

/**
 * The model picker's reasoning choice per model, in the host's global state: a per-user preference like
 * the picked model, shared by every workspace. Not a setting: the picker changes it often, and a
 * workspace cannot set it (spending stays bounded by the user-only sextant.budget.* caps).
 */
function reasoningStore(state: KeyValueState): ReasoningChoices {
  const all = () => reasoningChoicesIn(state.get<unknown>(REASONING_STATE_KEY));
  return {
    all,
    get: (ref) => all()[ref],
    set: (ref, choice) => {
      const next = { ...all() };
      if (choice === 'off') delete next[ref];
      else next[ref] = choice;
      void state.update(REASONING_STATE_KEY, next);
    },
  };
}
