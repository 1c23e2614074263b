// The command line's flags, checked before anything starts: a bad flag is one clear line and exit 2.
// `sextant -p PROMPT [flags]` runs one request; `sextant` alone is a prompt loop (a TTY) or reads the
// prompt from stdin (a pipe); `sextant acp` is the Agent Client Protocol server.
import { isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Mode } from '../protocol';

export type OutputFormat = 'text' | 'json' | 'stream-json';
export type PermissionMode = 'ask' | 'accept-edits' | 'auto' | 'plan';
export type SandboxFlag = 'auto' | 'box' | 'off';

export interface CliOptions {
  command: 'run' | 'acp' | 'help' | 'version';
  prompt?: string;
  mode?: Mode;
  model?: string;
  cwd: string;
  outputFormat: OutputFormat;
  permissionMode?: PermissionMode;
  allow: string[];
  deny: string[];
  maxSteps?: number;
  maxCostUsd?: number;
  resume?: string;
  continue: boolean;
  sandbox?: SandboxFlag;
  trustWorkspace: boolean;
  verbose: boolean;
}

/** A mistake on the command line: said in one line, exit code 2. */
export class UsageError extends Error {}

const MODES: readonly Mode[] = ['chat', 'plan', 'research', 'agent'];
const FORMATS: readonly OutputFormat[] = ['text', 'json', 'stream-json'];
const PERMISSION_MODES: readonly PermissionMode[] = ['ask', 'accept-edits', 'auto', 'plan'];
const SANDBOX: readonly SandboxFlag[] = ['auto', 'box', 'off'];

export const USAGE = `Usage: sextant [-p PROMPT] [options]
       sextant acp [options]    an Agent Client Protocol server on stdio (Zed, JetBrains, Neovim)

  -p, --print PROMPT        run one request and exit (stdin, if piped, is added as context)
  --mode MODE               chat | plan | research | agent (default: chat)
  --model PROVIDER/MODEL    the model (default: sextant.defaultModel in ~/.sextant/settings.json)
  --cwd DIR                 the workspace folder (default: the current directory)
  --output-format FORMAT    text | json | stream-json (one JSON event per line)
  --permission-mode MODE    ask | accept-edits | auto | plan (default: ask; what would ask is refused)
  --allow RULE, --deny RULE add a permission rule, e.g. --allow 'Bash(npm test)' (repeatable)
  --max-steps N             steps before the run stops
  --max-cost-usd USD        stop the run at this cost
  --resume ID, --continue   continue a stored session (by id, or the newest)
  --sandbox MODE            auto | box | off (the bubblewrap box commands run in)
  --trust-workspace         let the repository's .mcp.json servers and hooks run
  --verbose                 log to stderr
  -h, --help, --version

Keys come from environment variables (each provider's apiKeyEnv) or ~/.sextant/config.json, never flags.
Exit codes: 0 done, 1 error, 2 bad usage, 3 stopped by a budget, 4 refused because it would ask.`;

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${flag} must be one of ${allowed.join(', ')} (got "${value}")`);
  return value as T;
}

function positiveNumber(flag: string, value: string | undefined, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!value.trim() || !Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
    throw new UsageError(`--${flag} must be a positive ${integer ? 'whole number' : 'number'} (got "${value}")`);
  return n;
}

export function parseCliArgs(argv: string[], cwd: string): CliOptions {
  if (argv[0] === 'acp') return { ...defaults(cwd), command: 'acp', ...parseFlags(argv.slice(1), cwd) };
  return { ...defaults(cwd), ...parseFlags(argv, cwd) };
}

function defaults(cwd: string): CliOptions {
  return {
    command: 'run',
    cwd,
    outputFormat: 'text',
    allow: [],
    deny: [],
    continue: false,
    trustWorkspace: false,
    verbose: false,
  };
}

function parseFlags(argv: string[], cwd: string): Partial<CliOptions> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    // node:util's messages name the flag but run long: the flag is what the user needs.
    const message = String((err as Error).message);
    const unknown = /^Unknown option '([^']+)'/.exec(message);
    throw new UsageError(unknown ? `unknown option ${unknown[1]}` : (message.split('\n')[0] ?? 'bad arguments'));
  }
  const v = parsed.values;
  if (v.help) return { command: 'help' };
  if (v.version) return { command: 'version' };
  if (parsed.positionals.length)
    throw new UsageError(`unexpected argument "${parsed.positionals[0]}" (the prompt goes after -p)`);
  if (v['api-key'] !== undefined)
    throw new UsageError(
      "keys are never taken on the command line: set the provider's environment variable or ~/.sextant/config.json",
    );
  if (v.resume !== undefined && v.continue) throw new UsageError('--resume and --continue cannot be used together');
  if (v.print !== undefined && !v.print.trim()) throw new UsageError('-p needs a prompt');
  const model = v.model?.trim();
  if (v.model !== undefined && !model) throw new UsageError('--model needs a value like provider/model');
  const out: Partial<CliOptions> = {
    cwd: v.cwd ? resolveDir(v.cwd, cwd) : cwd,
    outputFormat: oneOf('output-format', v['output-format'], FORMATS) ?? 'text',
    allow: v.allow ?? [],
    deny: v.deny ?? [],
    continue: v.continue ?? false,
    trustWorkspace: v['trust-workspace'] ?? false,
    verbose: v.verbose ?? false,
  };
  const permissionMode = oneOf('permission-mode', v['permission-mode'], PERMISSION_MODES);
  let mode = oneOf('mode', v.mode, MODES);
  // plan: the run proposes and writes nothing — Plan mode, whose tools only read.
  if (permissionMode === 'plan') {
    if (mode && mode !== 'plan') throw new UsageError(`--permission-mode plan runs in Plan mode; drop --mode ${mode}`);
    mode = 'plan';
  }
  const sandbox = oneOf('sandbox', v.sandbox, SANDBOX);
  const maxSteps = positiveNumber('max-steps', v['max-steps'], true);
  const maxCostUsd = positiveNumber('max-cost-usd', v['max-cost-usd'], false);
  return {
    ...out,
    ...(v.print !== undefined ? { prompt: v.print } : {}),
    ...(mode ? { mode } : {}),
    ...(model ? { model } : {}),
    ...(permissionMode ? { permissionMode } : {}),
    ...(sandbox ? { sandbox } : {}),
    ...(maxSteps ? { maxSteps } : {}),
    ...(maxCostUsd ? { maxCostUsd } : {}),
    ...(v.resume !== undefined ? { resume: v.resume } : {}),
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      print: { type: 'string', short: 'p' },
      mode: { type: 'string' },
      model: { type: 'string' },
      cwd: { type: 'string' },
      'output-format': { type: 'string' },
      'permission-mode': { type: 'string' },
      allow: { type: 'string', multiple: true },
      deny: { type: 'string', multiple: true },
      'max-steps': { type: 'string' },
      'max-cost-usd': { type: 'string' },
      resume: { type: 'string' },
      continue: { type: 'boolean', short: 'c' },
      sandbox: { type: 'string' },
      'trust-workspace': { type: 'boolean' },
      verbose: { type: 'boolean', short: 'v' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
      // Only to refuse it with a reason: a key on the command line lands in shell history and `ps`.
      'api-key': { type: 'string' },
    },
  });
}

function resolveDir(dir: string, cwd: string): string {
  return isAbsolute(dir) ? dir : resolve(cwd, dir);
}
