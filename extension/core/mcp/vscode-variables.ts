// The variables VS Code expands in `.vscode/mcp.json`: `${workspaceFolder}`, `${userHome}`,
// `${env:NAME}` and `${input:id}` (a prompted value, inputs.ts). Kept apart from expand.ts (Claude Code's
// `${VAR}`): each file is expanded in its own dialect, so a file written for one client means what it
// meant there. An unknown variable is left as written and named, like VS Code leaves it.

const VARIABLE = /\$\{(workspaceFolder|userHome|env:([A-Za-z_][A-Za-z0-9_]*)|input:([A-Za-z0-9_.-]+))\}/g;

export interface VscodeVariableContext {
  workspaceFolder?: string;
  userHome?: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Input values by id (only the ones the server references are needed). */
  inputs: Readonly<Record<string, string>>;
}

/** The inputs and environment variables a text reads, without expanding it. */
export function vscodeVariablesIn(text: string): { inputs: string[]; env: string[] } {
  const inputs = new Set<string>();
  const env = new Set<string>();
  for (const m of text.matchAll(VARIABLE)) {
    if (m[2]) env.add(m[2]);
    if (m[3]) inputs.add(m[3]);
  }
  return { inputs: [...inputs], env: [...env] };
}

/** `text` with VS Code's variables replaced; `missing` names the ones that had no value (expanded to ""). */
export function expandVscodeVariables(text: string, ctx: VscodeVariableContext): { value: string; missing: string[] } {
  const missing: string[] = [];
  const value = text.replace(VARIABLE, (whole, name: string, envName?: string, inputId?: string) => {
    const v =
      name === 'workspaceFolder'
        ? ctx.workspaceFolder
        : name === 'userHome'
          ? ctx.userHome
          : envName
            ? ctx.env[envName]
            : inputId !== undefined
              ? ctx.inputs[inputId]
              : undefined;
    if (v !== undefined) return v;
    missing.push(whole.slice(2, -1));
    return '';
  });
  return { value, missing };
}
