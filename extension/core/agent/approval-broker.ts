// The one place a tool call's approval (and an ask_user question) is asked and answered. The loop asks
// through the ports it builds per request; the card's buttons, the editor's Approve/Deny Change and
// the diff view all answer through `approve`, so there is one path whichever the user clicks.
import type { MemoryReply, RequestEvent } from '../../protocol';
import type { ApprovalDecision, AskAnswer, DiffReviewPort, Logger, ToolPorts } from '../ports';
import { isChangeSet } from '../tools/types';
import { PendingReplies } from './pending-replies';

export class ApprovalBroker {
  private readonly approvals = new PendingReplies<ApprovalDecision>();
  private readonly answers = new PendingReplies<AskAnswer[]>();
  private readonly memories = new PendingReplies<MemoryReply>();

  constructor(private readonly log: Logger) {}

  /** An answer to an approval card, from wherever the user gave it. Unknown or stale ids are logged. */
  readonly approve = (callId: string, decision: ApprovalDecision): void => {
    if (!this.approvals.reply(callId, decision)) this.log.warn(`no approval is waiting for ${callId}`);
  };

  /** The user's answers to an ask_user form. */
  readonly answer = (callId: string, answers: AskAnswer[]): void => {
    if (!this.answers.reply(callId, answers)) this.log.warn(`no question is waiting for ${callId}`);
  };

  /** The user's Keep or Drop on a proposed memory's card. */
  readonly rememberReply = (callId: string, reply: MemoryReply): void => {
    if (!this.memories.reply(callId, reply)) this.log.warn(`no memory is waiting for ${callId}`);
  };

  /**
   * The approval and ask ports of one request: each shows its card through `emit` (and a writer's
   * proposal in the diff review) and waits for the answer or the signal.
   */
  portsFor(
    emit: (event: RequestEvent) => void,
    diffReview?: DiffReviewPort,
  ): Pick<ToolPorts, 'approval' | 'ask' | 'memory'> {
    return {
      approval: {
        request: async (req, signal) => {
          const { sessionId: _sessionId, proposal, ...approval } = req;
          let pending = true;
          emit({ type: 'approval_needed', approval });
          // The card follows the diff view: the proposal edited, the file changed under it.
          const review =
            proposal &&
            diffReview?.open({ callId: req.callId, change: proposal }, (update) => {
              const { edited: _edited, stale: _stale, ...rest } = approval;
              const shown = {
                ...rest,
                ...(update.edited ? { edited: true } : {}),
                ...(update.stale ? { stale: update.stale } : {}),
              };
              if (pending && !signal.aborted) emit({ type: 'approval_needed', approval: shown });
            });
          try {
            const decision = await this.approvals.wait(req.callId, signal);
            // Approve from the card or the editor's title bar alike: the proposal as the user left it.
            if (decision.decision === 'deny' || !review || !proposal) return decision;
            if (isChangeSet(proposal)) {
              const editedTexts: Record<string, string> = {};
              for (const f of proposal.files) {
                const text = review.editedText(f.path);
                if (text !== undefined) editedTexts[f.path] = text;
              }
              return Object.keys(editedTexts).length ? { ...decision, editedTexts } : decision;
            }
            const editedText = review.editedText();
            return editedText === undefined ? decision : { ...decision, editedText };
          } finally {
            pending = false;
            review?.close();
            emit({ type: 'approval_resolved', callId: req.callId });
          }
        },
      },
      ask: {
        ask: async (req, signal) => {
          emit({ type: 'question', question: { callId: req.callId, questions: req.questions } });
          try {
            return await this.answers.wait(req.callId, signal);
          } finally {
            emit({ type: 'question_resolved', callId: req.callId });
          }
        },
      },
      memory: {
        propose: async (req, signal) => {
          emit({ type: 'memory_proposed', callId: req.callId, memory: req.memory });
          try {
            return await this.memories.wait(req.callId, signal);
          } finally {
            emit({ type: 'memory_resolved', callId: req.callId });
          }
        },
      },
    };
  }
}
