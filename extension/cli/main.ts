// `sextant`: the engine on the command line. Parses the flags (a mistake: one line, exit 2), reads the
// user's settings, keys and trust from ~/.sextant, composes the engine with this host's small adapters,
// and runs one request (-p, or stdin as the prompt) or a prompt loop on a terminal. Nothing here asks in
// a non-interactive run: whatever would ask is refused, reported, and makes the exit code 4.
//
// Exit codes: 0 done, 1 error, 2 bad usage (flags, settings, a missing key), 3 stopped by a budget,
// 4 refused because it would ask.
import * as path from 'node:path';
import { statSync } from 'node:fs';
import type { Outbound, PendingApproval } from '../protocol';
import type { ApprovalDecision, WorkspacePort } from '../core/ports';
import type { Engine, PromptOutcome } from '../engine/engine';
import { readFleetLimits, readPermissionSettings, type SettingsSource } from '../engine/settings';
import type { FleetBudget, FleetLimits } from '../core/usage/fleet-budget';
import { type CliOptions, parseCliArgs, USAGE, UsageError } from './args';
import { ensureHome, sextantHome } from './home';
import { stderrLog, type StderrLog } from './log';
import type { AcpServerDeps } from './acp-server';
import { createOutput, describe, type Output } from './output';
import { cliSearch, cliTerminal, cliWorkspace } from './ports';
import { cliSettings, readSettingsFile } from './settings-file';
import { fileState, memoryState } from './state-file';
import { markStartup } from './startup-trace';
import { ConfigError, configSecrets, readUserConfig, trustsWorkspace } from './user-config';

export const EXIT = { done: 0, error: 1, usage: 2, budget: 3, refused: 4 } as const;

export interface CliIo {
  argv: string[];
  env: Record<string, string | undefined>;
  cwd: string;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** The folder the other bundles (provider SDKs, workers, sql-wasm.wasm) sit in. */
  bundleDir: string;
  version: string;
}

export async function main(io: CliIo): Promise<number> {
  let opts: CliOptions;
  try {
    opts = parseCliArgs(io.argv, io.cwd);
    if (opts.command === 'help' || opts.command === 'version') {
      io.stdout(`${opts.command === 'help' ? USAGE : io.version}\n`);
      return EXIT.done;
    }
    if (!isDirectory(opts.cwd)) throw new UsageError(`--cwd ${opts.cwd} is not a folder`);
  } catch (err) {
    if (err instanceof UsageError) return usage(io, err.message);
    throw err;
  }
  const log = stderrLog(opts.verbose, io.stderr);
  const home = sextantHome(io.env);
  // stdout is the protocol's channel: the ACP server writes nothing else to it.
  if (opts.command === 'acp') {
    // One fleet for all the server's sessions (as for a VS Code window's chats): the total caps, the parallel
    // limit and the spend rate count them together, with the settings the newest session started with.
    let limits: FleetLimits = {};
    // The ACP SDK and its schemas load only for `sextant acp`, never on the `-p` path.
    const [{ runAcpServer }, fleetModule] = await Promise.all([
      import('./acp-server'),
      import('../core/usage/fleet-budget'),
    ]);
    const fleet: FleetBudget = new fleetModule.FleetBudget({ limits: () => limits, now: Date.now });
    const shared = (settings: SettingsSource) => {
      limits = readFleetLimits(settings);
      fleet.limitsChanged();
      return fleet;
    };
    const start: AcpServerDeps['start'] = (...a) => startEngine(...a, shared);
    return runAcpServer({ io, opts, log, home, start });
  }
  const approver: Approver = {};
  let engine: Engine;
  let output: Output;
  const outputs: Output[] = [];
  try {
    engine = await startEngine(io, opts, log, home, approver, (m) => {
      for (const o of outputs) o.message(m);
    });
    output = createOutput(opts.outputFormat, log.redact, io.stdout, io.stderr);
    outputs.push(output);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof UsageError) return usage(io, log.redact(err.message));
    throw err;
  }
  try {
    const problem = engine.modelProblem(opts.model);
    if (problem) return usage(io, log.redact(problem));
    if (opts.resume && !(await engine.resume(opts.resume)))
      return usage(io, `there is no session "${opts.resume}" in ${home.storageDir}`);
    if (opts.continue) {
      const latest = await engine.latestSessionId();
      if (!latest) return usage(io, `--continue: there is no earlier session in ${home.storageDir}`);
      await engine.resume(latest);
    }
    const interactive = opts.prompt === undefined && io.stdin.isTTY === true;
    if (interactive) return await promptLoop(io, opts, engine, output, approver);
    const piped = io.stdin.isTTY ? '' : await readAll(io.stdin);
    const prompt = opts.prompt === undefined ? piped.trim() : withContext(opts.prompt, piped);
    if (!prompt) return usage(io, 'no prompt: pass -p PROMPT or pipe one on stdin');
    return await runOnce(opts, engine, output, log, prompt);
  } finally {
    await engine.dispose();
  }
}

