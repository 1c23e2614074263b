// The engine's events in the Agent Client Protocol's words: each request event the webview gets becomes
// the `session/update` an ACP client shows (text, thoughts, tool calls and their updates); a stored
// session's messages become the same updates for `session/load`; how a request ended becomes its stop
// reason. Pure functions: no connection, no engine.
import type * as acp from '@agentclientprotocol/sdk';
import type { ChatMessage, Mode, PendingApproval, RequestEvent, ToolCallView } from '../protocol';
import type { PromptOutcome } from '../engine/engine';

type Update = acp.SessionUpdate;

export const TOOL_KINDS: Record<ToolCallView['kind'], acp.ToolKind> = {
  read: 'read',
  write: 'edit',
  execute: 'execute',
  network: 'fetch',
};

function toolStatus(status: ToolCallView['status']): acp.ToolCallStatus {
  if (status === 'running') return 'in_progress';
  if (status === 'ok') return 'completed';
  if (status === 'pending' || status === 'awaiting_approval') return 'pending';
  return 'failed'; // error, denied, aborted
}

function toolContent(call: ToolCallView): acp.ToolCallContent[] | undefined {
  const text = call.summary ?? call.detail ?? call.preview ?? call.liveOutput;
  return text ? [{ type: 'content', content: { type: 'text', text } }] : undefined;
}

export function toolCallStarted(call: ToolCallView): Update {
  return {
    sessionUpdate: 'tool_call',
    toolCallId: call.callId,
    title: call.subject ? `${call.name} ${call.subject}` : call.name,
    kind: TOOL_KINDS[call.kind],
    status: toolStatus(call.status),
    rawInput: { subject: call.subject },
  };
}

export function toolCallUpdated(call: ToolCallView): Update {
  const content = toolContent(call);
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId: call.callId,
    status: toolStatus(call.status),
    ...(content ? { content } : {}),
  };
}

/** One request event → the updates a client shows (none for events it has no place for). */
export function updatesOf(event: RequestEvent): Update[] {
  switch (event.type) {
    case 'text_delta':
      return [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.text } }];
    case 'thinking_delta':
      return [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.text } }];
    case 'tool_started':
      return [toolCallStarted(event.call)];
    case 'tool_updated':
      return [toolCallUpdated(event.call)];
    case 'tool_progress':
      return [
        {
          sessionUpdate: 'tool_call_update',
          toolCallId: event.callId,
          status: 'in_progress',
          content: [{ type: 'content', content: { type: 'text', text: event.output } }],
        },
      ];
    case 'todos':
      return [
        {
          sessionUpdate: 'plan',
          entries: event.todos.map((t) => ({ content: t.content, status: t.status, priority: 'medium' as const })),
        },
      ];
    // A budget stop, a notice or a failure is said in the answer: the client has no other place for it.
    case 'budget_stop':
    case 'notice':
      return [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n\n${event.text}\n` } }];
    case 'error':
      return [
        {
          sessionUpdate: 'agent_message_chunk',
          content: { type: 'text', text: `\n\nError: ${event.error.message}\n` },
        },
      ];
    default:
      return [];
  }
}

/** A stored session's messages as the updates that replay it (`session/load`). */
export function replayOf(messages: ChatMessage[]): Update[] {
  const out: Update[] = [];
  for (const m of messages) {
    for (const part of m.parts) {
      if (part.type === 'text' && part.text) {
        const content = { type: 'text' as const, text: part.text };
        out.push(
          m.role === 'user'
            ? { sessionUpdate: 'user_message_chunk', content }
            : { sessionUpdate: 'agent_message_chunk', content },
        );
      } else if (part.type === 'thinking' && part.text) {
        out.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: part.text } });
      } else if (part.type === 'tool') {
        out.push(toolCallStarted(part.call), toolCallUpdated(part.call));
      }
    }
  }
  return out;
}

/**
 * How a request ended, as ACP's stop reason. A budget (cost, tokens or steps) is the nearest ACP has:
 * max_turn_requests for steps, max_tokens for the rest (the budget's own words went out as a message).
 */
export function stopReasonOf(outcome: PromptOutcome, stepsOut: boolean): acp.StopReason {
  if (outcome.end === 'aborted') return 'cancelled';
  if (outcome.end === 'budget') return stepsOut ? 'max_turn_requests' : 'max_tokens';
  return 'end_turn';
}

export const ALLOW_ONCE = 'allow_once';
export const ALLOW_ALWAYS = 'allow_always';
export const REJECT_ONCE = 'reject_once';

/**
 * The choices an approval card offers, as permission options. "Always allow" only when the engine has a
 * narrow rule for it AND the host can remember that rule (`remembers`); otherwise it would be a lie.
 */
export function permissionOptions(a: PendingApproval, remembers: boolean): acp.PermissionOption[] {
  const options: acp.PermissionOption[] = [
    { optionId: ALLOW_ONCE, name: a.labels?.approve ?? 'Allow once', kind: 'allow_once' },
  ];
  if (a.alwaysRule && remembers)
    options.push({
      optionId: ALLOW_ALWAYS,
      name: a.labels?.always ?? `Always allow ${a.alwaysRule}`,
      kind: 'allow_always',
    });
  options.push({ optionId: REJECT_ONCE, name: a.labels?.deny ?? 'Reject', kind: 'reject_once' });
  return options;
}

export const MODE_NAMES: Record<Mode, string> = {
  chat: 'Chat',
  plan: 'Plan',
  research: 'Research',
  agent: 'Agent',
};
