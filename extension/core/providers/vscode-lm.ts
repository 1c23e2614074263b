// The `vscode-lm` provider kind: models the user already has in VS Code (GitHub Copilot Chat or any
// extension that provides language models), reached through VS Code's Language Model API with no key.
// Core never imports 'vscode': the API is the LanguageModelsPort, implemented in extension/vscode.
// The API has no system role and reports no usage, so the system prompt goes first as a user message
// and tokens are counted with the model's own tokenizer (no price: the cost shows as unknown).
import type { LanguageModelsPort, LmMessage, LmModelInfo, LmPart } from '../ports';
import { ProviderError, type ModelMessage, type Provider, type ProviderConfig, type ProviderEvent } from './types';
import type { ProviderRequest, ToolCall } from './types';
import { toolInput } from './sdk-stream';

export const NO_LM_MODEL_MESSAGE =
  'No VS Code language model is installed. Install GitHub Copilot Chat (or another extension that provides ' +
  'language models to VS Code), or pick another model.';

const JUSTIFICATION = 'Sextant sends your chat, its tools and their results to the model you picked.';

function userText(content: Extract<ModelMessage, { role: 'user' }>['content']): string {
  if (typeof content === 'string') return content;
  // The API takes no images from us: say so in words rather than drop them silently.
  return content
    .map((b) => (b.type === 'text' ? b.text : `[image (${b.mediaType}) not sent to this model]`))
    .join('\n');
}

/**
 * Sextant's history as Language Model API messages: the system prompt first (as a user message), tool
 * calls with their ids in the assistant message, and the results of one step together in the next
 * user message. Reasoning is not sent back: the API has no part for it.
 */
export function toLmMessages(system: string, messages: ModelMessage[]): LmMessage[] {
  const out: LmMessage[] = [];
  if (system) out.push({ role: 'user', parts: [{ type: 'text', text: system }] });
  let results: LmMessage | undefined;
  for (const msg of messages) {
    if (msg.role === 'tool') {
      const text = msg.content
        .map((b) => (b.type === 'text' ? b.text : `[image (${b.mediaType}) not sent to this model]`))
        .join('\n');
      const part: LmPart = { type: 'tool_result', callId: msg.toolCallId, text: msg.isError ? `Error: ${text}` : text };
      if (results) results.parts.push(part);
      else {
        results = { role: 'user', parts: [part] };
        out.push(results);
      }
      continue;
    }
    results = undefined;
    if (msg.role === 'user') {
      out.push({ role: 'user', parts: [{ type: 'text', text: userText(msg.content) }] });
    } else {
      const parts: LmPart[] = [];
      if (msg.text) parts.push({ type: 'text', text: msg.text });
      for (const c of msg.toolCalls ?? [])
        parts.push({ type: 'tool_call', callId: c.id, name: c.name, input: toolInput(c.argumentsJson) });
      if (parts.length) out.push({ role: 'assistant', parts });
    }
  }
  return out;
}