function usage(io: CliIo, message: string): number {
  io.stderr(`sextant: ${message} (see sextant --help)\n`);
  return EXIT.usage;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The flags this run layers over the user's settings. */
function flagSettings(opts: CliOptions): Record<string, unknown> {
  const s: Record<string, unknown> = {};
  if (opts.maxSteps) s['agent.maxSteps'] = opts.maxSteps;
  if (opts.maxCostUsd) s['budget.maxCostUsd'] = opts.maxCostUsd;
  if (opts.sandbox) s['sandbox.mode'] = opts.sandbox;
  // accept-edits: writes inside the workspace run, as the extension's mode; auto: the extension's auto
  // mode — a reviewer model (sextant.autoMode.reviewerModel, else the run's model) answers what no rule
  // covers, through the same core; the floor, and a reviewer's "ask", are refused (nobody to ask here).
  if (opts.permissionMode === 'accept-edits') s['permissions.defaultMode'] = 'acceptEdits';
  if (opts.permissionMode === 'auto') s['permissions.defaultMode'] = 'auto';
  if (opts.permissionMode === 'ask') s['permissions.defaultMode'] = 'ask';
  return s;
}

/**
 * The engine on this host: the user's settings, keys and trust, `opts.cwd` as the workspace. `post`
 * gets every message the webview would; an approval goes to `approver.current`, or is refused.
 */
export async function startEngine(
  io: CliIo,
  opts: CliOptions,
  log: StderrLog,
  home: ReturnType<typeof sextantHome>,
  approver: Approver,
  post: (m: Outbound) => void,
  /** Another host's view of the files (an ACP client's editor) over this host's node:fs workspace. */
  wrapWorkspace: (ws: WorkspacePort) => WorkspacePort = (ws) => ws,
  /** The fleet shared with the host's other engines (the ACP server's sessions), given this one's settings. */
  sharedFleet?: (settings: SettingsSource) => FleetBudget,
): Promise<Engine> {
  const config = readUserConfig(home.configFile);
  let file: Record<string, unknown>;
  try {
    file = readSettingsFile(home.settingsFile);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const settings = cliSettings(file, flagSettings(opts), {
    'permissions.allow': opts.allow,
    'permissions.deny': opts.deny,
  });
  ensureHome(home);
  markStartup('settings');
  const roots = [opts.cwd];
  const secrets = configSecrets(config);
  // The model's bundle, key and connection, under way while the engine composes: only for a run with its
  // prompt at hand (a prompt loop or an ACP server may never send) whose model is known now (a resumed
  // session keeps its own unless --model names one).
  if (opts.command === 'run' && opts.prompt !== undefined && (opts.model || !(opts.resume || opts.continue)))
    (await import('./warm-first-request')).warmFirstRequest({
      settings,
      model: opts.model,
      secrets,
      env: io.env,
      bundleDir: io.bundleDir,
    });
  // The engine's modules are evaluated here, after the flags: --help, --version and a usage mistake
  // answer without them.
  const { createEngine } = await import('../engine/engine');
  const engine = await createEngine({
    log,
    settings,
    secrets,
    env: io.env,
    workspaceFolders: roots,
    storageDir: home.storageDir,
    bundleDir: io.bundleDir,
    ports: {
      workspace: wrapWorkspace(
        cliWorkspace(roots, () =>
          readPermissionSettings(settings).extraWriteRoots.filter(
            (r): r is string => typeof r === 'string' && path.isAbsolute(r),
          ),
        ),
      ),
      search: cliSearch(io.env),
      terminal: cliTerminal,
    },
    globalState: fileState(home.stateFile),
    workspaceState: memoryState(),
    trustWorkspace: opts.trustWorkspace || trustsWorkspace(config, opts.cwd),
    ...(sharedFleet ? { fleet: sharedFleet(settings) } : {}),
    post,
    approve: async (a: PendingApproval): Promise<ApprovalDecision> => {
      const ask = approver.current;
      if (ask) return ask(a);
      log.warn(`refused: ${describe(a)} — a non-interactive run refuses whatever would ask`);
      return {
        decision: 'deny',
        reason:
          'This is a non-interactive run: nothing can be approved. Do without this call, or stop and say what ' +
          'permission would be needed (the user can re-run with --allow or --permission-mode).',
      };
    },
    answer: async () => undefined,
    confirmKeyDestination: async (q) => {
      log.error(
        `refused to send the ${q.provider} key to ${q.host}: it belongs to ${q.boundHost}` +
          " (a non-interactive run does not ask; fix the provider's baseUrl or the key)",
      );
      return 'no';
    },
  });
  log.redactSecrets(engine.knownSecrets());
  markStartup('engine');
  return engine;
}

/** Set while the prompt loop (or an ACP client) asks; otherwise approvals are refused. */
export interface Approver {
  current?: (a: PendingApproval) => Promise<ApprovalDecision>;
}

function exitCodeOf(outcome: PromptOutcome): number {
  if (outcome.end === 'budget') return EXIT.budget;
  if (outcome.refused.length) return EXIT.refused;
  if (outcome.end === 'error') return EXIT.error;
  return EXIT.done;
}

async function runOnce(opts: CliOptions, engine: Engine, output: Output, log: StderrLog, prompt: string) {
  markStartup('send');
  const outcome = await engine.prompt(prompt, {
    ...(opts.mode ? { mode: opts.mode } : {}),
    ...(opts.model ? { model: opts.model } : {}),
  });
  const exitCode = exitCodeOf(outcome);
  output.result({
    type: 'result',
    sessionId: outcome.sessionId,
    requestId: outcome.requestId,
    end: outcome.end,
    exitCode,
    result: outcome.text,
    ...(outcome.usage ? { usage: outcome.usage } : {}),
    refused: outcome.refused.map((a) => ({ tool: a.tool, subject: a.subject, reason: a.reason ?? '' })),
    ...(outcome.error ? { error: outcome.error } : {}),
  });
  if (opts.outputFormat === 'text') log.info(`session ${outcome.sessionId} (sextant --resume ${outcome.sessionId})`);
  return exitCode;
}

/** `sextant` on a terminal: one prompt after another in one session; approvals asked as y/N. */
async function promptLoop(
  io: CliIo,
  opts: CliOptions,
  engine: Engine,
  output: Output,
  approver: Approver,
): Promise<number> {
  const log = stderrLog(opts.verbose, io.stderr);
  log.redactSecrets(engine.knownSecrets());
  // node:readline only for the prompt loop: a -p run does not load it.
  const { createInterface } = await import('node:readline');
  const rl = createInterface({ input: io.stdin, output: process.stderr, terminal: true });
  const question = (q: string) => new Promise<string>((resolve) => rl.question(q, resolve));
  approver.current = async (a) => {
    const answer = (await question(`Allow ${describe(a)}? [y/N] `)).trim().toLowerCase();
    return answer === 'y' || answer === 'yes' ? { decision: 'approve' } : { decision: 'deny' };
  };
  rl.on('SIGINT', () => void engine.cancel());
  let last: number = EXIT.done;
  io.stderr('sextant: type a prompt (Ctrl-D to quit, Ctrl-C stops a running request)\n');
  for (;;) {
    const line = await new Promise<string | undefined>((resolve) => {
      rl.question('> ', resolve);
      rl.once('close', () => resolve(undefined));
    });
    if (line === undefined) break;
    if (!line.trim()) continue;
    last = await runOnce(opts, engine, output, log, line);
  }
  approver.current = undefined;
  return last;
}

function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (text += chunk));
    stream.on('end', () => resolve(text));
    stream.on('error', reject);
  });
}

/** `git diff | sextant -p "review this"`: the piped text goes below the prompt, marked as such. */
function withContext(prompt: string, piped: string): string {
  return piped.trim() ? `${prompt}\n\n<stdin>\n${piped.replace(/\s+$/, '')}\n</stdin>` : prompt;
}
