// The shapes the shell parser produces (parse.ts): words, redirections, simple commands.

export interface ShellWord {
  /** The word after quote removal and escape decoding; expansions stay as written ("$HOME", "$(date)"). */
  value: string;
  /** Holds an expansion only known at run time: $x, ${x}, $(…), `…`, $((…)). */
  dynamic: boolean;
  /** Holds unquoted pathname expansion (* ? […]) or brace expansion ({a,b}, {1..3}). */
  pattern: boolean;
  /** Starts with an unquoted ~ (a home directory). */
  tilde: boolean;
  /** Any part was quoted or escaped (such a word is never a keyword or an assignment). */
  quoted: boolean;
  /** The word is a process substitution, <(…) or >(…). */
  procSub?: '<' | '>';
  /** How many leading characters of `value` were plain, unquoted text (an assignment's name must be). */
  plain: number;
}

export interface ShellRedirect {
  /** The operator without its file descriptor: > >> >| < <> &> &>> >& <& << <<- <<< */
  op: string;
  fd?: number;
  target: ShellWord;
  /** For << and <<-: the here-document's body, and whether its delimiter was quoted (no expansions). */
  heredoc?: { body: string; quoted: boolean };
}

export interface ShellAssignment {
  name: string;
  value: ShellWord;
}

export interface ShellCommand {
  assignments: ShellAssignment[];
  words: ShellWord[];
  redirects: ShellRedirect[];
  /** Where the command sits: 'command', '$( )', '` `', '<( )', '>( )', '( )', 'here-document'. */
  origin: string;
  /** Reads the output of the command before it in a pipeline. */
  pipedInput: boolean;
  /** Runs in the shell itself, in sequence — not in a pipeline, subshell or the background (a `cd` here sticks). */
  sequential: boolean;
}

export interface ShellParse {
  /** Every simple command found, nested ones (substitutions, subshells) included, in reading order. */
  commands: ShellCommand[];
  /** What could not be read with confidence, in plain words; empty when the parse is trusted. */
  problems: string[];
}

export function literal(value: string): ShellWord {
  return { value, dynamic: false, pattern: false, tilde: false, quoted: false, plain: value.length };
}
