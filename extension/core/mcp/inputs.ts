// The values of `.vscode/mcp.json`'s `inputs` (`${input:id}`): asked once — VS Code's input box, masked
// when the input says `password` — and kept in SecretStorage (the SecretsPort), never in the file, the
// approval record, the session database or a log. Keyed by the workspace (two projects may both name
// an input `token`) and the input's id. Two servers starting together that need the same input share one
// question. An empty or cancelled answer stores nothing: the server fails to start and says which input
// was not given; the next start asks again.
import type { SecretsPort } from '../ports';
import type { McpInputSpec } from './config';
import { sha256 } from './server-spec';

export interface McpInputValues {
  /** The input's value: SecretStorage, else asked (and stored). Undefined: the user gave none. */
  value(input: McpInputSpec): Promise<string | undefined>;
  /** Forgets a stored value (the next start asks again). */
  forget(id: string): Promise<void>;
}

export interface InputValuesDeps {
  secrets: SecretsPort;
  /** Asks the user (VS Code: showInputBox, `password` masks it). Undefined: cancelled. */
  ask(input: McpInputSpec): Promise<string | undefined>;
  /** What keys the values: the workspace folder (its path; only a hash of it is in the key). */
  workspace: string;
}

/** The SecretStorage key of one input of one workspace. */
export function inputSecretKey(workspace: string, id: string): string {
  return `sextant.mcp.input/${sha256(workspace).slice(0, 16)}/${id}`;
}

export function createInputValues(deps: InputValuesDeps): McpInputValues {
  const pending = new Map<string, Promise<string | undefined>>();
  const lookup = async (input: McpInputSpec): Promise<string | undefined> => {
    const key = inputSecretKey(deps.workspace, input.id);
    const stored = await deps.secrets.get(key);
    if (stored) return stored;
    const answer = await deps.ask(input);
    if (!answer) return undefined;
    await deps.secrets.set(key, answer);
    return answer;
  };
  return {
    value(input) {
      let p = pending.get(input.id);
      if (!p) {
        p = lookup(input).finally(() => pending.delete(input.id));
        pending.set(input.id, p);
      }
      return p;
    },
    forget: (id) => deps.secrets.delete(inputSecretKey(deps.workspace, id)),
  };
}
