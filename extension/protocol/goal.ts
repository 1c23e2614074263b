// `/goal`: what the user typed, read the same way by the view (the `/` menu, refusing a bad one with the
// draft kept) and the host (running it), and the goal banner's state.
//
//   /goal <condition>                       the model's own judgement against the written condition
//   /goal --check "<command>" [<condition>]  the command's exit code: 0 passes (it runs like a bash call)
//   /goal clear                             ends the running goal (also: stop, off, cancel)
import * as z from 'zod';

/** Claude Code's cap on a condition's length. */
export const GOAL_CONDITION_MAX_CHARS = 4_000;

export const GoalCheckSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('command'), command: z.string().min(1) }),
  z.object({ kind: z.literal('judge') }),
]);
export type GoalCheck = z.infer<typeof GoalCheckSchema>;

export interface GoalSpec {
  /** What to achieve, as the user wrote it (with `--check` alone: "`<command>` passes"). */
  condition: string;
  check: GoalCheck;
}

export type GoalCommand = { kind: 'set'; goal: GoalSpec } | { kind: 'clear' } | { kind: 'refused'; message: string };

export const GOAL_USAGE =
  'Usage: /goal <condition> (the model judges it after each turn), or /goal --check "<command>" [<condition>] ' +
  '(the command exit code 0 passes), or /goal clear.';

const CLEAR_WORDS = new Set(['clear', 'stop', 'off', 'cancel']);

/** `/goal`'s arguments (what follows the name) as a goal, a clear, or why they cannot be one. */
export function parseGoalArgs(args: string): GoalCommand {
  const text = args.trim();
  if (!text) return { kind: 'refused', message: GOAL_USAGE };
  if (CLEAR_WORDS.has(text.toLowerCase())) return { kind: 'clear' };
  let condition = text;
  let check: GoalCheck = { kind: 'judge' };
  const flag = /^--check(?:=|\s+|$)/.exec(text);
  if (flag) {
    const rest = text.slice(flag[0].length);
    const quoted = /^(["'])([\s\S]*?)\1(?:\s+|$)/.exec(rest);
    const word = quoted ? undefined : /^(\S+)(?:\s+|$)/.exec(rest);
    const command = (quoted?.[2] ?? word?.[1] ?? '').trim();
    if (!command) return { kind: 'refused', message: `The check command is empty. ${GOAL_USAGE}` };
    check = { kind: 'command', command };
    condition = rest.slice((quoted ?? word)?.[0].length ?? 0).trim() || `\`${command}\` passes (exit code 0)`;
  } else if (text.startsWith('--')) {
    return { kind: 'refused', message: `Unknown option ${text.split(/\s/)[0]}. ${GOAL_USAGE}` };
  }
  if (condition.length > GOAL_CONDITION_MAX_CHARS)
    return { kind: 'refused', message: `The condition is longer than ${GOAL_CONDITION_MAX_CHARS} characters.` };
  return { kind: 'set', goal: { condition, check } };
}

/** The goal banner: the condition, attempt k of N, and how it stands. */
export const GoalViewSchema = z.object({
  condition: z.string(),
  /** The check command (`--check`); absent: the model judges the condition. */
  command: z.string().optional(),
  attempt: z.number().int().min(0),
  maxAttempts: z.number().int().positive(),
  status: z.enum(['running', 'checking', 'passed', 'stopped', 'paused', 'failed']),
  /** The last check's verdict in a few words (its reason, or its last output line). */
  last: z.string().optional(),
});
export type GoalView = z.infer<typeof GoalViewSchema>;
