// LanguageModelsPort over VS Code's Language Model API (vscode.lm): lists the chat models extensions
// provide (GitHub Copilot Chat and others), sends a request with our tools, and turns the response's
// stream of parts back into plain data. The list is cached and refreshed when VS Code says it changed.
import * as vscode from 'vscode';
import type { LanguageModelsPort, LmMessage, LmModelInfo, LmPart, LmResponsePart } from '../../core/ports';
import { errorText } from '../../core/util/error-text';

function toPart(
  part: LmPart,
): vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart | vscode.LanguageModelToolResultPart {
  switch (part.type) {
    case 'text':
      return new vscode.LanguageModelTextPart(part.text);
    case 'tool_call':
      return new vscode.LanguageModelToolCallPart(part.callId, part.name, part.input);
    case 'tool_result':
      return new vscode.LanguageModelToolResultPart(part.callId, [new vscode.LanguageModelTextPart(part.text)]);
  }
}

function toMessage(m: LmMessage): vscode.LanguageModelChatMessage {
  const parts = m.parts.map(toPart);
  return m.role === 'user'
    ? vscode.LanguageModelChatMessage.User(
        parts.filter(
          (p): p is vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart =>
            !(p instanceof vscode.LanguageModelToolCallPart),
        ),
      )
    : vscode.LanguageModelChatMessage.Assistant(
        parts.filter(
          (p): p is vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart =>
            !(p instanceof vscode.LanguageModelToolResultPart),
        ),
      );
}

function info(m: vscode.LanguageModelChat): LmModelInfo {
  return { id: m.id, name: m.name, vendor: m.vendor, family: m.family, maxInputTokens: m.maxInputTokens };
}

/** A cancellation token that follows an AbortSignal. */
function tokenFor(signal: AbortSignal): { token: vscode.CancellationToken; dispose(): void } {
  const source = new vscode.CancellationTokenSource();
  const cancel = () => source.cancel();
  if (signal.aborted) source.cancel();
  else signal.addEventListener('abort', cancel, { once: true });
  return {
    token: source.token,
    dispose: () => {
      signal.removeEventListener('abort', cancel);
      source.dispose();
    },
  };
}

export interface LanguageModelsAdapter extends LanguageModelsPort, vscode.Disposable {
  /** The models as last listed (refreshed on vscode.lm.onDidChangeChatModels). */
  cached(): LmModelInfo[];
  /** Fires after the list was refreshed. */
  readonly onDidChange: vscode.Event<void>;
}

export function createLanguageModels(log: { warn(m: string): void }): LanguageModelsAdapter {
  const changed = new vscode.EventEmitter<void>();
  let models: vscode.LanguageModelChat[] = [];
  let listing: Promise<vscode.LanguageModelChat[]> | undefined;
  const refresh = (): Promise<vscode.LanguageModelChat[]> => {
    // Hosts without the API (older or stripped-down editors) simply have no models.
    const select = vscode.lm?.selectChatModels;
    const next: Promise<vscode.LanguageModelChat[]> = select
      ? Promise.resolve(select({})).then(
          (found) => found,
          (err: unknown) => {
            log.warn(`VS Code language models could not be listed: ${errorText(err)}`);
            return [];
          },
        )
      : Promise.resolve([]);
    listing = next;
    return next.then((found) => {
      if (listing === next) {
        models = found;
        changed.fire();
      }
      return found;
    });
  };
  const subscription = vscode.lm?.onDidChangeChatModels?.(() => void refresh());
  const ready = refresh();
  const find = async (id: string): Promise<vscode.LanguageModelChat> => {
    const current = (await (listing ?? ready)).find((m) => m.id === id);
    if (current) return current;
    const [exact] = await vscode.lm.selectChatModels({ id });
    if (!exact) throw Object.assign(new Error(`no model with id ${id}`), { code: 'NotFound' });
    return exact;
  };
  return {
    onDidChange: changed.event,
    cached: () => models.map(info),
    list: async () => (await (listing ?? ready)).map(info),
    async send(modelId, messages, options, signal): Promise<AsyncIterable<LmResponsePart>> {
      const model = await find(modelId);
      const cancel = tokenFor(signal);
      let response: vscode.LanguageModelChatResponse;
      try {
        response = await model.sendRequest(
          messages.map(toMessage),
          {
            justification: options.justification,
            ...(options.tools?.length ? { tools: options.tools, toolMode: vscode.LanguageModelChatToolMode.Auto } : {}),
          },
          cancel.token,
        );
      } catch (err) {
        cancel.dispose();
        throw err;
      }
      return (async function* () {
        try {
          for await (const part of response.stream) {
            if (part instanceof vscode.LanguageModelTextPart) yield { type: 'text', text: part.value };
            else if (part instanceof vscode.LanguageModelToolCallPart)
              yield { type: 'tool_call', callId: part.callId, name: part.name, input: part.input };
            // Other parts (future kinds) carry nothing we can show or replay.
          }
        } finally {
          cancel.dispose();
        }
      })();
    },
    async countTokens(modelId, text, signal) {
      const model = await find(modelId);
      const cancel = tokenFor(signal);
      try {
        return await model.countTokens(text, cancel.token);
      } finally {
        cancel.dispose();
      }
    },
    dispose: () => {
      subscription?.dispose();
      changed.dispose();
    },
  };
}
