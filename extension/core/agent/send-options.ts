// What a request carries beyond its text and mode (RequestRunner.send): set by the composer, a slash
// command, an approved plan, Retry or the goal loop (goal-loop.ts).
import type { PlanGrant, ResearchPlanInput, RunBudgetChoice, Todo } from '../../protocol';
import type { Attachment } from '../extensions/references/attach';
import type { PreApproval } from '../extensions/allowed-tools';
import type { CheckedImageSet } from '../extensions/images/chat-images';
import type { ToolPorts } from '../ports';
import type { TurnEvent } from './turn';

/** How a request runs beyond its text and mode. */
export interface SendOptions {
  /** Seeds the session's todo list when the request starts (an approved plan's steps). */
  todos?: Todo[];
  /** Research mode: carry out this approved research plan instead of planning first. */
  researchPlan?: ResearchPlanInput;
  /** Plan mode: propose a research plan (Plan Research) instead of a change plan. */
  planResearch?: boolean;
  /** This request only runs on this model (a slash command's `model`), not the chat's. */
  model?: string;
  /** The composer's budget choice for this run, or Continue after a budget stop. */
  budget?: RunBudgetChoice;
  /** The message's `@` references, read: their content goes below the text to the model, only names to the chat. */
  attachments?: Attachment[];
  /** Rules a slash command's `allowed-tools` pre-approves for this turn (see core/extensions/allowed-tools.ts). */
  preApproved?: PreApproval;
  /** The files and commands an approved plan grants for this run (core/permissions/run-grant.ts). */
  planGrant?: PlanGrant;
  /** Images the user attached, checked (chat-images.ts): image parts to the model, names and sizes to the chat. */
  images?: CheckedImageSet;
  /** The text is a command file's body: its `` !`command` `` lines run before it is sent (command-shell.ts). */
  commandShell?: boolean;
  /** The message is the goal loop's (goal-loop.ts), labelled so in the chat. */
  origin?: 'goal';
  /** Work inside the request around its turn: the goal loop admits its check before and runs it after. */
  around?: (turn: AsyncGenerator<TurnEvent>, ctx: AroundTurn) => AsyncGenerator<TurnEvent>;
}

export interface AroundTurn {
  asking: Pick<ToolPorts, 'approval' | 'ask'>;
  signal: AbortSignal;
  /** Whether the turn paused with Continue (a spending cap, the step limit). */
  paused(): 'budget' | 'max_steps' | undefined;
}
