// The handler table for webview messages. Its type is a mapped type over the inbound union, so a
// new message type without a handler here is a compile error.
import * as vscode from 'vscode';
import { openWorkspaceFile } from './open-workspace-file';
import { type GrantHost, preApprovalFor } from '../core/extensions/command-grants';
import { type Attachment, messageWithAttachments } from '../core/extensions/references/attach';
import type { ResolvedReferences } from '../core/extensions/references/resolve';
import type {
  InboundHandlers,
  Mode,
  Outbound,
  PermissionMode,
  Reference,
  ReferenceCandidate,
  RunBudgetChoice,
} from '../protocol';
import type { ChatController } from '../core/agent/controller';
import { expandPrompt } from '../core/extensions/prompt-expansion';
import { gitReviewDiff } from '../core/extensions/review';
import { gitCommitCommand } from '../core/git/commit-command';
import type { MayRead } from '../core/extensions/untracked-files';
import type { ProjectContext } from '../core/extensions/project-context';
import type { PromptHistory } from '../core/extensions/prompt-history';
import type { MessageQueue } from '../core/agent/message-queue';
import type { MemoryHost } from './memory-host';
import type { PlanDocuments } from './plan-documents';
import type { DiffReviews } from './diff-review';
import { openWorkspaceSource } from './open-source';
import { admitImages } from '../core/extensions/images/chat-images';
import type { CheckedImageSet } from '../core/extensions/images/chat-images';
import { type ChatImage, ChatImageMediaTypeSchema, parseGoalArgs, parseInvocation } from '../protocol';
import { markFirstRequest } from '../core/util/first-request-trace';

export interface HandlerHost {
  controller: ChatController;
  /**
   * The user is typing in this chat (the view's throttled `composing`): the model's connection made ready
   * for the Send (first-request-warm-up.ts). Never a model request.
   */
  composing?(model: string): void;
  /** A /review turn ended: its answer's findings go beside the code (review-comments.ts). */
  reviewAnswered?(answer: string, sessionId?: string): void;
  /** Create Branch and Pull Request for a session (git-host.ts): the chat's end-of-run button. */
  createPullRequest?(sessionId: string | undefined): Promise<void>;
  log: vscode.LogOutputChannel;
  setApiKey(): Promise<void>;
  pickModel(): Promise<void>;
  /** The header's "Permission mode": writes sextant.permissions.defaultMode (user settings). */
  setPermissionMode?(mode: PermissionMode): Promise<void>;
  exportSession(format?: 'markdown' | 'html' | 'json'): Promise<void>;
  exportReport(reportId?: string, format?: 'markdown' | 'html' | 'json'): Promise<void>;
  openSourceQuote(m: { reportId: string; n: number; start: number; end: number }): Promise<void>;
  /** "Open in Editor" on a History entry. */
  openInEditor(sessionId: string): Promise<void>;
  planDocuments: PlanDocuments;
  diffReviews: Pick<DiffReviews, 'reveal'>;
  /** The user's answer to an MCP server waiting for approval (mcp-host.ts). */
  mcpDecide(
    server: string,
    decision: 'approve' | 'deny',
    card: { configHash: string; toolsHash?: string },
  ): Promise<void>;
  /** The user's answer to the workspace hooks' approval card (hooks-host.ts). */
  hookDecide(hash: string, decision: 'approve' | 'deny'): Promise<void>;
  /**
   * `/mcp__<server>__<prompt>` and `@<server>:<uri>` in a message, resolved (the text as typed if none);
   * a prompt's images come back to be sent with the message.
   */
  expandMessage(text: string): Promise<{ text: string; images: ChatImage[] }>;
  /** Rules, skills and slash commands (the `/` menu and the context popover). */
  project: ProjectContext;
  /** `# text` in the composer: a memory added after asking which file (memory-host.ts). */
  memory?: MemoryHost;
  prompts: PromptHistory;
  /** `@` references: reading them before a send, and the files and folders the `@` listbox offers. */
  references?: {
    resolve(refs: readonly Reference[]): Promise<ResolvedReferences>;
    candidates(query: string): Promise<ReferenceCandidate[]>;
    /** read_file's judgement without asking: /review reads an untracked file only when it allows. */
    mayRead?: MayRead;
  };
  /** Whether a slash command's allowed-tools pre-approve anything (a workspace file asks once per version). */
  grants?: GrantHost;
  /** Messages queued while a turn runs (kept in the host's state). */
  queue: MessageQueue;
  /** A request id for a message the host sends itself (a queued one). */
  newRequestId(): string;
  post(message: Outbound): void;
}

const EXTERNAL_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

