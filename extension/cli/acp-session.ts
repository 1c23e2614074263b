// One ACP session: its own engine (the client's cwd is the engine's workspace), the connection it
// streams to, and the approvals it forwards. The engine's messages — the same the webview gets — go out
// as `session/update` notifications in order; an approval becomes `session/request_permission`, and the
// client's choice goes back to the engine's approval broker. Nothing here runs a tool or a model itself.
import type * as acp from '@agentclientprotocol/sdk';
import type { ApprovalDecision } from '../core/ports';
import type { Engine } from '../engine/engine';
import type { ChatMessage, Mode, Outbound, PendingApproval } from '../protocol';
import type { StderrLog } from './log';
import type { Approver } from './main';
import {
  ALLOW_ALWAYS,
  ALLOW_ONCE,
  permissionOptions,
  replayOf,
  stopReasonOf,
  TOOL_KINDS,
  updatesOf,
} from './acp-updates';

/**
 * The command line's engine host does not write "Always allow" rules to ~/.sextant/settings.json yet
 * (createEngine gets no rememberRule there), so the client is not offered a choice that would only allow once.
 */
const HOST_REMEMBERS_RULES = false;

export interface SessionWiring {
  /** The connection's client side (notify / request). */
  client: acp.AgentContext;
  log: StderrLog;
}

export class AcpSession {
  private engine!: Engine;
  /** Updates go out one after another; a prompt's answer waits for all of them. */
  private sent: Promise<void> = Promise.resolve();
  private messages: ChatMessage[] = [];
  private stepsOut = false;
  private running = false;
  readonly approver: Approver = {};

  constructor(
    private readonly wiring: SessionWiring,
    public mode: Mode,
    public id = '',
  ) {
    this.approver.current = (a) => this.askClient(a);
  }

  /** Receives every engine message (wired as the engine's `post`). */
  readonly post = (m: Outbound): void => {
    if (m.type === 'snapshot') this.messages = m.snapshot.messages;
    if (m.type !== 'events' || !this.running) return;
    for (const env of m.envelopes) {
      if (env.event.type === 'error' && env.event.error.code === 'max_steps') this.stepsOut = true;
      for (const update of updatesOf(env.event)) this.send(update);
    }
  };

  attach(engine: Engine): void {
    this.engine = engine;
    if (!this.id) this.id = engine.sessionId();
  }

  private send(update: acp.SessionUpdate): void {
    const params = { sessionId: this.id, update };
    this.sent = this.sent
      .then(() => this.wiring.client.notify('session/update', params))
      .catch((err: unknown) => this.wiring.log.warn(`session/update not sent: ${this.wiring.log.redact(String(err))}`));
  }

  /** `session/load`: the stored session's messages as updates, before the load answers. */
  async replay(): Promise<void> {
    for (const update of replayOf(this.messages)) this.send(update);
    await this.sent;
  }

  async prompt(text: string): Promise<acp.PromptResponse> {
    if (this.running) throw new Error('a prompt is already running in this session');
    this.running = true;
    this.stepsOut = false;
    try {
      const outcome = await this.engine.prompt(text, { mode: this.mode });
      await this.sent;
      return { stopReason: stopReasonOf(outcome, this.stepsOut) };
    } finally {
      this.running = false;
    }
  }

  cancel(): Promise<void> {
    return this.engine.cancel();
  }

  dispose(): Promise<void> {
    return this.engine.dispose();
  }

  private async askClient(a: PendingApproval): Promise<ApprovalDecision> {
    // The tool card must be on the client before the question that points at it.
    await this.sent;
    const res = await this.wiring.client.request('session/request_permission', {
      sessionId: this.id,
      toolCall: {
        toolCallId: a.callId,
        title: `${a.tool} ${a.subject}`,
        kind: TOOL_KINDS[a.kind],
        status: 'pending',
        content: [
          { type: 'content', content: { type: 'text', text: a.reason ? `${a.detail}\n\n${a.reason}` : a.detail } },
        ],
      },
      options: permissionOptions(a, HOST_REMEMBERS_RULES),
    });
    const outcome = res.outcome;
    if (outcome.outcome !== 'selected') return { decision: 'deny', reason: 'The request was cancelled.' };
    if (outcome.optionId === ALLOW_ONCE) return { decision: 'approve' };
    if (outcome.optionId === ALLOW_ALWAYS && a.alwaysRule) return { decision: 'always' };
    return { decision: 'deny', reason: 'The user rejected this call in their editor.' };
  }
}
