// What the analysis of a command line hands the policy (analyse.ts builds it, policy/decide.ts judges
// it): the pieces it runs, the files it writes, and findings no rule can vouch for. Its own file so the
// policy's parts can name these shapes without reaching into the analyser.
export interface CommandPiece {
  /** Program and arguments as the shell passes them (quotes removed, escapes decoded). */
  argv: string[];
  /** argv joined by single spaces: what `bash(…)` rules match. */
  text: string;
  /** With its wrappers (`sudo npm test`), for the card. */
  shown: string;
  /** The wrappers' words before argv (`timeout`, `10`); empty without wrappers. */
  wrapperArgv: string[];
  /** Texts deny and ask rules are matched against (with wrappers, with the program's path dropped). */
  denyTexts: string[];
  /** Texts an allow rule may match. */
  allowTexts: string[];
  /** Why a rule with a wildcard does not cover this piece (it can run any program); an exact rule may. */
  exactOnly?: string;
  /** Gets more arguments at run time (xargs): only a rule with a wildcard covers it. */
  openArgs?: boolean;
  /** A builtin that changes nothing by itself (cd, echo, true, export …): needs no rule beside others. */
  inert?: boolean;
  /** Judged by deny and ask rules only: a wrapper whose inner commands are judged in their own right. */
  transparent?: boolean;
  /**
   * With words bash only knows at run time: the deny texts with each such word as an open slot
   * (run-time-words.ts), so a deny or ask rule that the command *might* meet is not missed.
   */
  denyShapes?: string[];
  /** An unquoted pathname or brace pattern among its words: an exact rule (for literal text) does not cover it. */
  globbed?: boolean;
}

export interface CommandWrite {
  /** Normalized absolute path; for a pattern, the folder the pattern stays in. */
  path: string;
  /** For a pattern target (`*.log`): the pattern below `path`. */
  glob?: string;
  /** As written in the command. */
  shown: string;
  /** What writes it: "a redirection", "tee", "cp" … */
  by: string;
  /**
   * Written by the shell's redirection (`> f`, `>> f`, `&> f`), not by the program: no command rule
   * names it (rules match the program's words), so the policy judges it as an edit of that file.
   */
  redirect?: true;
}

export interface CommandFinding {
  /**
   * `protected`: it may write a protected file (always asks, like a protected write it shows);
   * `secret-file`: it names a project secret file (.env …), which asks unless a rule names the file.
   */
  kind: 'parse' | 'confinement' | 'protected' | 'secret-file';
  reason: string;
  /** For `secret-file`: the literal a user's allow rule must contain to lift the ask (`.env`). */
  ruleNames?: string;
}

export interface CommandAnalysis {
  pieces: CommandPiece[];
  writes: CommandWrite[];
  findings: CommandFinding[];
}
