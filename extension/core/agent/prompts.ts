// System prompts per mode. The texts live in prompts/*.md (bundled as text) so they can be read
// and reviewed as prose; this file only adds the facts of the environment.
import type { Mode } from '../../protocol';
import chatPrompt from '../../../prompts/chat.md';
import agentPrompt from '../../../prompts/agent.md';
import planPrompt from '../../../prompts/plan.md';

export interface PromptEnvironment {
  workspaceRoots: string[];
  platform: string;
  /** When the session started: fixed for the session, so the prompt (the cached prefix) never changes. */
  date: Date;
}

const BY_MODE: Record<Mode, string> = {
  chat: chatPrompt,
  plan: planPrompt,
  // Research is not offered yet (see modes.ts); a request in it runs as Chat.
  research: chatPrompt,
  agent: agentPrompt,
};

export function systemPromptFor(mode: Mode, env: PromptEnvironment): string {
  const roots = env.workspaceRoots.length ? env.workspaceRoots.join(', ') : '(no folder open)';
  return [
    BY_MODE[mode].trim(),
    '',
    '# Environment',
    `- Workspace folders: ${roots}`,
    `- Platform: ${env.platform}`,
    `- Date: ${env.date.toISOString().slice(0, 10)} (when this chat started)`,
  ].join('\n');
}
