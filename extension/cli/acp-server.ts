// `sextant acp`: the engine as an Agent Client Protocol agent on stdio (Zed, JetBrains, Neovim…), with
// the protocol's own SDK. Each session is one engine on the client's cwd, composed exactly as `sextant`
// composes it (the user's settings, keys and workspace trust; --trust-workspace); prompts stream the
// engine's events as session updates, approvals become permission requests, cancel is Stop, modes are
// the engine's modes, and session/load resumes a stored session and replays it.
//
// What is local: commands run here (in the box where it works), as in `sextant -p`; files are this
// machine's, except that when the client offers its file system, a text file is read as the editor
// holds it and a change to one goes through the editor too (acp-workspace.ts).
import { statSync } from 'node:fs';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { MODES, type Mode, type Outbound } from '../protocol';
import type { WorkspacePort } from '../core/ports';
import type { Engine } from '../engine/engine';
import type { CliOptions } from './args';
import type { sextantHome } from './home';
import type { StderrLog } from './log';
import type { Approver, CliIo } from './main';
import { AcpSession } from './acp-session';
import { acpWorkspace } from './acp-workspace';
import { MODE_NAMES } from './acp-updates';
import { promptText } from './acp-prompt';

export interface AcpServerDeps {
  io: CliIo;
  opts: CliOptions;
  log: StderrLog;
  home: ReturnType<typeof sextantHome>;
  start(
    io: CliIo,
    opts: CliOptions,
    log: StderrLog,
    home: ReturnType<typeof sextantHome>,
    approver: Approver,
    post: (m: Outbound) => void,
    wrapWorkspace: (ws: WorkspacePort) => WorkspacePort,
  ): Promise<Engine>;
}

/** Serves until the client closes stdin; 0 then. */
export async function runAcpServer(deps: AcpServerDeps): Promise<number> {
  const { io, opts, log } = deps;
  const sessions = new Map<string, AcpSession>();
  const defaultMode: Mode = opts.mode ?? 'agent';
  // What the client said it offers at initialize (its file system, for the files tools).
  let clientFs: acp.FileSystemCapabilities | undefined;

  const session = (id: string): AcpSession => {
    const s = sessions.get(id);
    if (!s) throw acp.RequestError.sessionNotFound(id);
    return s;
  };

  const open = async (client: acp.AgentContext, cwd: string, resumeId?: string): Promise<AcpSession> => {
    if (!path.isAbsolute(cwd) || !isDirectory(cwd))
      throw acp.RequestError.invalidParams({ cwd }, 'cwd must be an absolute folder');
    const s = new AcpSession({ client, log }, defaultMode, resumeId);
    let engine: Engine;
    try {
      engine = await deps.start(io, { ...opts, cwd }, log, deps.home, s.approver, s.post, (ws) =>
        acpWorkspace(ws, { client, capabilities: clientFs, sessionId: () => s.id, log }),
      );
    } catch (err) {
      throw acp.RequestError.internalError(undefined, log.redact((err as Error).message));
    }
    s.attach(engine);
    const problem = engine.modelProblem(opts.model);
    if (problem) {
      await engine.dispose();
      throw acp.RequestError.internalError(undefined, log.redact(problem));
    }
    if (resumeId && !(await engine.resume(resumeId))) {
      await engine.dispose();
      throw acp.RequestError.resourceNotFound(resumeId);
    }
    sessions.set(s.id, s);
    return s;
  };

  const modes = (s: AcpSession): acp.SessionModeState => ({
    currentModeId: s.mode,
    availableModes: MODES.map((m) => ({ id: m, name: MODE_NAMES[m] })),
  });

  const app = acp
    .agent({ name: 'sextant' })
    .onRequest('initialize', ({ params }) => {
      clientFs = params.clientCapabilities?.fs;
      return {
        protocolVersion: Math.min(params.protocolVersion, acp.PROTOCOL_VERSION),
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
        },
        agentInfo: { name: 'sextant', version: io.version },
        authMethods: [],
      };
    })
    .onRequest('session/new', async ({ params, client }) => {
      const s = await open(client, params.cwd);
      return { sessionId: s.id, modes: modes(s) };
    })
    .onRequest('session/load', async ({ params, client }) => {
      const s = await open(client, params.cwd, params.sessionId);
      await s.replay();
      return { modes: modes(s) };
    })
    .onRequest('session/set_mode', async ({ params, client }) => {
      const s = session(params.sessionId);
      const mode = MODES.find((m) => m === params.modeId);
      if (!mode) throw acp.RequestError.invalidParams({ modeId: params.modeId }, `modes: ${MODES.join(', ')}`);
      s.mode = mode;
      await client.notify('session/update', {
        sessionId: s.id,
        update: { sessionUpdate: 'current_mode_update', currentModeId: mode },
      });
      return {};
    })
    .onRequest('session/prompt', async ({ params }) => {
      const s = session(params.sessionId);
      return s.prompt(promptText(params.prompt));
    })
    .onNotification('session/cancel', async ({ params }) => {
      await sessions.get(params.sessionId)?.cancel();
    });

  const stream = acp.ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  log.info('sextant acp: serving the Agent Client Protocol on stdio');
  await connection.closed;
  for (const s of sessions.values()) await s.dispose().catch(() => undefined);
  return 0;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
