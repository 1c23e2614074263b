// Up/Down through the user's earlier prompts (shell-style): Up from the draft goes to the newest prompt,
// further Up to older ones, Down back towards the draft, which is given back as it was left.

export class PromptRecall {
  /** Position in the list while walking it; undefined: at the draft. */
  private index: number | undefined;
  private draft = '';

  /** The text to show after Up, or undefined when there is nothing older. */
  up(prompts: readonly string[], current: string): string | undefined {
    if (!prompts.length) return undefined;
    if (this.index === undefined) {
      this.draft = current;
      this.index = prompts.length - 1;
    } else if (this.index > 0) this.index--;
    else return undefined;
    return prompts[this.index];
  }

  /** The text to show after Down, or undefined when not walking the list. */
  down(prompts: readonly string[]): string | undefined {
    if (this.index === undefined) return undefined;
    if (this.index < prompts.length - 1) {
      this.index++;
      return prompts[this.index];
    }
    this.index = undefined;
    return this.draft;
  }

  /** The user typed or sent: the next Up starts from the newest prompt again. */
  reset(): void {
    this.index = undefined;
  }

  get walking(): boolean {
    return this.index !== undefined;
  }
}

/** Up walks back only from the first line (or an empty composer), Down only from the last line. */
export function caretAllows(key: 'ArrowUp' | 'ArrowDown', text: string, start: number, end: number): boolean {
  if (start !== end) return false;
  return key === 'ArrowUp' ? !text.slice(0, start).includes('\n') : !text.slice(end).includes('\n');
}