function codeOf(err: unknown): string | undefined {
  const code = err && typeof err === 'object' ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** A failure of the API as a ProviderError written for the user. */
export function lmError(err: unknown, model: string, signal: AbortSignal, afterFirstToken: boolean): ProviderError {
  if (err instanceof ProviderError) return err;
  const detail = err instanceof Error ? err.message.slice(0, 300) : String(err).slice(0, 300);
  const said = detail ? `: ${detail}` : '.';
  if (signal.aborted || (err instanceof Error && (err.name === 'AbortError' || err.name === 'Canceled')))
    return new ProviderError('aborted', `The request to ${model} was stopped.`, undefined, afterFirstToken);
  switch (codeOf(err)) {
    case 'NoPermissions':
      return new ProviderError(
        'auth',
        `VS Code did not let Sextant use the language model ${model}${said} Allow it when VS Code asks, or ` +
          'under "Manage Language Model Access" in the Accounts menu.',
        undefined,
        afterFirstToken,
      );
    case 'Blocked':
      return new ProviderError(
        'rate_limit',
        `The language model ${model} is blocked for now (a quota or rate limit)${said}`,
        undefined,
        afterFirstToken,
      );
    case 'NotFound':
      return new ProviderError(
        'bad_request',
        `The VS Code language model ${model} is not available any more${said} Pick another model.`,
        undefined,
        afterFirstToken,
      );
    default:
      return new ProviderError(
        'server',
        `The VS Code language model ${model} failed${said}`,
        undefined,
        afterFirstToken,
      );
  }
}

/**
 * The parts of a response until the signal aborts: Stop ends the request at once even when the model's
 * extension is slow to honour VS Code's cancellation (the adapter cancels its token on the same signal).
 */
async function* untilAborted<T>(parts: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  const it = parts[Symbol.asyncIterator]();
  let onAbort = () => {};
  const aborted = new Promise<IteratorResult<T>>((resolve) => {
    onAbort = () => resolve({ done: true, value: undefined });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    for (;;) {
      const next = await Promise.race([it.next(), aborted]);
      if (next.done || signal.aborted) return;
      yield next.value;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    // Let the source clean up; a rejection from it no longer matters once we stopped reading.
    void it.return?.()?.catch(() => undefined);
  }
}

function describeModel(m: LmModelInfo): string {
  return `${m.name} (${m.vendor})`;
}

/** Every text the request sends, for counting its tokens. */
function promptText(messages: LmMessage[], request: ProviderRequest): string {
  const parts = messages.flatMap((m) =>
    m.parts.map((p) =>
      p.type === 'text' ? p.text : p.type === 'tool_result' ? p.text : `${p.name} ${JSON.stringify(p.input)}`,
    ),
  );
  for (const t of request.tools ?? []) parts.push(`${t.name} ${t.description} ${JSON.stringify(t.inputSchema)}`);
  return parts.join('\n');
}

export function createVscodeLmProvider(config: ProviderConfig, port: LanguageModelsPort): Provider {
  async function* stream(request: ProviderRequest, signal: AbortSignal): AsyncGenerator<ProviderEvent> {
    let afterFirstToken = false;
    if (signal.aborted) throw lmError(undefined, request.model, signal, false);
    const models = await port.list().catch((e: unknown) => {
      throw lmError(e, request.model, signal, false);
    });
    if (models.length === 0) throw new ProviderError('bad_request', NO_LM_MODEL_MESSAGE);
    // A bare `vscode-lm` reference (no model id) means the first model VS Code lists.
    const model = request.model ? models.find((m) => m.id === request.model) : models[0];
    if (!model) {
      const known = models.map((m) => `${config.name}/${m.id}`).join(', ');
      throw new ProviderError(
        'bad_request',
        `No VS Code language model "${request.model}" is installed. Installed: ${known}.`,
      );
    }
    const name = describeModel(model);
    const messages = toLmMessages(request.system, request.messages);
    let text = '';
    const calls: ToolCall[] = [];
    try {
      const parts = await port.send(
        model.id,
        messages,
        {
          justification: JUSTIFICATION,
          ...(request.tools?.length
            ? {
                tools: request.tools.map((t) => ({
                  name: t.name,
                  description: t.description,
                  inputSchema: t.inputSchema,
                })),
              }
            : {}),
        },
        signal,
      );
      for await (const part of untilAborted(parts, signal)) {
        if (part.type === 'text') {
          if (!part.text) continue;
          afterFirstToken = true;
          text += part.text;
          yield { type: 'text', text: part.text };
        } else {
          afterFirstToken = true;
          // The API hands over complete calls; their ids come back with the results.
          const call = { id: part.callId, name: part.name, argumentsJson: JSON.stringify(part.input ?? {}) };
          calls.push(call);
          yield { type: 'tool_call', call };
        }
      }
    } catch (err) {
      throw lmError(err, name, signal, afterFirstToken);
    }
    if (signal.aborted) throw lmError(undefined, name, signal, afterFirstToken);
    // No usage from the API: count with the model's tokenizer; if even that fails, report none.
    try {
      const output = text + calls.map((c) => `${c.name} ${c.argumentsJson}`).join('\n');
      const [inputTokens, outputTokens] = await Promise.all([
        port.countTokens(model.id, promptText(messages, request), signal),
        output ? port.countTokens(model.id, output, signal) : Promise.resolve(0),
      ]);
      yield { type: 'usage', usage: { inputTokens, outputTokens, cachedTokens: 0 } };
    } catch {
      // Usage stays unknown for this call.
    }
    yield { type: 'done', stopReason: calls.length ? 'tool_calls' : 'end' };
  }

  return { name: config.name, kind: 'vscode-lm', stream };
}