export function createInboundHandlers(host: HandlerHost): InboundHandlers {
  const c = host.controller;
  const postQueue = () => host.post({ type: 'queued', items: host.queue.items() });
  /**
   * What the user typed, as a request: MCP references first (`/mcp__<server>__<prompt>`,
   * `@<server>:<uri>`), then a custom slash command becomes its prompt (a few small reads); a refused one
   * keeps the draft in the view, which checks the name against the same list before sending. Once the
   * request completes, the next queued message goes (after Stop or an error they stay queued).
   */
  /**
   * The `@` chips' content, or undefined after telling the view why they could not be read (nothing sent).
   * `chips`: what goes back to the composer then (a command file's own `@path`s are not the user's chips).
   */
  const attach = async (
    text: string,
    references: readonly Reference[] | undefined,
    images?: readonly ChatImage[],
    chips = references,
  ) => {
    if (!references?.length) return [] as Attachment[];
    const read = host.references
      ? await host.references.resolve(references)
      : { ok: false as const, message: 'Not sent: references cannot be read here.' };
    if (read.ok) return read.attachments;
    refuse(read.message, text, chips, images);
    return undefined;
  };
  /** The message goes back to the composer, chips and images included, with why it was not sent. */
  const refuse = (message: string, text: string, references?: readonly Reference[], images?: readonly ChatImage[]) =>
    host.post({
      type: 'sendRefused',
      message,
      text,
      references: [...(references ?? [])],
      ...(images?.length ? { images: [...images] } : {}),
    });
  /** The images checked again here (never trusted from the view) and the model asked whether it takes them. */
  const checkImages = async (
    text: string,
    mode: Mode,
    references: readonly Reference[] | undefined,
    images: readonly ChatImage[] | undefined,
  ): Promise<CheckedImageSet | undefined | false> => {
    const admitted = await admitImages(images, mode, (m) => c.imagesAccepted(m));
    if (admitted.ok) return admitted.set;
    refuse(admitted.message, text, references, images);
    return false;
  };
  const sendText = async (
    requestId: string,
    text: string,
    mode: Mode,
    budget?: RunBudgetChoice,
    references?: readonly Reference[],
    images?: readonly ChatImage[],
  ) => {
    // Another window runs this chat's session now: not run twice (the host offers it read-only or a new chat).
    const elsewhere = c.runningElsewhere();
    if (elsewhere) return refuse(elsewhere, text, references, images);
    // What the user typed (not a command's expansion) is what Up brings back.
    host.post({ type: 'promptHistory', prompts: host.prompts.add(text) });
    const call = parseInvocation(text);
    if (call?.name === 'goal') return goal(requestId, call.args, text, budget, references, images);
    // Images first (a text-only model refuses them before anything is read), then the `@` chips: either
    // refusing sends the message back to the composer.
    // An MCP prompt's images join the user's, and are checked with them.
    const expanded = await host.expandMessage(text);
    const allImages = expanded.images.length ? [...(images ?? []), ...expanded.images] : images;
    const checkedImages = await checkImages(text, mode, references, allImages);
    if (checkedImages === false) return;
    const attachments = await attach(text, references, images);
    if (!attachments) return;
    const prompt = await expandPrompt(host.project.commands, expanded.text, {
      reviewDiff: gitReviewDiff(() => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, host.references?.mayRead),
      commit: gitCommitCommand(() => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, host.references?.mayRead),
    });
    markFirstRequest('message handled');
    if (!prompt.ok) {
      host.post({
        type: 'protocolError',
        error: { code: 'bad_request', message: prompt.message, recoverable: true },
      });
      return;
    }
    // A command file's `@path`s are read like chips (the same rules; a refused one sends nothing).
    const fromCommand = prompt.references?.length ? await attach(text, prompt.references, images, references) : [];
    if (!fromCommand) return;
    const preApproved = prompt.grant && host.grants ? await preApprovalFor(prompt.grant, host.grants) : undefined;
    const attached = [...attachments, ...fromCommand];
    const opts = {
      ...(budget ? { budget } : {}),
      ...(prompt.model ? { model: prompt.model } : {}),
      ...(attached.length ? { attachments: attached } : {}),
      ...(prompt.commandShell ? { commandShell: true } : {}),
      ...(preApproved ? { preApproved } : {}),
      ...(checkedImages ? { images: checkedImages } : {}),
    };
    await c.send(requestId, prompt.text, prompt.mode ?? mode, opts);
    if (prompt.command === 'review' && c.lastEnd() === 'complete')
      host.reviewAnswered?.(c.lastAnswerText(), c.currentSessionRef()?.id);
    if (c.lastEnd() !== 'complete' || c.isRunning()) return;
    const next = host.queue.shift();
    if (!next) return;
    postQueue();
    await sendText(host.newRequestId(), next.text, next.mode, undefined, next.references, next.images);
  };
  /**
   * `/goal …`: sets the goal (it runs in Agent mode: its check may run a command), or `/goal clear` ends it; a
   * malformed one goes back to the composer with the usage. The goal's own messages carry no attachments.
   */
  const goal = async (
    requestId: string,
    args: string,
    text: string,
    budget?: RunBudgetChoice,
    references?: readonly Reference[],
    images?: readonly ChatImage[],
  ) => {
    const parsed = parseGoalArgs(args);
    if (parsed.kind === 'refused') return refuse(parsed.message, text, references, images);
    if (parsed.kind === 'clear') return c.stopGoal();
    await c.startGoal(requestId, parsed.goal, 'agent', budget ? { budget } : {});
    if (c.lastEnd() !== 'complete' || c.isRunning()) return;
    const next = host.queue.shift();
    if (!next) return;
    postQueue();
    await sendText(host.newRequestId(), next.text, next.mode, undefined, next.references, next.images);
  };
  return {
    ready: () => {
      host.post({ type: 'promptHistory', prompts: host.prompts.list() });
      postQueue();
      return c.postSnapshot();
    },
    // Not awaited: a send runs for the whole turn, and the next message (Stop) must get through.
    send: (m) => void sendText(m.requestId, m.text, m.mode, m.budget, m.references, m.images),
    composing: () => host.composing?.(c.currentModel()),
    stopGoal: () => c.stopGoal(),
    queue: (m) => {
      // The turn may have ended meanwhile: then the message goes now.
      if (!c.isRunning()) return void sendText(host.newRequestId(), m.text, m.mode, undefined, m.references, m.images);
      host.queue.add(m.text, m.mode, m.references, m.images);
      postQueue();
    },
    queueEdit: (m) => {
      host.queue.edit(m.id, m.text);
      postQueue();
    },
    queueRemove: (m) => {
      host.queue.remove(m.id);
      postQueue();
    },
    steer: async (m) => {
      const queued = m.id ? host.queue.take(m.id) : undefined;
      if (queued) postQueue();
      const text = queued?.text ?? m.text?.trim();
      if (!text) return;
      const references = queued ? queued.references : m.references;
      const images = queued ? queued.images : m.images;
      if (!c.isRunning())
        return void sendText(host.newRequestId(), text, queued?.mode ?? m.mode, undefined, references, images);
      // A steer is text the model reads at its next step; images cannot ride on it, so a steer with
      // images waits first in the queue (kept whole) and goes as the next message.
      if (images?.length) {
        host.queue.add(text, queued?.mode ?? m.mode, references, images, { first: true });
        postQueue();
        return;
      }
      host.post({ type: 'promptHistory', prompts: host.prompts.add(text) });
      // A steer's `@` chips go with it, read now, as a sent message's would be.
      const attachments = await attach(text, references);
      if (!attachments) return;
      const steered = attachments.length ? messageWithAttachments(text, attachments) : text;
      if (!c.steer(steered)) void sendText(host.newRequestId(), text, queued?.mode ?? m.mode, undefined, references);
    },
    projectContext: async () => host.post({ type: 'projectContext', info: await host.project.info() }),
    referenceCandidates: async (m) => {
      const items = (await host.references?.candidates(m.query).catch(() => [])) ?? [];
      host.post({ type: 'referenceCandidates', query: m.query, items });
    },
    imageRequest: (m) => {
      const found = c.storedImage(m.sha256);
      const type = ChatImageMediaTypeSchema.safeParse(found?.mediaType);
      host.post({
        type: 'imageData',
        sha256: m.sha256,
        ...(found && type.success ? { mediaType: type.data, dataBase64: found.dataBase64 } : {}),
      });
    },
    contextUsage: async () => {
      try {
        host.post({ type: 'contextUsage', breakdown: await c.contextBreakdown() });
      } catch (err) {
        host.log.warn(`context meter: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
    abort: (m) => c.stop(m.requestId),
    stopSubagent: (m) => {
      if (!c.stopSubagent(m.callId)) host.log.warn(`no sub-agent runs for ${m.callId}`);
    },
    openFile: (m) => openWorkspaceFile(m.path, m.line, host.log),
    createPullRequest: async () => host.createPullRequest?.(c.currentSessionRef()?.id),
    retry: (m) => void c.retry(m.requestId),
    compactNow: async () => void (await c.compactNow()),
    setMode: (m) => c.setMode(m.mode),
    setResearchScope: (m) => c.setResearchScope(m.scope),
    openSource: (m) => openWorkspaceSource(m.path, { start: m.start, end: m.end }, host.log),
    openSourceQuote: (m) => host.openSourceQuote(m),
    setModel: (m) => c.setModel(m.model),
    setPermissionMode: async (m) => {
      await host.setPermissionMode?.(m.mode);
      await c.postSnapshot();
    },
    setReasoning: (m) => c.setReasoning(m.model, m.reasoning),
    newChat: () => c.newChat(),
    openLink: async (m) => {
      let uri: vscode.Uri;
      try {
        uri = vscode.Uri.parse(m.url, true);
      } catch {
        host.log.warn(`refused to open a malformed link`);
        return;
      }
      // Only web and mail links leave the chat; file:, command: and the like never do.
      if (!EXTERNAL_SCHEMES.has(`${uri.scheme}:`)) {
        host.log.warn(`refused to open a ${uri.scheme}: link from the chat`);
        return;
      }
      await vscode.env.openExternal(uri);
    },
    runCommand: async (m) => {
      if (m.command === 'setApiKey') await host.setApiKey();
      else if (m.command === 'selectModel') await host.pickModel();
      else if (m.command === 'getStarted') await vscode.commands.executeCommand('sextant.getStarted');
      else await host.exportSession();
    },
    approval: (m) =>
      c.approve(
        m.callId,
        m.decision === 'deny'
          ? { decision: 'deny', reason: m.reason }
          : m.decision === 'approve' && m.restOfTurn
            ? { decision: 'approve', restOfTurn: true }
            : { decision: m.decision },
      ),
    openDiff: async (m) => {
      if (!(await host.diffReviews.reveal(m.callId, m.path))) host.log.warn(`no diff to show for ${m.callId}`);
    },
    answer: (m) => c.answer(m.callId, m.answers),
    memoryReply: (m) => c.rememberReply(m.callId, m.reply),
    addMemory: async (m) => {
      const draft = `# ${m.text}`;
      if (!host.memory) refuse('Not kept: memories cannot be added here.', draft);
      else await host.memory.add(m.text, (message) => refuse(message, draft));
    },
    mcpDecision: (m) =>
      host.mcpDecide(m.server, m.decision, {
        configHash: m.configHash,
        ...(m.toolsHash !== undefined && { toolsHash: m.toolsHash }),
      }),
    hookDecision: (m) => host.hookDecide(m.hash, m.decision),
    history: (m) => c.postHistory(m.query, { offset: m.offset, limit: m.limit }),
    resume: async (m) => {
      if (!(await c.resume(m.sessionId)))
        void vscode.window.showWarningMessage('Sextant: that session no longer exists.');
    },
    openInEditor: (m) => host.openInEditor(m.sessionId),
    renameSession: (m) => {
      c.renameSession(m.sessionId, m.title);
      return c.postHistory(undefined, { reload: true });
    },
    deleteSession: async (m) => {
      await c.deleteSession(m.sessionId);
      await c.postHistory(undefined, { reload: true });
    },
    undoDelete: (m) => {
      c.restoreSession(m.sessionId);
      return c.postHistory(undefined, { reload: true });
    },
    export: (m) => host.exportSession(m.format),
    exportReport: (m) => host.exportReport(m.reportId, m.format),
    // Not awaited, like send: the approved plan runs as an Agent request for the whole turn.
    approvePlan: (m) => {
      const edited = host.planDocuments.editedText(m.planId);
      host.planDocuments.forget(m.planId);
      void c.approvePlan(m.planId, m.requestId, edited, m.withGrant === true);
    },
    editPlan: async (m) => {
      const plan = c.plan(m.planId);
      if (plan) await host.planDocuments.open(plan);
      else host.log.warn(`no plan ${m.planId} to edit`);
    },
    rejectPlan: (m) => {
      host.planDocuments.forget(m.planId);
      c.rejectPlan(m.planId);
    },
    // The controller posts the preview, the snapshot and `rewound` (or a refusal) itself.
    rewindPreview: async (m) => void (await c.rewindPreview(m.messageId)),
    rewind: async (m) => void (await c.rewind(m.messageId, m.scope, m.overwrite)),
    redoRewind: async () => void (await c.redoRewind()),
    // Not awaited, like send: the resent message runs for the whole turn.
    editResend: (m) =>
      void c.editResend(m.messageId, m.requestId, m.text, m.mode, {
        rewindFiles: m.rewindFiles,
        overwrite: m.overwrite,
      }),
  };
}
